CREATE TABLE "users" (
	"telegram_id" bigint PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"username" text,
	"language" text DEFAULT 'id' NOT NULL,
	"role" text DEFAULT 'customer' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_known" CHECK ("users"."role" in ('customer', 'reseller')),
	CONSTRAINT "users_language_known" CHECK ("users"."language" in ('id', 'en'))
);
