DROP INDEX "supplier_topups_effective";--> statement-breakpoint
ALTER TABLE "product_routes" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_routes" ADD COLUMN "pause_reason" text;--> statement-breakpoint
ALTER TABLE "supplier_balance_checks" ADD COLUMN "supplier" text;--> statement-breakpoint
ALTER TABLE "supplier_topups" ADD COLUMN "supplier" text;--> statement-breakpoint
CREATE INDEX "order_attempts_supplier_final" ON "order_attempts" USING btree ("supplier","final_at");--> statement-breakpoint
CREATE INDEX "supplier_balance_checks_supplier" ON "supplier_balance_checks" USING btree ("supplier","id");--> statement-breakpoint
CREATE INDEX "supplier_topups_effective" ON "supplier_topups" USING btree ("supplier","effective_at");