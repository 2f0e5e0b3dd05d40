import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";

// the supplier balance guard's estimate: the last reading, less what kios has sent since
// (the supplier takes an order's price on arrival) unless it failed, plus top-ups recorded
// since. Without a reading there is no estimate, and no guard.

export interface KnownSupplierBalance {
  /** the reading it starts from */
  checkId: number;
  known: number;
}

export async function knownSupplierBalance(
  exec: Executor,
): Promise<KnownSupplierBalance | undefined> {
  const result = await exec.execute(sql`
    select c.id,
      c.balance
      - coalesce((select sum(coalesce(o.supplier_price, o.cost)) from orders o
          where o.submitted_at > c.read_at and not o.testing and o.status <> 'failed'), 0)
      + coalesce((select sum(t.amount) from supplier_topups t
          where t.effective_at > c.read_at and t.reversed_at is null), 0) as known
    from supplier_balance_checks c
    order by c.id desc
    limit 1`);
  const row = rowsOf(result)[0];
  return row ? { checkId: toNumber(row.id), known: toNumber(row.known) } : undefined;
}
