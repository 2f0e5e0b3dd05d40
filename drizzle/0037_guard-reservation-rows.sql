-- the guard's per-supplier counter becomes one reservation row per Pay (issue 40): the
-- counters told concurrent Pays about each other only, so nothing in them is kept
DROP TABLE "supplier_reservations";--> statement-breakpoint
CREATE TABLE "supplier_reservations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"supplier" text NOT NULL,
	"cost" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "supplier_reservations_supplier" ON "supplier_reservations" USING btree ("supplier","expires_at");
