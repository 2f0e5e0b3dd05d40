CREATE TABLE "order_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"supplier" text NOT NULL,
	"supplier_code" text NOT NULL,
	"ref_id" text NOT NULL,
	"cost" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"answer_code" text,
	"answer_message" text,
	"rerouted_for" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	"final_at" timestamp with time zone,
	CONSTRAINT "order_attempts_status_known" CHECK ("order_attempts"."status" in ('open', 'rejected', 'failed', 'success'))
);
--> statement-breakpoint
CREATE TABLE "product_routes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_code" text NOT NULL,
	"supplier" text NOT NULL,
	"supplier_code" text NOT NULL,
	"name" text NOT NULL,
	"cost" bigint NOT NULL,
	"active" boolean NOT NULL,
	"listed" boolean DEFAULT true NOT NULL,
	"position" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_routes_cost_positive" CHECK ("product_routes"."cost" >= 0)
);
--> statement-breakpoint
CREATE TABLE "unlinked_supplier_products" (
	"supplier" text NOT NULL,
	"supplier_code" text NOT NULL,
	"name" text NOT NULL,
	"brand" text NOT NULL,
	"category" text NOT NULL,
	"candidates" jsonb NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "unlinked_supplier_products_supplier_supplier_code_pk" PRIMARY KEY("supplier","supplier_code")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "supplier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "route_code" text;--> statement-breakpoint
ALTER TABLE "supplier_reports" ADD COLUMN "supplier" text;--> statement-breakpoint
ALTER TABLE "order_attempts" ADD CONSTRAINT "order_attempts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_routes" ADD CONSTRAINT "product_routes_product_code_products_code_fk" FOREIGN KEY ("product_code") REFERENCES "public"."products"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_attempts_supplier_ref" ON "order_attempts" USING btree ("supplier","ref_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_attempts_order_seq" ON "order_attempts" USING btree ("order_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "order_attempts_one_open" ON "order_attempts" USING btree ("order_id") WHERE "order_attempts"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "product_routes_supplier_code" ON "product_routes" USING btree ("supplier","supplier_code");--> statement-breakpoint
CREATE UNIQUE INDEX "product_routes_product_supplier" ON "product_routes" USING btree ("product_code","supplier");--> statement-breakpoint
CREATE INDEX "product_routes_product_position" ON "product_routes" USING btree ("product_code","position");