import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";

// the admins' figures about routing (/stats): how each supplier did with the attempts it
// was sent, and the sales a re-route saved (docs/suppliers.md)

export interface SupplierFigures {
  supplier: string;
  /** attempts that ended (success, failed, or refused with proof) */
  ended: number;
  succeeded: number;
  /** median seconds from an attempt's creation to its end; null: none ended */
  medianSeconds: number | null;
}

export async function supplierFigures(exec: Executor, since: Date): Promise<SupplierFigures[]> {
  const result = await exec.execute(sql`
    select a.supplier,
      count(*) filter (where a.status <> 'open') as ended,
      count(*) filter (where a.status = 'success') as succeeded,
      percentile_cont(0.5) within group (
        order by extract(epoch from (a.final_at - a.created_at))
      ) filter (where a.final_at is not null) as median
    from order_attempts a
    join orders o on o.id = a.order_id
    where not o.testing and a.created_at >= ${since.toISOString()}::timestamptz
    group by a.supplier
    order by a.supplier`);
  return rowsOf(result).map((r) => ({
    supplier: String(r.supplier),
    ended: toNumber(r.ended),
    succeeded: toNumber(r.succeeded),
    medianSeconds: r.median === null || r.median === undefined ? null : Number(r.median),
  }));
}

/** orders that succeeded on a later attempt (a re-route saved the sale) since then */
export async function failoverSaves(exec: Executor, since: Date): Promise<number> {
  const result = await exec.execute(sql`
    select count(distinct a.order_id) as n
    from order_attempts a
    join orders o on o.id = a.order_id
    where a.status = 'success' and a.seq > 1 and o.status = 'success' and not o.testing
      and a.final_at >= ${since.toISOString()}::timestamptz`);
  return toNumber(rowsOf(result)[0]?.n ?? 0);
}
