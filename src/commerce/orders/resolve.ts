import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders } from "../../db/schema.ts";
import type { SentRequest, StatusResult } from "../../supplier/types.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import { reportIfConflicting } from "./conflicts.ts";
import {
  CREATED_ABANDONED_MS,
  NOT_FOUND_ASK_ADMIN_MS,
  NOT_FOUND_MARGIN_MS,
  NOT_FOUND_MIN_CHECKS,
  nextCheckDelay,
  type OrderEngine,
  SIGNED_REQUEST_WINDOW_MS,
  STUCK_AFTER_MS,
} from "./engine.ts";
import { type OrderFence, withOrderLock } from "./lock.ts";
import { guardedReroute, type ReroutePlan } from "./reroute-guard.ts";
import { billStatusBody, claimResend } from "./resend.ts";
import { firstSupplierName, mayRerouteAfter, rerouteFailed, supplierOf } from "./routing.ts";
import { sendAttempt } from "./submission.ts";
import { finalisationOf, finaliseOrder, markOpen, scheduleCheck } from "./transitions.ts";
import { isFinal, type Order } from "./types.ts";

// pending and unknown orders are settled by asking the supplier (/v1/status with the same
// ref_id), never by guessing: the supplier's timeout rule; unknown is not failed, and state moves forward only
// (design rules 2 and 5).

async function load(deps: OrderEngine, orderId: number): Promise<Order | undefined> {
  const [row] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  return row;
}

/**
 * one status check of one order. Returns the order as it stands afterwards. Safe to run
 * any number of times, from polls, callbacks and admins alike; runs of one order take turns.
 */
export interface ResolveOptions {
  /** a settled order's news (a callback) is checked against the supplier's word */
  checkSettled?: boolean;
  /**
   * what that news says (a report's ref_id and status): news that agrees with how the order
   * settled (its current attempt, its final state) tells nothing new, and asks nothing
   */
  news?: { refId: string; status: string } | undefined;
  /**
   * run in the transaction that settles the order, once it moved (a report's handler
   * closes its report there: settled and closed commit together)
   */
  onSettled?: (tx: Executor, order: Order) => Promise<void>;
}

export async function resolveOrder(
  deps: OrderEngine,
  orderId: number,
  options: ResolveOptions = {},
): Promise<Order | undefined> {
  // one check of an order at a time, across processes: a report and a poll arriving
  // together ask the supplier once each, in turn, and the second finds the first's result.
  // Every write below goes through the lock's fence: a check that lost the lock while it
  // waited for the supplier commits nothing (OrderLockLostError)
  let rerouted: Order | undefined;
  // the lock is taken on the order's own row, and brings the order with it
  const after = await withOrderLock(deps.db, orderId, (fence, order) =>
    resolveUnlocked(deps, order, options, fence, (next) => {
      rerouted = next;
    }),
  );
  // the check found a final failure another supplier may make good and moved the order to
  // its next route: that attempt is sent now, the lock given back (its answer is recorded
  // as a first attempt's is; a check meanwhile finds it submitted)
  return rerouted ? sendAttempt(deps, rerouted) : after;
}

