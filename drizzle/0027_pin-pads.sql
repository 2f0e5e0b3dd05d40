CREATE TABLE "pin_pads" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"detail" text,
	"entry" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pin_pads_user" ON "pin_pads" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "pin_entry";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "pin_entry_for";