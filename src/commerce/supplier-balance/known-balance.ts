import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";

// the supplier balance guard's estimate, for each supplier on its own: its last reading,
// less what kios has stored or sent to it since (the supplier takes an order's price on
// arrival) unless it failed there or was rejected (nothing formed), plus the top-ups
// recorded into it since. Without a reading there is no estimate, and no guard for that
// supplier. What was sent to a supplier is read from the attempts, so an order re-routed
// from one supplier to another counts only where it went.

export interface KnownSupplierBalance {
  /** whose balance */
  supplier: string;
  /** the reading it starts from */
  checkId: number;
  known: number;
}

/** one Pay's reservation at a time, across processes (every supplier's: see reserveSupplierBalance) */
export const GUARD_LOCK = 7240118208;

/**
 * the guard's lock as a column of a statement that comes before the estimates (Pay takes it
 * with its quote: no round trip of its own); held to the transaction's end
 */
export const guardLockColumn = sql<unknown>`pg_advisory_xact_lock(${GUARD_LOCK}::bigint)`;

/** the first supplier's name when nothing says otherwise (SUPPLIER_NAME's default) */
const DEFAULT_FIRST = "main";

/**
 * the estimates of these suppliers (by name), in one statement; a supplier with no reading
 * has none. The first supplier's readings and top-ups are stored with a null supplier.
 */
async function knownSupplierBalances(
  exec: Executor,
  o: {
    suppliers: readonly string[];
    /** the first supplier's name (default "main") */
    firstSupplier?: string | undefined;
    /** the Pay's own order, stored already: what is reserved is checked apart */
    exceptOrderId?: number | undefined;
  },
): Promise<Map<string, KnownSupplierBalance>> {
  const names = [...new Set(o.suppliers)];
  const estimates = new Map<string, KnownSupplierBalance>();
  if (names.length === 0) return estimates;
  const first = o.firstSupplier ?? DEFAULT_FIRST;
  const except = o.exceptOrderId ?? null;
  const result = await exec.execute(sql`
    select n.name, c.id,
      c.balance
      -- stored and about to be sent counts too: it will be (its current supplier's)
      - coalesce((select sum(coalesce(o.supplier_price, o.cost)) from orders o
          where o.status = 'created' and not o.testing
            and coalesce(o.supplier, ${first}::text) = n.name
            and (${except}::bigint is null or o.id <> ${except}::bigint)), 0)
      -- sent to this supplier since the reading, and not failed or rejected there
      - coalesce((select sum(case when a.status = 'success'
              then coalesce(o.supplier_price, a.cost) else a.cost end)
          from order_attempts a join orders o on o.id = a.order_id
          where a.supplier = n.name and a.status in ('open', 'success')
            and (a.status = 'open' or a.final_at > c.read_at)
            and o.status <> 'created' and not o.testing
            and greatest(a.created_at, o.submitted_at) > c.read_at
            and (${except}::bigint is null or o.id <> ${except}::bigint)), 0)
      + coalesce((select sum(t.amount) from supplier_topups t
          where t.supplier is not distinct from c.supplier
            and t.effective_at > c.read_at and t.reversed_at is null), 0) as known
    from unnest(array[${sql.join(
      names.map((n) => sql`${n}`),
      sql`, `,
    )}]::text[]) as n(name)
    join lateral (
      select id, balance, read_at, supplier from supplier_balance_checks
      where case when n.name = ${first}::text then supplier is null else supplier = n.name end
      order by id desc limit 1
    ) c on true`);
  for (const row of rowsOf(result)) {
    const supplier = String(row.name);
    estimates.set(supplier, { supplier, checkId: toNumber(row.id), known: toNumber(row.known) });
  }
  return estimates;
}

/** one supplier's estimate (default: the first's) */
export async function knownSupplierBalance(
  exec: Executor,
  options: {
    exceptOrderId?: number;
    /** the first supplier's name (default "main") */
    firstSupplier?: string;
    /** whose estimate (default: the first's) */
    supplier?: string;
  } = {},
): Promise<KnownSupplierBalance | undefined> {
  const supplier = options.supplier ?? options.firstSupplier ?? DEFAULT_FIRST;
  const estimates = await knownSupplierBalances(exec, {
    suppliers: [supplier],
    firstSupplier: options.firstSupplier,
    exceptOrderId: options.exceptOrderId,
  });
  return estimates.get(supplier);
}

/** a place an order may go: its supplier and what that supplier would charge for it */
export interface GuardedRoute {
  supplier: string;
  cost: number;
}

/**
 * the first of the routes (in the order kios tries them) whose supplier's estimate covers
 * its cost (no estimate: no guard), and the estimates found short before it
 */
function firstCovered(
  routes: readonly GuardedRoute[],
  estimates: ReadonlyMap<string, KnownSupplierBalance>,
): { route: GuardedRoute | undefined; short: KnownSupplierBalance[] } {
  const short: KnownSupplierBalance[] = [];
  for (const route of routes) {
    const estimate = estimates.get(route.supplier);
    if (!estimate || estimate.known >= route.cost) return { route, short };
    short.push(estimate);
  }
  return { route: undefined, short };
}

/**
 * the guard's reservation, in the Pay's transaction before its order is stored, under the
 * lock (guardLockColumn) its caller took in a statement before this one and holds to the
 * commit: these estimates' snapshot then counts every Pay committed before it (its order
 * and first attempt), and a burst can't all pass the same estimate. One lock for every
 * supplier: a Pay may look at several suppliers (its routes, in their order), and one lock
 * can't be taken in two orders by two Pays. Returns the route it may take (undefined: none
 * can) and the suppliers found short before it.
 */
export async function reserveSupplierBalance(
  tx: Executor,
  routes: readonly GuardedRoute[],
  firstSupplier?: string,
): Promise<{ route: GuardedRoute | undefined; short: KnownSupplierBalance[] }> {
  const estimates = await knownSupplierBalances(tx, {
    suppliers: routes.map((r) => r.supplier),
    firstSupplier,
  });
  return firstCovered(routes, estimates);
}
