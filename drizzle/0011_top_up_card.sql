ALTER TABLE "payments" ADD COLUMN "holds_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "charging_until" timestamp with time zone;--> statement-breakpoint
-- a "Top up and buy" whose QR can still be paid (or was paid) keeps its card
UPDATE "payments" SET "holds_card" = true WHERE "purpose" = 'buy' AND "quote_id" IS NOT NULL AND "status" IN ('created', 'pending', 'paid');--> statement-breakpoint
DROP INDEX "payments_quote";--> statement-breakpoint
CREATE UNIQUE INDEX "payments_card" ON "payments" USING btree ("quote_id") WHERE "payments"."holds_card";
