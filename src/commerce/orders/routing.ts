import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orderAttempts, orders, products } from "../../db/schema.ts";
import { newRefId } from "../../supplier/ref-id.ts";
import type { Supplier, SupplierError } from "../../supplier/types.ts";
import { type Route, routesOf, usableRoutes } from "../catalogue/routes.ts";
import type { OrderEngine } from "./engine.ts";
import type { Order } from "./types.ts";

// which supplier an order goes to, its attempts, and when it may go to the next
// (design rule 15, docs/suppliers.md#the-failover-table).

/** the first supplier's name when the engine is not told (SUPPLIER_NAME's default) */
const DEFAULT_FIRST_SUPPLIER = "main";

export function firstSupplierName(deps: Pick<OrderEngine, "firstSupplier">): string {
  return deps.firstSupplier ?? DEFAULT_FIRST_SUPPLIER;
}

/** the supplier an order's current attempt is at (null: the first) */
export function supplierOf(
  deps: Pick<OrderEngine, "supplier" | "suppliers" | "firstSupplier">,
  name: string | null,
): Supplier {
  if (name === null || name === firstSupplierName(deps)) return deps.supplier;
  const s = deps.suppliers?.get(name);
  if (!s) throw new Error(`no supplier named ${name} is configured`);
  return s;
}

/** the code an order's current attempt sends its supplier */
export const routeCodeOf = (order: Order) => order.routeCode ?? order.productCode;

/**
 * the proof that a refusal formed no transaction and that another supplier may do better:
 * the supplier's own account or product refused it, not the destination. Undefined: no
 * such proof (a destination's error, a bill's, anything else), so no re-route.
 */
export function rerouteProof(error: SupplierError): string | undefined {
  switch (error.code) {
    case "INVALID_SIGNATURE":
    case "UNAUTHORIZED":
    case "INVALID_API_KEY":
    case "TIMESTAMP_EXPIRED":
    case "INSUFFICIENT_BALANCE":
    case "PRODUCT_NOT_FOUND":
    case "PRODUCT_INACTIVE":
    case "RATE_LIMITED":
    case "GONE":
      return error.code;
    case "VALIDATION_ERROR": {
      // about the product (its code, a cut-off), not the destination: another may take it.
      // kios's own "not sent" checks carry no field errors and are not proof of anything
      const fields = Object.keys(error.details.errors ?? {});
      return fields.length > 0 && fields.every((f) => f === "code")
        ? "VALIDATION_ERROR:code"
        : undefined;
    }
    default:
      return undefined;
  }
}

/** the routes an order at this price may still take, in order */
async function usableRoutesOf(
  deps: OrderEngine,
  tx: Executor,
  o: { productCode: string; price: number; testing: boolean },
  tried: ReadonlySet<string> = new Set(),
): Promise<Route[]> {
  const [product] = await tx.select().from(products).where(eq(products.code, o.productCode));
  if (!product) return [];
  const routes = await routesOf(tx, product, firstSupplierName(deps));
  return usableRoutes(routes, {
    price: o.price,
    minMargin: deps.minMargin ?? 0,
    tried,
    testing: o.testing,
    now: deps.clock.now(),
  });
}

const nextRoutes = (deps: OrderEngine, tx: Executor, order: Order, tried: ReadonlySet<string>) =>
  usableRoutesOf(deps, tx, order, tried);

/**
 * the order's first attempt, stored with it before anything is sent (design rule 1): the
 * first route kios will try. A bill stays at the first supplier, where it was inquired.
 * Returns the order as it is now (its supplier, code and cost those of the route).
 */
export async function openFirstAttempt(
  deps: OrderEngine,
  tx: Executor,
  order: Order,
  /** suppliers not to try (the balance guard found the first short) */
  skip: ReadonlySet<string> = new Set(),
  /** the usable routes, when the caller has read them already */
  known?: readonly Route[],
): Promise<Order> {
  let chosen: { supplier: string; supplierCode: string; cost: number } = {
    supplier: firstSupplierName(deps),
    supplierCode: order.productCode,
    cost: order.cost,
  };
  if (order.kind !== "bill") {
    const [route] = known
      ? known.filter((r) => !skip.has(r.supplier))
      : await nextRoutes(deps, tx, order, skip);
    if (route && !route.implicit) chosen = route;
    else if (route) chosen = { ...route, cost: order.cost };
  }
  const [first] = await tx
    .insert(orderAttempts)
    .values({
      orderId: order.id,
      seq: 1,
      supplier: chosen.supplier,
      supplierCode: chosen.supplierCode,
      refId: order.refId,
      cost: chosen.cost,
      createdAt: order.createdAt,
    })
    // a concurrent confirmation of the same card stored the order and its attempt first
    .onConflictDoNothing()
    .returning({ id: orderAttempts.id });
  if (!first) return order;
  if (chosen.supplier === firstSupplierName(deps) && chosen.supplierCode === order.productCode) {
    return order;
  }
  const [moved] = await tx
    .update(orders)
    .set({ supplier: chosen.supplier, routeCode: chosen.supplierCode, cost: chosen.cost })
    .where(eq(orders.id, order.id))
    .returning();
  return moved ?? order;
}

