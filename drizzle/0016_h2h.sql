CREATE TABLE "expiring_messages" (
	"chat_id" bigint NOT NULL,
	"message_id" integer NOT NULL,
	"delete_at" timestamp with time zone NOT NULL,
	CONSTRAINT "expiring_messages_chat_id_message_id_pk" PRIMARY KEY("chat_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "h2h_callback_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"callback_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"error" text,
	"ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "h2h_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"h2h_order_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_by" text,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "h2h_callbacks_h2h_order_id_unique" UNIQUE("h2h_order_id"),
	CONSTRAINT "h2h_callbacks_status_known" CHECK ("h2h_callbacks"."status" in ('pending', 'delivered', 'given_up', 'no_url'))
);
--> statement-breakpoint
CREATE TABLE "h2h_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"api_id" text NOT NULL,
	"api_key_enc" text NOT NULL,
	"secret_key_enc" text NOT NULL,
	"callback_url" text,
	"ip_allowlist" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rate_per_minute" integer DEFAULT 600 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"chat_results" boolean DEFAULT false NOT NULL,
	"revoked_at" timestamp with time zone,
	"rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "h2h_keys_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "h2h_keys_api_id_unique" UNIQUE("api_id")
);
--> statement-breakpoint
CREATE TABLE "h2h_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"key_id" bigint NOT NULL,
	"ref_id" text NOT NULL,
	"kind" text NOT NULL,
	"product_code" text NOT NULL,
	"customer_no" text NOT NULL,
	"quote_id" text NOT NULL,
	"final_queued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "h2h_orders_quote_id_unique" UNIQUE("quote_id"),
	CONSTRAINT "h2h_orders_kind_known" CHECK ("h2h_orders"."kind" in ('order', 'bill'))
);
--> statement-breakpoint
ALTER TABLE "h2h_callback_attempts" ADD CONSTRAINT "h2h_callback_attempts_callback_id_h2h_callbacks_id_fk" FOREIGN KEY ("callback_id") REFERENCES "public"."h2h_callbacks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h2h_callbacks" ADD CONSTRAINT "h2h_callbacks_h2h_order_id_h2h_orders_id_fk" FOREIGN KEY ("h2h_order_id") REFERENCES "public"."h2h_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h2h_keys" ADD CONSTRAINT "h2h_keys_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD CONSTRAINT "h2h_orders_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD CONSTRAINT "h2h_orders_key_id_h2h_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."h2h_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD CONSTRAINT "h2h_orders_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "expiring_messages_due" ON "expiring_messages" USING btree ("delete_at");--> statement-breakpoint
CREATE INDEX "h2h_callback_attempts_user" ON "h2h_callback_attempts" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "h2h_callbacks_due" ON "h2h_callbacks" USING btree ("next_attempt_at") WHERE "h2h_callbacks"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "h2h_orders_user_ref" ON "h2h_orders" USING btree ("user_id","ref_id");--> statement-breakpoint
CREATE INDEX "h2h_orders_unqueued" ON "h2h_orders" USING btree ("id") WHERE "h2h_orders"."final_queued_at" is null;