ALTER TABLE "supplier_topups" DROP CONSTRAINT "supplier_topups_check_id_unique";--> statement-breakpoint
ALTER TABLE "supplier_balance_checks" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "supplier_balance_checks" ADD COLUMN "in_flight_rise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_balance_checks" ADD COLUMN "in_flight_fall" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_balance_checks" ADD COLUMN "carried" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_topups" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "supplier_topups" ADD COLUMN "reversed_by" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "supplier_topups_check_once" ON "supplier_topups" USING btree ("check_id") WHERE "supplier_topups"."check_id" is not null and "supplier_topups"."reversed_at" is null;