async function resolveUnlocked(
  deps: OrderEngine,
  order: Order,
  options: ResolveOptions,
  fence: OrderFence,
  onRerouted: (next: Order) => void,
): Promise<Order | undefined> {
  const orderId = order.id;
  if (isFinal(order.status)) {
    // news about a settled order (a callback) is checked against the supplier's word, unless
    // it is the word the order settled by: the same attempt, the same final state
    const agrees = options.news?.refId === order.refId && options.news.status === order.status;
    if (options.checkSettled && !agrees) await checkSettledOrder(deps, order, options.news);
    return order;
  }
  const now = new Date(deps.clock.now());
  const log = deps.logger.child({ component: "resolver", orderId, refId: order.refId });

  if (order.status === "created") {
    // never sent (the supplier is called only after created → submitted); a young one may
    // still be on its way in another process
    if (now.getTime() - order.createdAt.getTime() < CREATED_ABANDONED_MS) return order;
    log.warn("order interrupted before it was sent: releasing its hold");
    const moved = await deps.db.transaction(async (tx) => {
      await fence(tx);
      return finaliseOrder(
        tx,
        order,
        { status: "failed", reason: "interrupted before it was sent to the supplier" },
        now,
        true,
        { from: ["created"], onFinal: deps.onOrderFinal },
      );
    });
    await deps.jobs?.kickNotifications();
    return moved ?? (await load(deps, orderId));
  }

  const supplier = supplierOf(deps, order.supplier);
  let sent: SentRequest | undefined;
  if (supplier.statusResends) {
    // its status check re-sends the order: only the current open attempt, as first sent
    const gate = await resendGate(deps, order, now, fence);
    if ("done" in gate) return gate.done;
    sent = gate.sent;
  }
  let status: StatusResult;
  try {
    status = await supplier.status(order.refId, sent);
  } catch (err) {
    log.warn({ err }, "status check failed; trying again later");
    await reschedule(deps, order, now, fence);
    return load(deps, orderId);
  }

  if (!status.found) return notFound(deps, order, now, fence);
  // the balance the answer carried (Digiflazz's re-send), a reading of that supplier's balance
  const balance = status.transaction.balanceAfter;
  if (balance !== undefined) {
    await deps.onAnswerBalance?.(deps, order.supplier, order.refId, balance);
  }

  const fin = finalisationOf(status.transaction);
  if (fin) {
    const mayReroute = mayRerouteAfter(order, status.transaction);
    const settle = (plan: ReroutePlan | undefined) =>
      deps.db.transaction(async (tx) => {
        // a failure for the product's or the supplier's sake goes to the next route, if any
        // (design rule 15); else, or for any other final word, the order settles with it
        if (plan) {
          await fence(tx);
          const next = await rerouteFailed(deps, tx, order, status.transaction, plan);
          if (next) return { next };
        }
        const moved = await finaliseOrder(tx, order, fin, now, true, {
          adminIds: deps.adminIds,
          pause: deps.productPause,
          firstSupplier: firstSupplierName(deps),
          onFinal: deps.onOrderFinal,
          // the answer is about this attempt: an order re-routed meanwhile is not settled by it
          attempt: order.refId,
          // the fence is the move's own condition (and the move frees the lock), unless it
          // ran already for the re-route's look
          lock: mayReroute ? undefined : fence,
        });
        // nothing moved: the lock lost (the fence throws, and nothing commits), or the order
        // settled already
        if (!moved && !mayReroute) await fence(tx);
        if (moved) await options.onSettled?.(tx, moved);
        return { moved };
      });
    // a re-route reserves its next route's supplier balance first (reroute-guard.ts): the
    // transaction runs again when that reservation is overtaken
    const settled = mayReroute
      ? await guardedReroute(deps, order, settle)
      : await settle(undefined);
    if (settled.moved && !mayReroute) fence.freed();
    if (settled.next) {
      log.warn(
        { reason: status.transaction.reason, to: settled.next.supplier },
        "order failed at its supplier: next route",
      );
      onRerouted(settled.next);
      return settled.next;
    }
    const moved = settled.moved;
    if (moved) log.info({ status: moved.status }, "order settled by status check");
    const after = moved ?? (await load(deps, orderId));
    // settled meanwhile by something else: does it agree with the supplier? (only an
    // answer about the attempt it settled on can contradict it)
    if (!moved && after?.refId === order.refId) await reportIfConflicting(deps, after, fin.status);
    await deps.jobs?.kickNotifications();
    return after;
  }
  // still pending at the supplier: unknown becomes pending, pending stays
  await deps.db.transaction(async (tx) => {
    await fence(tx);
    await markOpen(tx, order, "pending", now, new Date(now.getTime() + 1000), {
      code: status.transaction.supplierCode,
      message: status.transaction.message,
    });
  });
  await reschedule(deps, order, now, fence);
  return load(deps, orderId);
}

/** how long an attempt never sent (nothing stored) may still be on its way in another process */
const NEVER_SENT_AFTER_MS = 5 * 60_000;

