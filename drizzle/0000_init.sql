CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" bigint,
	"balance" bigint DEFAULT 0 NOT NULL,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_key_unique" UNIQUE("key"),
	CONSTRAINT "accounts_not_negative" CHECK ("accounts"."allow_negative" or "accounts"."balance" >= 0),
	CONSTRAINT "accounts_kind_known" CHECK ("accounts"."kind" in ('user', 'shop'))
);
--> statement-breakpoint
CREATE TABLE "bot_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"pay_amount" bigint NOT NULL,
	"reference" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_requests_reference_unique" UNIQUE("reference"),
	CONSTRAINT "deposit_requests_status_known" CHECK ("deposit_requests"."status" in ('requested', 'confirmed', 'rejected', 'expired')),
	CONSTRAINT "deposit_requests_amount_positive" CHECK ("deposit_requests"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transfer_id" bigint NOT NULL,
	"account_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entries_amount_nonzero" CHECK ("entries"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "inquiries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ref_id" text NOT NULL,
	"user_id" bigint NOT NULL,
	"product_code" text NOT NULL,
	"customer_no" text NOT NULL,
	"customer_name" text DEFAULT '' NOT NULL,
	"tagihan" bigint NOT NULL,
	"admin" bigint NOT NULL,
	"total" bigint NOT NULL,
	"details" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inquiries_ref_id_unique" UNIQUE("ref_id")
);
--> statement-breakpoint
CREATE TABLE "markup_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"scope_value" text DEFAULT '' NOT NULL,
	"tier" text NOT NULL,
	"percent_bp" integer DEFAULT 0 NOT NULL,
	"flat" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "markup_rules_scope_known" CHECK ("markup_rules"."scope" in ('all', 'type', 'category', 'brand', 'product')),
	CONSTRAINT "markup_rules_tier_known" CHECK ("markup_rules"."tier" in ('customer', 'reseller'))
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"chat_id" bigint NOT NULL,
	"message_id" integer,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	CONSTRAINT "notifications_key_unique" UNIQUE("key"),
	CONSTRAINT "notifications_status_known" CHECK ("notifications"."status" in ('pending', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ref_id" text NOT NULL,
	"confirm_key" text NOT NULL,
	"user_id" bigint NOT NULL,
	"chat_id" bigint NOT NULL,
	"message_id" integer,
	"kind" text NOT NULL,
	"product_code" text NOT NULL,
	"product_name" text NOT NULL,
	"destination" text NOT NULL,
	"price" bigint NOT NULL,
	"cost" bigint NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"testing" boolean DEFAULT false NOT NULL,
	"inquiry_id" bigint,
	"sn" text,
	"supplier_code" text,
	"supplier_message" text,
	"failure_reason" text,
	"supplier_price" bigint,
	"checks" integer DEFAULT 0 NOT NULL,
	"next_check_at" timestamp with time zone,
	"flagged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"final_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_ref_id_unique" UNIQUE("ref_id"),
	CONSTRAINT "orders_confirm_key_unique" UNIQUE("confirm_key"),
	CONSTRAINT "orders_status_known" CHECK ("orders"."status" in ('created', 'submitted', 'pending', 'unknown', 'success', 'failed')),
	CONSTRAINT "orders_kind_known" CHECK ("orders"."kind" in ('prepaid', 'game', 'bill')),
	CONSTRAINT "orders_price_not_below_cost" CHECK ("orders"."testing" or "orders"."price" >= "orders"."cost")
);
--> statement-breakpoint
CREATE TABLE "price_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_code" text NOT NULL,
	"old_price" bigint NOT NULL,
	"new_price" bigint NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"brand" text NOT NULL,
	"type" text NOT NULL,
	"operator" text,
	"supplier_price" bigint NOT NULL,
	"active" boolean NOT NULL,
	"listed" boolean DEFAULT true NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"start_cut_off" text,
	"end_cut_off" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_type_known" CHECK ("products"."type" in ('prepaid', 'game', 'pasca')),
	CONSTRAINT "products_price_positive" CHECK ("products"."supplier_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"chat_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"product_code" text NOT NULL,
	"destination" text NOT NULL,
	"price" bigint NOT NULL,
	"cost" bigint NOT NULL,
	"testing" boolean DEFAULT false NOT NULL,
	"inquiry_id" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_kind_known" CHECK ("quotes"."kind" in ('prepaid', 'game', 'bill'))
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "supplier_callbacks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"body_hash" text NOT NULL,
	"ref_id" text NOT NULL,
	"reported_status" text NOT NULL,
	"raw_body" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text,
	CONSTRAINT "supplier_callbacks_body_hash_unique" UNIQUE("body_hash")
);
--> statement-breakpoint
CREATE TABLE "telegram_updates" (
	"update_id" bigint PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"actor_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_key_unique" UNIQUE("key"),
	CONSTRAINT "transfers_kind_known" CHECK ("transfers"."kind" in ('deposit', 'debit', 'credit', 'hold', 'capture', 'release'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"telegram_id" bigint PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"username" text,
	"language" text DEFAULT 'id' NOT NULL,
	"role" text DEFAULT 'customer' NOT NULL,
	"blocked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_known" CHECK ("users"."role" in ('customer', 'reseller')),
	CONSTRAINT "users_language_known" CHECK ("users"."language" in ('id', 'en'))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_requests" ADD CONSTRAINT "deposit_requests_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_product_code_products_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."products"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_product_code_products_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."products"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_inquiry_id_inquiries_id_fk" FOREIGN KEY ("inquiry_id") REFERENCES "public"."inquiries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_product_code_products_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."products"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_user_id_users_telegram_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("telegram_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_product_code_products_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."products"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deposit_requests_user" ON "deposit_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_requests_open_pay_amount" ON "deposit_requests" USING btree ("pay_amount") WHERE "deposit_requests"."status" = 'requested';--> statement-breakpoint
CREATE INDEX "entries_account" ON "entries" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "entries_transfer" ON "entries" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "inquiries_user" ON "inquiries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "markup_rules_scope_tier" ON "markup_rules" USING btree ("scope","scope_value","tier");--> statement-breakpoint
CREATE INDEX "notifications_pending" ON "notifications" USING btree ("status","id") WHERE "notifications"."status" <> 'sent';--> statement-breakpoint
CREATE INDEX "orders_user_created" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_open" ON "orders" USING btree ("status","next_check_at") WHERE "orders"."status" not in ('success', 'failed');--> statement-breakpoint
CREATE INDEX "orders_final_at" ON "orders" USING btree ("final_at");--> statement-breakpoint
CREATE INDEX "price_changes_product" ON "price_changes" USING btree ("product_code","changed_at");--> statement-breakpoint
CREATE INDEX "products_type_brand" ON "products" USING btree ("type","brand");--> statement-breakpoint
CREATE INDEX "products_operator_category" ON "products" USING btree ("operator","category");--> statement-breakpoint
CREATE INDEX "products_category_brand" ON "products" USING btree ("category","brand");--> statement-breakpoint
CREATE INDEX "products_name_lower" ON "products" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "supplier_callbacks_ref" ON "supplier_callbacks" USING btree ("ref_id");