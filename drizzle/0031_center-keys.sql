CREATE TABLE "center_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"member_id" text NOT NULL,
	"pin_enc" text NOT NULL,
	"password_enc" text NOT NULL,
	"report_url" text,
	"ip_allowlist" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rate_per_minute" integer DEFAULT 600 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"revoked_at" timestamp with time zone,
	"rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "center_keys_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "center_keys_member_id_unique" UNIQUE("member_id")
);
--> statement-breakpoint
ALTER TABLE "h2h_orders" ALTER COLUMN "key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD COLUMN "center_key_id" bigint;--> statement-breakpoint
ALTER TABLE "center_keys" ADD CONSTRAINT "center_keys_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD CONSTRAINT "h2h_orders_center_key_id_center_keys_id_fk" FOREIGN KEY ("center_key_id") REFERENCES "public"."center_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD CONSTRAINT "h2h_orders_one_door" CHECK (("h2h_orders"."key_id" is null) <> ("h2h_orders"."center_key_id" is null));