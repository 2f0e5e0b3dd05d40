CREATE TABLE "center_aliases" (
	"alias" text PRIMARY KEY NOT NULL,
	"keyword" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "text_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"ref" text,
	"quote_id" text NOT NULL,
	"answered" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_orders_quote_id_unique" UNIQUE("quote_id")
);
--> statement-breakpoint
ALTER TABLE "text_orders" ADD CONSTRAINT "text_orders_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "text_orders" ADD CONSTRAINT "text_orders_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "text_orders_user_ref" ON "text_orders" USING btree ("user_id","ref");