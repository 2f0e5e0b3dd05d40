import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orderAttempts, products } from "../../db/schema.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import { DEFAULT_FIRST_SUPPLIER, type Route, routesOf, usableRoutes } from "../catalogue/routes.ts";
import {
  type GuardedRoute,
  type KnownSupplierBalance,
  type Reservation,
  releaseReservation,
  reservationStanding,
  reservationStatement,
  reservationValues,
  reserveSupplierBalance,
} from "../supplier-balance/known-balance.ts";
import type { OrderEngine } from "./engine.ts";
import { minMarginOf, routeCostCeiling } from "./min-margin.ts";
import { alertSupplierShort, OVERTAKEN_RETRIES, overtakenPause } from "./supplier-short.ts";
import type { Order } from "./types.ts";

// the supplier balance guard for a re-route (design rules 15 and 20;
// docs/reconciliation.md#the-balance-guard). A re-route is decided inside its caller's transaction (the order's row
// locked, sometimes with the status check's settlement), so, like a Pay, it reserves first:
// a reservation committed on its own before that transaction (known-balance.ts), consumed
// by the statement that stores the new attempt, which checks the supplier's estimate less
// every other live reservation. A burst of re-routes to one backup then sends no more than
// its estimate covers, with no lock shared by re-routes or Pays. A re-route whose routes'
// suppliers are all short is not made: the failure it answered is the order's result
// (failed, refunded), as when no route is left, and the admins hear of the short supplier.

const firstOf = (deps: Pick<OrderEngine, "firstSupplier">) =>
  deps.firstSupplier ?? DEFAULT_FIRST_SUPPLIER;

/**
 * the routes an order may still take, in order: each within what the buyer pays less every
 * upline's margin and the shop's minimum margin (design rule 21), as at its first attempt;
 * none at a supplier it tried already
 */
export async function nextRoutes(
  deps: OrderEngine,
  exec: Executor,
  o: Pick<Order, "productCode" | "price" | "margins" | "testing">,
  tried: ReadonlySet<string>,
): Promise<Route[]> {
  const [product] = await exec.select().from(products).where(eq(products.code, o.productCode));
  if (!product) return [];
  const routes = await routesOf(exec, product, firstOf(deps));
  return usableRoutes(routes, {
    costCeiling: routeCostCeiling({
      price: o.price,
      margins: o.margins,
      minMargin: await minMarginOf(exec, deps),
    }),
    tried,
    testing: o.testing,
    now: deps.clock.now(),
  });
}

/** the suppliers an order was sent to (or stored for) already, and how many attempts it has */
export async function attemptsSoFar(
  exec: Executor,
  orderId: number,
): Promise<{ tried: Set<string>; count: number }> {
  const attempts = await exec
    .select({ supplier: orderAttempts.supplier })
    .from(orderAttempts)
    .where(eq(orderAttempts.orderId, orderId));
  return { tried: new Set(attempts.map((a) => a.supplier)), count: attempts.length };
}

/** what the guard let a re-route take, decided before the caller's transaction */
export type ReroutePlan =
  /** a test order: no guard, the first usable route */
  | { kind: "unguarded" }
  /** no route was left when it looked */
  | { kind: "none" }
  /** every route left is at a supplier whose estimate can't cover it: no re-route */
  | { kind: "short"; short: readonly KnownSupplierBalance[] }
  /** this route, with its reservation (none: its supplier has no reading, so no guard) */
  | {
      kind: "route";
      route: GuardedRoute;
      reservation: Reservation | undefined;
      /** the suppliers found short before it (skipped) */
      short: readonly KnownSupplierBalance[];
      /** the shop's time the reservation was made at, for its check */
      now: number;
    };

/**
 * the reservation no longer fits (others that reserved meanwhile hold what it needs) or the
 * order's routes changed since the plan: the caller's transaction is rolled back and run
 * again with a plan that stands
 */
class RerouteOvertaken extends Error {
  constructor(
    /** the plan's route is not the order's any more: plan again */
    readonly replan = false,
  ) {
    super("the re-route's reservation was overtaken");
  }
}

/**
 * the guard's plan for the order's next route, read without a lock (the transaction that
 * moves the order reads its routes again and holds the plan to them): its reservation at
 * the first route whose supplier covers the route's cost, committed
 */
async function planReroute(deps: OrderEngine, order: Order): Promise<ReroutePlan> {
  if (order.testing) return { kind: "unguarded" };
  const { tried } = await attemptsSoFar(deps.db, order.id);
  const routes = await nextRoutes(deps, deps.db, order, tried);
  if (routes.length === 0) return { kind: "none" };
  const now = deps.clock.now();
  const { route, reservation, short } = await reserveSupplierBalance(
    deps.db,
    routes.map((r) => ({ supplier: r.supplier, cost: r.cost })),
    { firstSupplier: firstOf(deps), now },
  );
  if (!route) return { kind: "short", short };
  return { kind: "route", route, reservation, short, now };
}

/**
 * the route the transaction takes, from the routes it read under the order's lock: the
 * plan's (at the cost it reserved), or undefined when the plan says none may be taken;
 * throws RerouteOvertaken when the plan no longer fits the routes
 */
