ALTER TABLE "supplier_reports" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "supplier_reports" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "supplier_reports" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "supplier_reports" ADD COLUMN "error" text;--> statement-breakpoint
CREATE INDEX "supplier_reports_open" ON "supplier_reports" USING btree ("id") WHERE "supplier_reports"."processed_at" is null;--> statement-breakpoint
-- wakes the report drains (LISTEN kios_supplier_reports) the moment a report is stored
CREATE FUNCTION "kios_supplier_reports_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kios_supplier_reports', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "supplier_reports_notify" AFTER INSERT ON "supplier_reports"
  FOR EACH STATEMENT EXECUTE FUNCTION "kios_supplier_reports_notify"();