/**
 * a status check at a supplier whose check re-sends the order (resend.ts): the body to send,
 * or what the check did instead (waited, asked an admin, refunded what was never sent)
 */
async function resendGate(
  deps: OrderEngine,
  order: Order,
  now: Date,
  fence: OrderFence,
): Promise<{ sent: SentRequest } | { done: Order | undefined }> {
  if (order.kind === "bill") return { sent: billStatusBody(order) };
  const log = deps.logger.child({ component: "resolver", orderId: order.id, refId: order.refId });
  const claim = await deps.db.transaction(async (tx) => {
    await fence(tx);
    return claimResend(tx, order, now);
  });
  if ("send" in claim) return { sent: claim.send };
  if ("wait" in claim) {
    // leaning on the webhook meanwhile: its report asks again, and waits as long
    const delay = Math.max(1000, claim.wait.getTime() - now.getTime());
    await deps.db.transaction(async (tx) => {
      await fence(tx);
      await scheduleCheck(tx, order.id, new Date(now.getTime() + delay), order.flaggedAt !== null);
    });
    await deps.jobs?.scheduleCheck(order.id, delay);
    return { done: await load(deps, order.id) };
  }
  if ("tooOld" in claim) {
    log.warn("attempt older than the supplier's re-send limit: never sent again, an admin decides");
    await reschedule(deps, order, now, fence, "not_found");
    return { done: await load(deps, order.id) };
  }
  if ("neverSent" in claim && now.getTime() - claim.neverSent.getTime() > NEVER_SENT_AFTER_MS) {
    // nothing was stored, so nothing was sent (the body is stored before the send)
    log.warn("attempt never sent to the supplier: releasing its hold");
    const moved = await deps.db.transaction(async (tx) => {
      await fence(tx);
      return finaliseOrder(
        tx,
        order,
        { status: "failed", reason: "never sent to the supplier" },
        now,
        true,
        { from: [order.status], onFinal: deps.onOrderFinal, attempt: order.refId },
      );
    });
    await deps.jobs?.kickNotifications();
    return { done: moved ?? (await load(deps, order.id)) };
  }
  // closed or not yet stored: nothing is sent now
  await reschedule(deps, order, now, fence);
  return { done: await load(deps, order.id) };
}

/**
 * the supplier has no record of the order. Design rule 11: refund only on proof that it can never
 * be made. On the signature interface that proof is the request's own signed timestamp
 * lying past the supplier's 5-minute window (plus a margin), seen over several answers,
 * for an order the supplier never answered for. Otherwise the order stays open, keeps its
 * next check, and is flagged to the admins (on the key interface, with a refund / keep
 * waiting choice, since nothing there bounds when the supplier may still make it).
 */
async function notFound(
  deps: OrderEngine,
  order: Order,
  now: Date,
  fence: OrderFence,
): Promise<Order | undefined> {
  const log = deps.logger.child({ component: "resolver", orderId: order.id, refId: order.refId });
  const signedAt =
    (order.requestTimestamp ??
      Math.floor((order.submittedAt ?? order.createdAt).getTime() / 1000)) * 1000;
  const pastWindow = now.getTime() > signedAt + SIGNED_REQUEST_WINDOW_MS + NOT_FOUND_MARGIN_MS;
  const provenNeverMade =
    supplierOf(deps, order.supplier).interface === "signature" &&
    order.status !== "pending" &&
    pastWindow &&
    order.checks >= NOT_FOUND_MIN_CHECKS;
  if (provenNeverMade) {
    log.warn("the supplier has no record of this order and can no longer accept it: refunding");
    const moved = await deps.db.transaction(async (tx) => {
      await fence(tx);
      return finaliseOrder(
        tx,
        order,
        {
          status: "failed",
          reason: "the supplier has no record of this order",
          supplierCode: "TRANSACTION_NOT_FOUND",
        },
        now,
        true,
        // only from what was read, for the attempt asked about: a racing answer from the
        // supplier, or a re-route, wins
        { from: [order.status], onFinal: deps.onOrderFinal, attempt: order.refId },
      );
    });
    await deps.jobs?.kickNotifications();
    if (moved) return moved;
  }
  const askAdmin =
    supplierOf(deps, order.supplier).interface !== "signature" &&
    now.getTime() - signedAt > NOT_FOUND_ASK_ADMIN_MS &&
    order.decision === null;
  await reschedule(deps, order, now, fence, askAdmin ? "not_found" : undefined);
  return load(deps, order.id);
}