export function routeOfPlan(plan: ReroutePlan, routes: readonly Route[]): Route | undefined {
  switch (plan.kind) {
    case "unguarded":
      return routes[0];
    case "short":
      return undefined;
    case "none":
      if (routes.length > 0) throw new RerouteOvertaken(true);
      return undefined;
    case "route": {
      const route = routes.find(
        (r) => r.supplier === plan.route.supplier && r.cost === plan.route.cost,
      );
      if (!route) throw new RerouteOvertaken(true);
      return route;
    }
  }
}

/**
 * the re-route's new attempt, stored in the statement that consumes the plan's reservation
 * (so at any commit its cost counts once: as the reservation before, as the open attempt
 * after); throws RerouteOvertaken when the reservation's check fails, and nothing is stored
 */
export async function insertReroutedAttempt(
  deps: OrderEngine,
  tx: Executor,
  plan: ReroutePlan,
  a: {
    orderId: number;
    seq: number;
    route: Pick<Route, "supplier" | "supplierCode" | "cost">;
    refId: string;
    proof: string;
    at: Date;
  },
): Promise<void> {
  const reservation = plan.kind === "route" ? plan.reservation : undefined;
  if (!reservation || plan.kind !== "route") {
    await tx.insert(orderAttempts).values({
      orderId: a.orderId,
      seq: a.seq,
      supplier: a.route.supplier,
      supplierCode: a.route.supplierCode,
      refId: a.refId,
      cost: a.route.cost,
      reroutedFor: a.proof,
      createdAt: a.at,
    });
    return;
  }
  const result = await tx.execute(sql`
    with reserved as (${reservationStatement(valuesOf(reservation, firstOf(deps), a.at))}),
    attempt as (
      insert into ${orderAttempts}
        (order_id, seq, supplier, supplier_code, ref_id, cost, rerouted_for, created_at)
      select ${a.orderId}::bigint, ${a.seq}::int, ${a.route.supplier}::text,
        ${a.route.supplierCode}::text, ${a.refId}::text, ${a.route.cost}::bigint,
        ${a.proof}::text, ${a.at.toISOString()}::timestamptz
      from reserved
      returning id
    )
    select exists (select 1 from attempt) as ok`);
  const ok = rowsOf<{ ok: unknown }>(result)[0]?.ok;
  if (ok !== true && ok !== "t") throw new RerouteOvertaken();
  consumed.add(reservation);
}

/** reservations a re-route's statement consumed (its transaction may still roll back) */
const consumed = new WeakSet<Reservation>();

/**
 * runs `move` (the caller's transaction, which re-routes the order with the plan, or
 * settles it without a route) under the guard: planned and reserved first; run again while
 * re-routes and Pays that reserved at the same time hold what this one needs (blocked by
 * older reservations it reserves again, by newer ones only it keeps its place: the oldest
 * goes). Overtaken again and again, it runs with no route: the failure stands. A
 * reservation not consumed is released; one left by a crash expires
 */
export async function guardedReroute<T>(
  deps: OrderEngine,
  order: Order,
  move: (plan: ReroutePlan) => Promise<T>,
): Promise<T> {
  let plan = await planReroute(deps, order);
  const held = () => (plan.kind === "route" ? plan.reservation : undefined);
  try {
    for (let run = 0; ; run++) {
      try {
        const out = await move(plan);
        if (plan.kind === "short" || plan.kind === "route")
          await alertSupplierShort(deps, plan.short);
        // committed: a consumed reservation is gone, and there is nothing to release
        const mine = held();
        if (mine && consumed.has(mine)) plan = { kind: "none" };
        return out;
      } catch (err) {
        if (!(err instanceof RerouteOvertaken)) throw err;
        const mine = held();
        if (run >= OVERTAKEN_RETRIES) {
          if (mine) await releaseReservation(deps.db, mine);
          plan = { kind: "short", short: [] };
          continue;
        }
        const standing =
          mine && plan.kind === "route" && !err.replan
            ? await reservationStanding(deps.db, mine, {
                firstSupplier: firstOf(deps),
                now: plan.now,
              })
            : undefined;
        const keep =
          mine !== undefined &&
          standing?.live === true &&
          (standing.known ?? Number.POSITIVE_INFINITY) - standing.older >= mine.cost;
        await overtakenPause(run);
        if (keep) continue;
        if (mine) await releaseReservation(deps.db, mine);
        plan = { kind: "none" };
        plan = await planReroute(deps, order);
      }
    }
  } finally {
    // not consumed, or consumed by a transaction that rolled back
    const mine = held();
    if (mine) await releaseReservation(deps.db, mine);
  }
}

/**
 * the reservation's values as bound parameters: a re-route is rare, so its statement is built
 * each time (Pay's is built once, with placeholders). The time is the one it is consumed at: a
 * reservation others stopped counting is not consumed
 */
function valuesOf(reservation: Reservation, firstSupplier: string | undefined, at: Date) {
  const v = reservationValues(reservation, { firstSupplier, now: at.getTime() });
  return {
    id: sql`${v.id}`,
    supplier: sql`${v.supplier}`,
    cost: sql`${v.cost}`,
    first: sql`${v.first}`,
    now: sql`${v.now}`,
    consumeBy: sql`${v.consumeBy}`,
  };
}
