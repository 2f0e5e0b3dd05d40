ALTER TABLE "h2h_orders" ALTER COLUMN "quote_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD COLUMN "claimed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "h2h_orders" ADD CONSTRAINT "h2h_orders_bill_quoted" CHECK ("h2h_orders"."kind" = 'order' or "h2h_orders"."quote_id" is not null);--> statement-breakpoint
-- a row stored before claims existed was taken when it was made
UPDATE "h2h_orders" SET "claimed_at" = "created_at";
