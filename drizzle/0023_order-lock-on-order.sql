DROP TABLE "order_locks" CASCADE;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lock_holder" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "lock_until" timestamp with time zone;