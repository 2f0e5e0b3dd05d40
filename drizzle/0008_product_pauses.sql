ALTER TABLE "products" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "pause_reason" text;