import { type AnyColumn, and, eq, inArray, type SQL, sql, type WithSubquery } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orderAttempts, orders } from "../../db/schema.ts";
import { newRefId } from "../../supplier/ref-id.ts";
import type { Supplier, SupplierError, SupplierTransaction } from "../../supplier/types.ts";
import { DEFAULT_FIRST_SUPPLIER } from "../catalogue/routes.ts";
import type { OrderEngine } from "./engine.ts";
import {
  attemptsSoFar,
  guardedReroute,
  insertReroutedAttempt,
  nextRoutes,
  type ReroutePlan,
  routeOfPlan,
} from "./reroute-guard.ts";
import type { Order, OrderStatus } from "./types.ts";

// which supplier an order goes to, its attempts, and when it may go to the next
// (design rule 15, docs/suppliers.md#the-failover-table).

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
    case "SUPPLIER_REFUSED":
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

/**
 * the proof a final failure gives that another supplier may do better: the failed record's
 * own reason (docs/supplier.md#failure-reasons) says it was the product's or the supplier's.
 * Undefined: the destination's reason, no reason or an unknown one, a bill (paid where it
 * was inquired), anything not failed: then the failure is the order's result.
 */
function finalFailureProof(t: SupplierTransaction): string | undefined {
  if (t.kind !== "order" || t.status !== "failed") return undefined;
  switch (t.reason) {
    case "OUT_OF_STOCK":
    case "PRODUCT_DISRUPTED":
    case "SUPPLIER_ERROR":
      return t.reason;
    default:
      return undefined;
  }
}

/** a bill is paid where it was inquired, whatever its record looks like */
const failureProofOf = (order: Pick<Order, "kind">, t: SupplierTransaction) =>
  order.kind === "bill" ? undefined : finalFailureProof(t);

/** whether this final word may send the order to its next route (rerouteFailed may act) */
export const mayRerouteAfter = (order: Pick<Order, "kind">, t: SupplierTransaction): boolean =>
  failureProofOf(order, t) !== undefined;

/**
 * the order's first attempt, stored with it before anything is sent (design rule 1), as a
 * data-modifying CTE over the one that inserts the order (`stored`): the route Pay chose
 * (the first route kios will try whose supplier can cover it). A bill stays at the first
 * supplier, where it was inquired.
 */
