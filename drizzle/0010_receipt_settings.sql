CREATE TABLE "receipt_settings" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"shop_name" text,
	"markup" bigint DEFAULT 0 NOT NULL,
	"auto" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_settings_markup_range" CHECK ("receipt_settings"."markup" >= 0 and "receipt_settings"."markup" <= 10000000)
);
--> statement-breakpoint
ALTER TABLE "receipt_settings" ADD CONSTRAINT "receipt_settings_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;