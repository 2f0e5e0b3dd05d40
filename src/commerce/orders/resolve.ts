import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { orders } from "../../db/schema.ts";
import type { StatusResult } from "../../supplier/types.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import {
  CREATED_ABANDONED_MS,
  NOT_FOUND_GRACE_MS,
  nextCheckDelay,
  type OrderDeps,
  STUCK_AFTER_MS,
} from "./deps.ts";
import { finalisationOf, finaliseOrder, markOpen, scheduleCheck } from "./transitions.ts";
import { isFinal, type Order } from "./types.ts";

// pending and unknown orders are settled by asking the supplier (/v1/status with the same
// ref_id), never by guessing: the spec's timeout rule, and DESIGN.md's rules 2 and 5.

async function load(deps: OrderDeps, orderId: number): Promise<Order | undefined> {
  const [row] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

/**
 * one status check of one order. Returns the order as it stands afterwards. Safe to run
 * any number of times, concurrently, from polls, callbacks and admins alike.
 */
export async function resolveOrder(deps: OrderDeps, orderId: number): Promise<Order | undefined> {
  const order = await load(deps, orderId);
  if (!order || isFinal(order.status)) return order;
  const now = new Date(deps.clock.now());
  const log = deps.logger.child({ component: "resolver", orderId, refId: order.refId });

  if (order.status === "created") {
    // never sent (the supplier is called only after created → submitted); a young one may
    // still be on its way in another process
    if (now.getTime() - order.createdAt.getTime() < CREATED_ABANDONED_MS) return order;
    log.warn("order interrupted before it was sent: releasing its hold");
    const moved = await deps.db.transaction((tx) =>
      finaliseOrder(
        tx,
        order,
        { status: "failed", reason: "interrupted before it was sent to the supplier" },
        now,
        true,
      ),
    );
    await deps.jobs?.kickNotifications();
    return moved ?? (await load(deps, orderId));
  }

  let status: StatusResult;
  try {
    status = await deps.supplier.status(order.refId);
  } catch (err) {
    log.warn({ err }, "status check failed; trying again later");
    await reschedule(deps, order, now);
    return load(deps, orderId);
  }

  if (!status.found) {
    const since = (order.submittedAt ?? order.createdAt).getTime();
    if (now.getTime() - since < NOT_FOUND_GRACE_MS) {
      await reschedule(deps, order, now);
      return load(deps, orderId);
    }
    log.warn("the supplier has no record of this order: releasing its hold");
    const moved = await deps.db.transaction((tx) =>
      finaliseOrder(
        tx,
        order,
        {
          status: "failed",
          reason: "the supplier has no record of this order",
          supplierCode: "TRANSACTION_NOT_FOUND",
        },
        now,
        true,
      ),
    );
    await deps.jobs?.kickNotifications();
    return moved ?? (await load(deps, orderId));
  }

  const fin = finalisationOf(status.transaction);
  if (fin) {
    const moved = await deps.db.transaction((tx) => finaliseOrder(tx, order, fin, now, true));
    if (moved) log.info({ status: moved.status }, "order settled by status check");
    await deps.jobs?.kickNotifications();
    return moved ?? (await load(deps, orderId));
  }
  // still pending at the supplier: unknown becomes pending, pending stays
  await deps.db.transaction((tx) =>
    markOpen(tx, order, "pending", now, new Date(now.getTime() + 1000), {
      code: status.transaction.supplierCode,
      message: status.transaction.message,
    }),
  );
  await reschedule(deps, order, now);
  return load(deps, orderId);
}

async function reschedule(deps: OrderDeps, order: Order, now: Date): Promise<void> {
  const age = now.getTime() - order.createdAt.getTime();
  const delay = nextCheckDelay(order.checks + 1, age);
  const stuck = age > STUCK_AFTER_MS;
  await deps.db.transaction(async (tx) => {
    await scheduleCheck(tx, order.id, new Date(now.getTime() + delay), stuck);
    if (stuck && !order.flaggedAt) {
      for (const adminId of deps.adminIds ?? []) {
        await enqueueNotification(tx, {
          key: `order:${order.id}:flagged:${adminId}`,
          chatId: adminId,
          payload: { type: "order_flagged", orderId: order.id },
        });
      }
    }
  });
  if (stuck && !order.flaggedAt) await deps.jobs?.kickNotifications();
  await deps.jobs?.scheduleCheck(order.id, delay);
}

/** an admin's "re-check" button: one status check now. */
export const recheckOrder = resolveOrder;

/**
 * the safety net: every open order whose next check is due (lost jobs, a restart) is
 * checked. At start-up this also resolves orders a crash left created or submitted.
 */
export async function sweepOpenOrders(deps: OrderDeps, limit = 100): Promise<number> {
  const now = new Date(deps.clock.now());
  const due = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        inArray(orders.status, ["created", "submitted", "unknown", "pending"]),
        or(lte(orders.nextCheckAt, now), sql`${orders.nextCheckAt} is null`),
      ),
    )
    .orderBy(asc(orders.nextCheckAt))
    .limit(limit);
  for (const { id } of due) {
    try {
      await resolveOrder(deps, id);
    } catch (err) {
      deps.logger.error({ err, orderId: id }, "resolving an order failed");
    }
  }
  return due.length;
}
