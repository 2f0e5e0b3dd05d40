CREATE TABLE "order_locks" (
	"order_id" bigint PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
