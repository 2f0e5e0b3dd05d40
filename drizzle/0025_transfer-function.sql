-- a transfer in one round trip (src/commerce/wallet/ledger.ts, transfer()). Every Pay holds
-- and every settlement captures or releases: as separate statements a transfer was three to
-- five round trips (stored, entries, one balance update per account). The rules are the
-- ledger's own and unchanged:
--  - a key moves money once: a key already stored returns that transfer, not applied;
--  - accounts the legs name that do not exist yet are made (a wallet may be credited before
--    its owner ever opened the bot);
--  - the balances that move are locked wallets first, the shop's shared accounts last, each
--    by id (one order for every transfer keeps them from deadlocking), and checked before
--    anything is written: a refused transfer writes nothing, so it needs no savepoint, and
--    it says which account was short, by how much, and what that account holds;
--  - a derived account (legs with "derived": true, shop:holds) keeps no running balance:
--    its entries are its balance;
--  - a transfer that settles another (an order's capture or release settles its hold) names
--    it in p_requires, {"key", "account", "amount"}: that transfer's entry on that account
--    must exist with that amount, or nothing moves ("unmet": "missing" or "amount").
-- p_legs: [{"account": key, "amount": signed rupiah, "userId": telegram id or null,
--           "allowNegative": bool, "derived": bool}], already balanced and validated.
CREATE OR REPLACE FUNCTION kios_transfer(
  p_key text, p_kind text, p_memo text, p_actor bigint, p_legs jsonb, p_requires jsonb
) RETURNS jsonb AS $$
DECLARE
  v_id bigint;
  v_kind text;
  v_short record;
  v_held bigint;
BEGIN
  IF p_requires IS NOT NULL THEN
    SELECT e.amount INTO v_held
      FROM transfers t
      JOIN entries e ON e.transfer_id = t.id
      JOIN accounts a ON a.id = e.account_id
     WHERE t.key = p_requires->>'key' AND a.key = p_requires->>'account';
    IF NOT FOUND THEN
      RETURN jsonb_build_object('applied', false, 'unmet', 'missing');
    END IF;
    IF v_held <> (p_requires->>'amount')::bigint THEN
      RETURN jsonb_build_object('applied', false, 'unmet', 'amount', 'held', v_held);
    END IF;
  END IF;

  SELECT t.id, t.kind INTO v_id, v_kind FROM transfers t WHERE t.key = p_key;
  IF FOUND THEN
    RETURN jsonb_build_object('applied', false, 'id', v_id, 'kind', v_kind);
  END IF;

  INSERT INTO users (telegram_id)
    SELECT DISTINCT (l->>'userId')::bigint FROM jsonb_array_elements(p_legs) l
     WHERE l->>'userId' IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.key = l->>'account')
    ON CONFLICT DO NOTHING;
  INSERT INTO accounts (key, kind, user_id, allow_negative)
    SELECT DISTINCT l->>'account',
           CASE WHEN l->>'userId' IS NULL THEN 'shop' ELSE 'user' END,
           (l->>'userId')::bigint,
           (l->>'allowNegative')::boolean
      FROM jsonb_array_elements(p_legs) l
     WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.key = l->>'account')
    ON CONFLICT (key) DO NOTHING;

  -- the lock order: LockRows sits above the sort, so rows are locked in this order
  PERFORM 1 FROM accounts a
   WHERE a.key IN (SELECT l->>'account' FROM jsonb_array_elements(p_legs) l
                    WHERE NOT (l->>'derived')::boolean)
   ORDER BY (a.key NOT LIKE 'user:%'), a.id
     FOR UPDATE;

  SELECT a.key, -m.moved AS needed, a.balance INTO v_short
    FROM (SELECT l->>'account' AS key, sum((l->>'amount')::bigint) AS moved
            FROM jsonb_array_elements(p_legs) l
           WHERE NOT (l->>'derived')::boolean
           GROUP BY 1) m
    JOIN accounts a ON a.key = m.key
   WHERE NOT a.allow_negative AND a.balance + m.moved < 0
   ORDER BY (a.key NOT LIKE 'user:%'), a.id
   LIMIT 1;
  IF FOUND THEN
    RETURN jsonb_build_object('applied', false, 'short', v_short.key,
                              'needed', v_short.needed, 'balance', v_short.balance);
  END IF;

  INSERT INTO transfers (key, kind, memo, actor_id)
    VALUES (p_key, p_kind, p_memo, p_actor)
    ON CONFLICT (key) DO NOTHING
    RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    -- the same key, stored by a transaction that committed while this one waited for it
    SELECT t.id, t.kind INTO v_id, v_kind FROM transfers t WHERE t.key = p_key;
    RETURN jsonb_build_object('applied', false, 'id', v_id, 'kind', v_kind);
  END IF;

  INSERT INTO entries (transfer_id, account_id, amount)
    SELECT v_id, a.id, (l.leg->>'amount')::bigint
      FROM jsonb_array_elements(p_legs) WITH ORDINALITY AS l(leg, n)
      JOIN accounts a ON a.key = l.leg->>'account'
     ORDER BY l.n;
  UPDATE accounts a SET balance = a.balance + m.moved
    FROM (SELECT l->>'account' AS key, sum((l->>'amount')::bigint) AS moved
            FROM jsonb_array_elements(p_legs) l
           WHERE NOT (l->>'derived')::boolean
           GROUP BY 1) m
   WHERE a.key = m.key;
  RETURN jsonb_build_object('applied', true, 'id', v_id, 'kind', p_kind);
END;
$$ LANGUAGE plpgsql;
