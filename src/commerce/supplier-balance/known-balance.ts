import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";

// the supplier balance guard's estimate: the last reading, less what kios has stored or sent
// since (the supplier takes an order's price on arrival) unless it failed, plus top-ups
// recorded since. Without a reading there is no estimate, and no guard.

export interface KnownSupplierBalance {
  /** the reading it starts from */
  checkId: number;
  known: number;
}

/** one Pay's reservation at a time, across processes */
const GUARD_LOCK = 7240118208;

export async function knownSupplierBalance(
  exec: Executor,
  options: {
    exceptOrderId?: number;
    /**
     * the first supplier's name: the reading is its balance, so only orders whose current
     * attempt is there count (null: the first); absent, every order counts
     */
    firstSupplier?: string;
  } = {},
): Promise<KnownSupplierBalance | undefined> {
  const except = options.exceptOrderId ?? null;
  const first = options.firstSupplier ?? null;
  const result = await exec.execute(sql`
    select c.id,
      c.balance
      - coalesce((select sum(coalesce(o.supplier_price, o.cost)) from orders o
          where not o.testing and o.status <> 'failed'
            -- stored and about to be sent counts too: it will be
            and (o.submitted_at > c.read_at or o.status = 'created')
            and (${except}::bigint is null or o.id <> ${except}::bigint)
            and (${first}::text is null or o.supplier is null or o.supplier = ${first}::text)), 0)
      + coalesce((select sum(t.amount) from supplier_topups t
          where t.effective_at > c.read_at and t.reversed_at is null), 0) as known
    from supplier_balance_checks c
    order by c.id desc
    limit 1`);
  const row = rowsOf(result)[0];
  return row ? { checkId: toNumber(row.id), known: toNumber(row.known) } : undefined;
}

/**
 * the guard's reservation, in the Pay's transaction once its order is stored: under a lock
 * held to the commit, so each Pay's estimate counts every Pay committed before it and a
 * burst can't all pass the same estimate. Returns the estimate when it can't also cover
 * this order (the caller refuses, and its transaction stores nothing).
 */
export async function reserveSupplierBalance(
  tx: Executor,
  order: { id: number; cost: number },
  firstSupplier?: string,
): Promise<KnownSupplierBalance | undefined> {
  await tx.execute(sql`select pg_advisory_xact_lock(${GUARD_LOCK}::bigint)`);
  const estimate = await knownSupplierBalance(tx, {
    exceptOrderId: order.id,
    ...(firstSupplier ? { firstSupplier } : {}),
  });
  return estimate && estimate.known < order.cost ? estimate : undefined;
}
