CREATE TABLE "supplier_balance_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"balance" bigint NOT NULL,
	"open_count" integer NOT NULL,
	"open_cost" bigint NOT NULL,
	"previous_id" bigint,
	"topups" bigint DEFAULT 0 NOT NULL,
	"success_count" integer DEFAULT 0 NOT NULL,
	"success_cost" bigint DEFAULT 0 NOT NULL,
	"expected_change" bigint,
	"actual_change" bigint,
	"drift" bigint,
	"tolerance" bigint DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supplier_balance_checks_status_known" CHECK ("supplier_balance_checks"."status" in ('baseline', 'ok', 'drift', 'explained'))
);
--> statement-breakpoint
CREATE TABLE "supplier_topups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"amount" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"recorded_by" bigint,
	"check_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supplier_topups_key_unique" UNIQUE("key"),
	CONSTRAINT "supplier_topups_check_id_unique" UNIQUE("check_id"),
	CONSTRAINT "supplier_topups_positive" CHECK ("supplier_topups"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "transfers" DROP CONSTRAINT "transfers_kind_known";--> statement-breakpoint
CREATE INDEX "supplier_topups_effective" ON "supplier_topups" USING btree ("effective_at");--> statement-breakpoint
CREATE INDEX "orders_submitted_at" ON "orders" USING btree ("submitted_at");--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_kind_known" CHECK ("transfers"."kind" in ('deposit', 'debit', 'credit', 'hold', 'capture', 'release', 'supplier_topup'));