export function firstAttemptOf(
  tx: Executor,
  stored: WithSubquery & { id: AnyColumn; refId: AnyColumn; createdAt: AnyColumn },
  /** placeholders of the statement built once (place.ts) */
  route: { supplier: SQL; supplierCode: SQL; cost: SQL },
) {
  return tx.$with("first_attempt", { id: sql<number>`id` }).as(sql`
    insert into ${orderAttempts} (order_id, seq, supplier, supplier_code, ref_id, cost, created_at)
    select ${stored.id}, 1, ${route.supplier}::text, ${route.supplierCode}::text,
      ${stored.refId}, ${route.cost}::bigint, ${stored.createdAt}
    from ${stored}
    returning id`);
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

/**
 * the order became final: so did its open attempt. A data-modifying CTE over the one that
 * moves the order (`moved`), so both are one statement
 */
export function closeAttemptOf(
  tx: Executor,
  moved: WithSubquery & { id: AnyColumn },
  /**
   * the attempt's status, time, code and reason (and the answer's message, kept when null):
   * placeholders of a statement built once
   */
  v: { status: SQL; at: SQL; code: SQL; reason: SQL; message?: SQL },
) {
  return tx.$with("closed_attempt").as(
    tx
      .update(orderAttempts)
      .set({
        status: v.status,
        finalAt: v.at,
        reason: v.reason,
        answerCode: sql`coalesce(${v.code}, ${orderAttempts.answerCode})`,
        ...(v.message
          ? { answerMessage: sql`coalesce(${v.message}, ${orderAttempts.answerMessage})` }
          : {}),
        answeredAt: sql`coalesce(${orderAttempts.answeredAt}, ${v.at})`,
      })
      .where(
        and(
          sql`${orderAttempts.orderId} in (select ${moved.id} from ${moved})`,
          eq(orderAttempts.status, "open"),
        ),
      )
      .returning({ id: orderAttempts.id }),
  );
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
  // the next route's supplier balance reserved first (reroute-guard.ts)
  return guardedReroute(deps, order, (plan) =>
    deps.db.transaction((tx) =>
      moveToNextRoute(deps, tx, order, plan, {
        proof: proof.code,
        // only the submission that sent this attempt re-routes it, and only once
        from: ["submitted"],
        close: { status: "rejected", answerCode: proof.code, message: proof.message },
      }),
    ),
  );
}

/**
 * the supplier reported a final failure of the order's open attempt for the product's or
 * its own sake (finalFailureProof), from its reply, a status check or a report: the attempt
 * is closed as failed and, when a route is left that the guard's plan lets it take (made
 * before the caller's transaction: guardedReroute), the order moves to a new attempt with
 * a new ref_id, in the caller's transaction under the order's row lock. The order is
 * `submitted` again (its new attempt is about to be sent; the buyer's hold stays). Returns
 * it ready to send, or undefined: no proof, no route left (or none whose supplier's
 * balance covers it), or the order moved on meanwhile (a late or repeated report of an
 * attempt already closed); then the caller settles the failure as before. Throws
 * RerouteOvertaken (the caller's transaction rolls back, guardedReroute runs it again)
 * when the plan's reservation no longer holds.
 */
export async function rerouteFailed(
  deps: OrderEngine,
  tx: Executor,
  order: Order,
  failed: SupplierTransaction,
  plan: ReroutePlan,
): Promise<Order | undefined> {
  const proof = failureProofOf(order, failed);
  if (!proof) return undefined;
  return moveToNextRoute(deps, tx, order, plan, {
    proof,
    from: ["submitted", "unknown", "pending"],
    close: {
      status: "failed",
      answerCode: failed.supplierCode,
      message: failed.message,
      reason: proof,
    },
  });
}

/** closes the order's open attempt as `close` says and opens the next route's, or nothing */
async function moveToNextRoute(
  deps: OrderEngine,
  tx: Executor,
  order: Order,
  plan: ReroutePlan,
  how: {
    proof: string;
    /** the states the order may be re-routed from */
    from: readonly OrderStatus[];
    close: {
      status: "rejected" | "failed";
      answerCode: string;
      message: string;
      reason?: string;
    };
  },
): Promise<Order | undefined> {
  const now = new Date(deps.clock.now());
  const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
  // the attempt this answer is about must still be the order's open one
  if (!locked || !how.from.includes(locked.status) || locked.refId !== order.refId) {
    return undefined;
  }
  const attempts = await attemptsSoFar(tx, order.id);
  // the guard's plan held to the routes as they are now (it throws when they changed)
  const route = routeOfPlan(plan, await nextRoutes(deps, tx, locked, attempts.tried));
  if (!route) return undefined;
  const closed = await tx
    .update(orderAttempts)
    .set({
      status: how.close.status,
      answerCode: how.close.answerCode,
      answerMessage: how.close.message.slice(0, 500),
      reason: how.close.reason ?? null,
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
  // with the plan's reservation consumed in the same statement
  await insertReroutedAttempt(deps, tx, plan, {
    orderId: order.id,
    seq: attempts.count + 1,
    route,
    refId,
    proof: how.proof,
    at: now,
  });
  const [moved] = await tx
    .update(orders)
    .set({
      refId,
      supplier: route.supplier,
      routeCode: route.supplierCode,
      cost: route.cost,
      // the new attempt is about to be sent: what the order says of its supplier's answers,
      // its checks and its next check start again with it (the sweep finds it meanwhile)
      status: "submitted",
      checks: 0,
      nextCheckAt: null,
      supplierCode: null,
      supplierMessage: null,
      // the new request's own signed time bounds its "never arrived" (design rule 11)
      requestTimestamp: Math.floor(now.getTime() / 1000),
      updatedAt: now,
    })
    .where(and(eq(orders.id, order.id), inArray(orders.status, [...how.from])))
    .returning();
  deps.logger.child({ component: "orders", orderId: order.id }).info(
    {
      from: locked.supplier ?? firstSupplierName(deps),
      to: route.supplier,
      proof: how.proof,
      refId,
    },
    "order re-routed",
  );
  return moved;
}

/** how many attempts an order has open (the invariant: at most one) */
export async function openAttempts(exec: Executor, orderId: number): Promise<number> {
  const [row] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(orderAttempts)
    .where(and(eq(orderAttempts.orderId, orderId), eq(orderAttempts.status, "open")));
  return Number(row?.n ?? 0);
}
