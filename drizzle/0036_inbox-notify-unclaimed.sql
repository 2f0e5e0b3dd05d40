-- an update stored already claimed (the webhook of a process that drains the inbox handles
-- it at once) wakes nobody: every other worker would run a claim that finds nothing. A
-- statement that stored an unclaimed update, or stored nothing new (a replaced row goes
-- through the upsert's UPDATE), wakes the workers as before.
CREATE OR REPLACE FUNCTION "kios_inbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM kios_inbox_new)
     OR EXISTS (SELECT 1 FROM kios_inbox_new WHERE claimed_by IS NULL) THEN
    PERFORM pg_notify('kios_inbox', '');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER "telegram_updates_notify" ON "telegram_updates";--> statement-breakpoint
CREATE TRIGGER "telegram_updates_notify" AFTER INSERT ON "telegram_updates"
  REFERENCING NEW TABLE AS kios_inbox_new
  FOR EACH STATEMENT EXECUTE FUNCTION "kios_inbox_notify"();
