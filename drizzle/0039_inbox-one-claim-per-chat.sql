-- one live claim per chat in the update inbox. The claim query takes only a chat's head,
-- and a store claims its update only when the chat has nothing waiting, but that check
-- reads the statement's snapshot: two processes storing two updates of one chat at the
-- same instant both claimed. The table now refuses a second claimed, unhandled update in a
-- chat. Checked at the end of each statement (deferrable), so a finish that marks a chat's
-- update handled and claims its next one in one statement passes whatever order its parts
-- run in. A store that loses stores its update unclaimed (src/bot/storage/updates.ts).
--
-- claims that break it already (left by that race) keep their lease time but lose their
-- worker: their workers' finishes no longer hold (they run again), and the claim query
-- takes them once the lease has run out
UPDATE "telegram_updates" t SET "claimed_by" = NULL
WHERE t."handled_at" IS NULL AND t."claimed_by" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "telegram_updates" o
  WHERE o."chat_id" = t."chat_id" AND o."handled_at" IS NULL AND o."claimed_by" IS NOT NULL
    AND (o."update_id", o."bot_id") < (t."update_id", t."bot_id"));--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD CONSTRAINT "telegram_updates_one_claim_per_chat"
  EXCLUDE USING btree ("chat_id" WITH =) WHERE ("claimed_by" IS NOT NULL AND "handled_at" IS NULL)
  DEFERRABLE INITIALLY IMMEDIATE;
