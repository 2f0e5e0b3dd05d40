CREATE TABLE "reseller_markups" (
	"id" serial PRIMARY KEY NOT NULL,
	"reseller_id" bigint NOT NULL,
	"scope" text NOT NULL,
	"scope_value" text DEFAULT '' NOT NULL,
	"percent_bp" integer DEFAULT 0 NOT NULL,
	"flat" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_markups_not_negative" CHECK ("reseller_markups"."percent_bp" >= 0 and "reseller_markups"."flat" >= 0),
	CONSTRAINT "reseller_markups_scope_known" CHECK ("reseller_markups"."scope" in ('all', 'type', 'category', 'brand', 'product'))
);
--> statement-breakpoint
CREATE TABLE "wallet_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"from_user_id" bigint NOT NULL,
	"to_user_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'asked' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "wallet_transfers_amount_positive" CHECK ("wallet_transfers"."amount" > 0),
	CONSTRAINT "wallet_transfers_status_known" CHECK ("wallet_transfers"."status" in ('asked', 'done', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "transfers" DROP CONSTRAINT "transfers_kind_known";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "margins" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "margins" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "parent_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "joined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "referral_code" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_entry" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pin_entry_for" text;--> statement-breakpoint
ALTER TABLE "reseller_markups" ADD CONSTRAINT "reseller_markups_reseller_id_users_telegram_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transfers" ADD CONSTRAINT "wallet_transfers_from_user_id_users_telegram_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transfers" ADD CONSTRAINT "wallet_transfers_to_user_id_users_telegram_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reseller_markups_scope" ON "reseller_markups" USING btree ("reseller_id","scope","scope_value");--> statement-breakpoint
CREATE INDEX "wallet_transfers_from" ON "wallet_transfers" USING btree ("from_user_id","created_at");--> statement-breakpoint
CREATE INDEX "users_parent" ON "users" USING btree ("parent_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referral_code_unique" UNIQUE("referral_code");--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_kind_known" CHECK ("transfers"."kind" in ('deposit', 'debit', 'credit', 'hold', 'capture', 'release', 'supplier_topup', 'margin', 'wallet_transfer'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_parent_not_self" CHECK ("users"."parent_id" is null or "users"."parent_id" <> "users"."telegram_id");