import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { supplierReservations } from "../../db/schema.ts";
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

/** the first supplier's name when nothing says otherwise (SUPPLIER_NAME's default) */
const DEFAULT_FIRST = "main";

/** an estimate with the reservation counter read in the same snapshot */
interface Estimate extends KnownSupplierBalance {
  /** the supplier's reservation counter as this estimate's snapshot saw it */
  reserved: number;
}

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
): Promise<Map<string, Estimate>> {
  const names = [...new Set(o.suppliers)];
  const estimates = new Map<string, Estimate>();
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
            and t.effective_at > c.read_at and t.reversed_at is null), 0) as known,
      coalesce((select r.reserved from ${supplierReservations} r
          where r.supplier = n.name), 0) as reserved
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
    estimates.set(supplier, {
      supplier,
      checkId: toNumber(row.id),
      known: toNumber(row.known),
      reserved: toNumber(row.reserved),
    });
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
  const estimate = estimates.get(supplier);
  if (!estimate) return undefined;
  const { reserved: _counter, ...known } = estimate;
  return known;
}

/** a place an order may go: its supplier and what that supplier would charge for it */
export interface GuardedRoute {
  supplier: string;
  cost: number;
}

/**
 * the first of the routes (in the order kios tries them) whose supplier's estimate covers
 * its cost (no estimate: no guard), with that estimate, and the estimates found short before it
 */
function firstCovered(
  routes: readonly GuardedRoute[],
  estimates: ReadonlyMap<string, Estimate>,
): { route: GuardedRoute | undefined; estimate: Estimate | undefined; short: Estimate[] } {
  const short: Estimate[] = [];
  for (const route of routes) {
    const estimate = estimates.get(route.supplier);
    if (!estimate || estimate.known >= route.cost) return { route, estimate, short };
    short.push(estimate);
  }
  return { route: undefined, estimate: undefined, short };
}

/**
 * what a Pay reserves of its route's supplier balance: the cost, on the condition that the
 * estimate it read, less what other Pays reserved since (the counter's growth past what the
 * estimate's snapshot saw), still covers it. undefined: the route's supplier has no reading,
 * so no guard and nothing to reserve
 */
export interface Reservation {
  supplier: string;
  cost: number;
  known: number;
  reservedAtRead: number;
}

/**
 * the guard's choice, in the Pay's transaction before its order is stored, with no lock: the
 * first route whose supplier's estimate covers its cost, and the reservation the order's own
 * statement makes (reservationStatement). Two Pays that read the same estimate are told
 * apart there: the second to reach the supplier's counter row waits for the first's commit
 * and sees its cost in the counter. Returns the route it may take (undefined: none can), the
 * reservation to make and the suppliers found short before it.
 */
export async function reserveSupplierBalance(
  tx: Executor,
  routes: readonly GuardedRoute[],
  firstSupplier?: string,
): Promise<{
  route: GuardedRoute | undefined;
  reservation: Reservation | undefined;
  short: KnownSupplierBalance[];
}> {
  const estimates = await knownSupplierBalances(tx, {
    suppliers: routes.map((r) => r.supplier),
    firstSupplier,
  });
  const { route, estimate, short } = firstCovered(routes, estimates);
  const reservation =
    route && estimate
      ? {
          supplier: route.supplier,
          cost: route.cost,
          known: estimate.known,
          reservedAtRead: estimate.reserved,
        }
      : undefined;
  return {
    route,
    reservation,
    short: short.map(({ reserved: _counter, ...known }) => known),
  };
}

/**
 * the reservation as a data-modifying statement for the CTE that stores the order: adds the
 * cost to the supplier's counter when the estimate still covers it, returning one row `ok`;
 * no row when Pays committed since the estimate was read took what it needed. The row's
 * lock is held to the commit, so Pays of one supplier pass this statement one after
 * another (each sees the counter as the one before left it: PostgreSQL re-checks the
 * condition on the newest row after the wait); the round trips before it run side by side
 */
export function reservationStatement(r: Reservation) {
  return sql`insert into ${supplierReservations} (supplier, reserved)
    select ${r.supplier}::text, ${r.cost}::bigint where ${r.known}::bigint >= ${r.cost}::bigint
    on conflict (supplier) do update
      set reserved = ${supplierReservations}.reserved + excluded.reserved
      where ${r.known}::bigint - (${supplierReservations}.reserved - ${r.reservedAtRead}::bigint)
        >= excluded.reserved
    returning 1 as ok`;
}