async function reschedule(
  deps: OrderEngine,
  order: Order,
  now: Date,
  fence: OrderFence,
  /** flag now, whatever the age, for this reason (the admins are asked to decide) */
  reason?: "not_found",
): Promise<void> {
  const age = now.getTime() - order.createdAt.getTime();
  const stuckAfter = deps.stuckAfterMs ?? STUCK_AFTER_MS;
  const delay = nextCheckDelay(order.checks + 1, age, stuckAfter);
  const stuck = age > stuckAfter || reason !== undefined;
  const flagNow = (stuck && !order.flaggedAt) || reason !== undefined;
  await deps.db.transaction(async (tx) => {
    await fence(tx);
    await scheduleCheck(tx, order.id, new Date(now.getTime() + delay), stuck);
    if (!flagNow) return;
    for (const adminId of deps.adminIds ?? []) {
      // one notice per reason and admin, however often the order is checked
      await enqueueNotification(tx, {
        key: `order:${order.id}:${reason ?? "flagged"}:${adminId}`,
        chatId: adminId,
        payload: { type: "order_flagged", orderId: order.id, reason },
      });
    }
  });
  if (flagNow) await deps.jobs?.kickNotifications();
  await deps.jobs?.scheduleCheck(order.id, delay);
}

/** how long an order the sweep could not move waits before the sweep takes it again */
const SWEEP_RETRY_MS = 60_000;

/**
 * the safety net: every open order whose next check is due (lost jobs, a restart) is
 * checked. At start-up this also resolves orders a crash left created or submitted.
 */
export async function sweepOpenOrders(deps: OrderEngine, limit = 100): Promise<number> {
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
    // orders a crash left without a next check come first, whatever the backlog
    .orderBy(sql`${orders.nextCheckAt} asc nulls first`)
    .limit(limit);
  for (const { id } of due) {
    try {
      await resolveOrder(deps, id);
    } catch (err) {
      deps.logger.error({ err, orderId: id }, "resolving an order failed");
    }
    // whatever happened, an order the sweep took is not due again at once: one that keeps
    // failing must not stay at the head of every batch and starve the others
    await deps.db
      .update(orders)
      .set({ nextCheckAt: new Date(now.getTime() + SWEEP_RETRY_MS) })
      .where(
        and(
          eq(orders.id, id),
          inArray(orders.status, ["submitted", "unknown", "pending"]),
          or(lte(orders.nextCheckAt, now), sql`${orders.nextCheckAt} is null`),
        ),
      );
  }
  return due.length;
}

/** asks the supplier about a settled order and reports a contradiction to the admins. */
async function checkSettledOrder(
  deps: OrderEngine,
  order: Order,
  news: ResolveOptions["news"],
): Promise<void> {
  const supplier = supplierOf(deps, order.supplier);
  if (supplier.statusResends && order.kind !== "bill") {
    // a settled order's attempt is never sent again (it would be a purchase if the supplier
    // does not hold it): the verified report's own word goes to the admins if it disagrees
    if (news?.refId === order.refId && (news.status === "success" || news.status === "failed")) {
      await reportIfConflicting(deps, order, news.status);
    }
    return;
  }
  let status: StatusResult;
  try {
    status = await supplier.status(
      order.refId,
      supplier.statusResends ? billStatusBody(order) : undefined,
    );
  } catch (err) {
    deps.logger.warn({ err, orderId: order.id }, "checking a settled order failed");
    return;
  }
  const fin = status.found ? finalisationOf(status.transaction) : null;
  if (fin) await reportIfConflicting(deps, order, fin.status);
}
