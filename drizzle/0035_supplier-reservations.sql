CREATE TABLE "supplier_reservations" (
	"supplier" text PRIMARY KEY NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL
);
