-- kios_transfer for a statement that has no transaction around it (an order's settlement in
-- one statement: src/commerce/orders/settle-at-once.ts). kios_transfer answers a transfer it
-- did not apply (a key stored before, a hold that is missing or of another amount, an account
-- short) as a value, and the caller's transaction, rolled back when the caller throws, keeps
-- the rest of the work from standing without it. A lone statement has no such caller: here a
-- transfer not applied is an error, so the whole statement, whatever else it wrote, is undone.
-- The message names kios_transfer_or_fail and carries kios_transfer's answer.
CREATE OR REPLACE FUNCTION kios_transfer_or_fail(
  p_key text, p_kind text, p_memo text, p_actor bigint, p_legs jsonb, p_requires jsonb
) RETURNS jsonb AS $$
DECLARE
  v_stored jsonb;
BEGIN
  v_stored := kios_transfer(p_key, p_kind, p_memo, p_actor, p_legs, p_requires);
  IF NOT (v_stored->>'applied')::boolean THEN
    RAISE EXCEPTION 'kios_transfer_or_fail: % not applied: %', p_key, v_stored
      USING ERRCODE = 'KT001';
  END IF;
  RETURN v_stored;
END;
$$ LANGUAGE plpgsql;
