ALTER TABLE "order_attempts" ADD COLUMN "sent" jsonb;--> statement-breakpoint
ALTER TABLE "order_attempts" ADD COLUMN "sent_at" timestamp with time zone;