/** what a supplier answered on the order's open attempt (it stays open unless final) */
export async function recordAnswer(
  exec: Executor,
  order: Pick<Order, "id" | "refId">,
  a: { code: string | null; message: string | null; at: Date },
): Promise<void> {
  await exec
    .update(orderAttempts)
    .set({ answerCode: a.code, answerMessage: a.message?.slice(0, 500) ?? null, answeredAt: a.at })
    .where(
      and(
        eq(orderAttempts.orderId, order.id),
        eq(orderAttempts.refId, order.refId),
        eq(orderAttempts.status, "open"),
      ),
    );
}

/** the order became final: so did its open attempt */
export async function closeAttempt(
  exec: Executor,
  order: Pick<Order, "id">,
  status: "success" | "failed",
  at: Date,
  code: string | null,
): Promise<void> {
  await exec
    .update(orderAttempts)
    .set({
      status,
      finalAt: at,
      answerCode: sql`coalesce(${code}, ${orderAttempts.answerCode})`,
      answeredAt: sql`coalesce(${orderAttempts.answeredAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(orderAttempts.orderId, order.id), eq(orderAttempts.status, "open")));
}

/**
 * the supplier proved nothing was formed (`proof`): the attempt is closed as rejected and,
 * when a route is left, a new attempt with a new ref_id is opened and the order moved to
 * it, in one transaction under the order's row lock, so one order never has two attempts
 * open. Returns the order ready to send again, or undefined (no route left, or the order
 * moved on meanwhile): then the refusal is the order's result.
 */
export async function reroute(
  deps: OrderEngine,
  order: Order,
  proof: { code: string; message: string },
): Promise<Order | undefined> {
  const now = new Date(deps.clock.now());
  return deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
    // only the submission that sent this attempt re-routes it, and only once
    if (locked?.status !== "submitted" || locked.refId !== order.refId) return undefined;
    const attempts = await tx
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, order.id));
    const tried = new Set(attempts.map((a) => a.supplier));
    const [route] = await nextRoutes(deps, tx, locked, tried);
    if (!route) return undefined;
    const closed = await tx
      .update(orderAttempts)
      .set({
        status: "rejected",
        answerCode: proof.code,
        answerMessage: proof.message.slice(0, 500),
        answeredAt: now,
        finalAt: now,
      })
      .where(
        and(
          eq(orderAttempts.orderId, order.id),
          eq(orderAttempts.refId, locked.refId),
          eq(orderAttempts.status, "open"),
        ),
      )
      .returning({ id: orderAttempts.id });
    if (closed.length === 0) return undefined;
    const refId = newRefId(now.getTime());
    await tx.insert(orderAttempts).values({
      orderId: order.id,
      seq: attempts.length + 1,
      supplier: route.supplier,
      supplierCode: route.supplierCode,
      refId,
      cost: route.cost,
      reroutedFor: proof.code,
      createdAt: now,
    });
    const [moved] = await tx
      .update(orders)
      .set({
        refId,
        supplier: route.supplier,
        routeCode: route.supplierCode,
        cost: route.cost,
        // the new request's own signed time bounds its "never arrived" (design rule 11)
        requestTimestamp: Math.floor(now.getTime() / 1000),
        updatedAt: now,
      })
      .where(and(eq(orders.id, order.id), eq(orders.status, "submitted")))
      .returning();
    deps.logger.child({ component: "orders", orderId: order.id }).info(
      {
        from: locked.supplier ?? firstSupplierName(deps),
        to: route.supplier,
        proof: proof.code,
        refId,
      },
      "order re-routed",
    );
    return moved;
  });
}

/** how many attempts an order has open (the invariant: at most one) */
export async function openAttempts(exec: Executor, orderId: number): Promise<number> {
  const [row] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(orderAttempts)
    .where(and(eq(orderAttempts.orderId, orderId), eq(orderAttempts.status, "open")));
  return Number(row?.n ?? 0);
}
