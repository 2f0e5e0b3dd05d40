CREATE TABLE "payment_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"body_hash" text NOT NULL,
	"gateway_order_id" text NOT NULL,
	"raw_body" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "payment_notifications_body_hash_unique" UNIQUE("body_hash")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"gateway_order_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"chat_id" bigint NOT NULL,
	"message_id" integer,
	"card_message_id" integer,
	"purpose" text NOT NULL,
	"quote_id" text,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"paid_amount" bigint,
	"gateway_transaction_id" text,
	"qr_string" text,
	"expires_at" timestamp with time zone NOT NULL,
	"next_check_at" timestamp with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"purchase" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "payments_gateway_order_id_unique" UNIQUE("gateway_order_id"),
	CONSTRAINT "payments_status_known" CHECK ("payments"."status" in ('created', 'pending', 'paid', 'expired', 'cancelled', 'denied', 'failed', 'mismatch')),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount" > 0),
	CONSTRAINT "payments_purpose_known" CHECK ("payments"."purpose" in ('deposit', 'buy'))
);
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_notifications_order" ON "payment_notifications" USING btree ("gateway_order_id");--> statement-breakpoint
CREATE INDEX "payments_user" ON "payments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_open" ON "payments" USING btree ("next_check_at") WHERE "payments"."status" in ('created', 'pending');--> statement-breakpoint
CREATE UNIQUE INDEX "payments_quote" ON "payments" USING btree ("quote_id") WHERE "payments"."quote_id" is not null;