ALTER TABLE "supplier_balance_checks" ADD COLUMN "source" text DEFAULT 'balance' NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_balance_checks" ADD COLUMN "ref_id" text;--> statement-breakpoint
ALTER TABLE "supplier_balance_checks" ADD CONSTRAINT "supplier_balance_checks_source_known" CHECK ("supplier_balance_checks"."source" in ('balance', 'answer'));