-- update_ids count per bot: the inbox keys an update by its bot and update_id. Existing
-- rows get bot 0, and the running bot adopts them at start (src/bot/inbox/store.ts). The
-- new key replaces the old one in this migration's transaction; the table holds a few days
-- of updates, so building it is brief. Old code's inserts (ON CONFLICT DO NOTHING) still work.
ALTER TABLE "telegram_updates" ADD COLUMN "bot_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "telegram_updates" DROP CONSTRAINT "telegram_updates_pkey";--> statement-breakpoint
ALTER TABLE "telegram_updates" ADD CONSTRAINT "telegram_updates_bot_id_update_id_pk" PRIMARY KEY("bot_id","update_id");--> statement-breakpoint
-- the update whose handling wrote a chat's state, written with the state
ALTER TABLE "bot_state" ADD COLUMN "bot_id" bigint;--> statement-breakpoint
ALTER TABLE "bot_state" ADD COLUMN "update_id" bigint;
