ALTER TABLE "bot_state" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "chat_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "user_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD COLUMN "error" text;--> statement-breakpoint
CREATE INDEX "telegram_updates_open" ON "telegram_updates" USING btree ("chat_id","update_id") WHERE "telegram_updates"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "telegram_updates_waiting" ON "telegram_updates" USING btree ("update_id") WHERE "telegram_updates"."handled_at" is null;--> statement-breakpoint
-- rows from before the inbox were handled in memory when they arrived
UPDATE "telegram_updates" SET "handled_at" = "received_at" WHERE "handled_at" IS NULL;--> statement-breakpoint
-- wakes the workers (LISTEN kios_inbox) the moment updates are stored, whoever stored them
CREATE FUNCTION "kios_inbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kios_inbox', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "telegram_updates_notify" AFTER INSERT ON "telegram_updates"
  FOR EACH STATEMENT EXECUTE FUNCTION "kios_inbox_notify"();
