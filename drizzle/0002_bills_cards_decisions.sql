CREATE TABLE "chat_cards" (
	"chat_id" bigint NOT NULL,
	"message_id" integer NOT NULL,
	"quote_id" text NOT NULL,
	"rank" integer NOT NULL,
	"content_hash" text NOT NULL,
	"text" text NOT NULL,
	"keyboard" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_cards_chat_id_message_id_pk" PRIMARY KEY("chat_id","message_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "bill_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "request_timestamp" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "decided_by" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quotes" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_payment_per_bill" ON "orders" USING btree ("bill_key") WHERE "orders"."bill_key" is not null and "orders"."status" <> 'failed';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_decision_known" CHECK ("orders"."decision" is null or "orders"."decision" in ('refund', 'wait'));