import { eq } from "drizzle-orm";
import { orders } from "../../db/schema.ts";
import type { SentRequest, SubmitOutcome } from "../../supplier/types.ts";
import { reportIfConflicting } from "./conflicts.ts";
import { nextCheckDelay, type OrderEngine } from "./engine.ts";
import { minMarginOf } from "./min-margin.ts";
import { getOrder } from "./queries.ts";
import { guardedReroute } from "./reroute-guard.ts";
import { claimFirstSend } from "./resend.ts";
import { orderCostCeiling } from "./route-ceiling.ts";
import {
  firstSupplierName,
  mayRerouteAfter,
  recordAnswer,
  reroute,
  rerouteFailed,
  rerouteProof,
  routeCodeOf,
  supplierOf,
} from "./routing.ts";
import {
  finalisationOf,
  finaliseAtOnce,
  finaliseOrder,
  markOpen,
  rejectionOf,
  successOf,
} from "./transitions.ts";
import type { Order } from "./types.ts";

// sending an order's open attempt to its supplier and recording what it answered: for the
// Pay button's first attempt and for every attempt a re-route opens, whoever re-routed it
// (the reply itself, a status check, a supplier's report).

/**
 * sends the order's open attempt (stored, `submitted`) and records the answer; a refusal
 * or a final failure that proves another supplier may do better sends it on to the next
 * route (design rule 15). Returns the order as it stands afterwards.
 */
export async function sendAttempt(deps: OrderEngine, order: Order): Promise<Order> {
  const outcome = await submit(deps, order);
  // the balance the answer carried (Digiflazz), a reading of that supplier's balance
  const balance =
    outcome.outcome === "accepted"
      ? outcome.transaction.balanceAfter
      : outcome.error?.details?.balanceAfter;
  if (balance !== undefined) {
    await deps.onAnswerBalance?.(deps, order.supplier, order.refId, balance);
  }
  return applySubmitOutcome(deps, order, outcome);
}

function signedAt(order: Order): { signedAt?: number } {
  return order.requestTimestamp === null ? {} : { signedAt: order.requestTimestamp * 1000 };
}

async function submit(deps: OrderEngine, order: Order): Promise<SubmitOutcome> {
  try {
    const supplier = supplierOf(deps, order.supplier);
    if (order.kind === "bill") {
      return await supplier.payBill({
        code: routeCodeOf(order),
        customerNo: order.destination,
        refId: order.refId,
        testing: order.testing,
        ...signedAt(order),
      });
    }
    if (supplier.statusResends) {
      // its status check re-sends this very request: stored first, with its ceiling
      const sent = await storeFirstSend(deps, order);
      if (!sent) {
        return {
          outcome: "unknown",
          reason: "the attempt was sent before (or is closed): its status check decides",
        };
      }
      return await supplier.order({
        cmd: order.kind,
        code: sent.code,
        customerNo: sent.customerNo,
        refId: sent.refId,
        testing: sent.testing,
        maxCost: sent.maxCost,
      });
    }
    return await supplier.order({
      cmd: order.kind,
      code: routeCodeOf(order),
      customerNo: order.destination,
      refId: order.refId,
      testing: order.testing,
      ...signedAt(order),
    });
  } catch (err) {
    // the client promises not to throw for supplier trouble; if it does, the outcome is unknown
    return { outcome: "unknown", reason: (err as Error).message };
  }
}

/**
 * the body of the attempt's first send, stored (and the attempt claimed) before it is sent;
 * undefined: stored already, so it may have gone, and only its status check may send it again
 */
async function storeFirstSend(deps: OrderEngine, order: Order): Promise<SentRequest | undefined> {
  return deps.db.transaction(async (tx) => {
    const sent: SentRequest = {
      kind: "order",
      code: routeCodeOf(order),
      customerNo: order.destination,
      refId: order.refId,
      testing: order.testing,
      maxCost: orderCostCeiling(order, await minMarginOf(tx, deps)),
    };
    return (await claimFirstSend(tx, order, sent, new Date(deps.clock.now()))) ? sent : undefined;
  });
}

/** records what the supplier said about a just-submitted order (design rule 2: unknown is not failed). */
async function applySubmitOutcome(
  deps: OrderEngine,
  order: Order,
  outcome: SubmitOutcome,
): Promise<Order> {
  const now = new Date(deps.clock.now());
  const log = deps.logger.child({ component: "orders", orderId: order.id, refId: order.refId });

  if (outcome.outcome === "accepted" && outcome.transaction.status === "failed") {
    // a final failure for the product's or the supplier's sake (its record's reason): the
    // next route, with a new ref_id; a destination's failure, or one without a reason,
    // is the order's result below
    const failed = outcome.transaction;
    const moved = mayRerouteAfter(order, failed)
      ? // the next route's supplier balance reserved first (reroute-guard.ts)
        await guardedReroute(deps, order, (plan) =>
          deps.db.transaction((tx) => rerouteFailed(deps, tx, order, failed, plan)),
        )
      : undefined;
    if (moved) {
      log.warn(
        { reason: outcome.transaction.reason, to: moved.supplier },
        "order failed: next route",
      );
      return sendAttempt(deps, moved);
    }
  }

  if (outcome.outcome === "rejected" && order.kind !== "bill") {
    // proof that nothing was formed, for the product's or the supplier's sake: the next
    // route at once, with a new ref_id (design rule 15); a bill stays where it was inquired
    const proof = rerouteProof(outcome.error);
    const moved = proof
      ? await reroute(deps, order, { code: proof, message: outcome.error.message })
      : undefined;
    if (moved) {
      log.warn({ code: outcome.error.code, to: moved.supplier }, "order refused: next route");
      return sendAttempt(deps, moved);
    }
  }

  if (outcome.outcome === "accepted" && outcome.transaction.status === "success") {
    // a success settles in one statement when that statement can settle it whole
    const settled = await finaliseAtOnce(deps.db, order, successOf(outcome.transaction), now, {
      attempt: order.refId,
      answerMessage: outcome.transaction.message,
      onFinal: deps.onOrderFinal,
    });
    if (settled) {
      // nothing queued (an H2H result kept out of the chat): no drain to wake
      if (settled.queued) await deps.jobs?.kickNotifications();
      return settled.order;
    }
  }

  const result = await deps.db.transaction(async (tx) => {
    if (outcome.outcome === "rejected") {
      // a refusal settles only the attempt it answered: an order already moved to another
      // route (a new ref_id) is not failed by it
      const [current] = await tx
        .select({ refId: orders.refId })
        .from(orders)
        .where(eq(orders.id, order.id))
        .for("update");
      if (current?.refId !== order.refId) return { order: undefined };
      log.warn({ code: outcome.error.code }, "order refused by the supplier");
      return {
        order: await finaliseOrder(tx, order, rejectionOf(outcome.error), now, false, {
          adminIds: deps.adminIds,
          pause: deps.productPause,
          firstSupplier: firstSupplierName(deps),
          onFinal: deps.onOrderFinal,
        }),
      };
    }
    if (outcome.outcome === "accepted") {
      const fin = finalisationOf(outcome.transaction);
      if (fin) {
        return {
          // the answer is kept on the attempt by the move itself (its code, message and time)
          order: await finaliseOrder(tx, order, fin, now, false, {
            adminIds: deps.adminIds,
            pause: deps.productPause,
            firstSupplier: firstSupplierName(deps),
            onFinal: deps.onOrderFinal,
            // the answer is about the attempt sent: a status check may have re-routed the
            // order meanwhile, and then this answer settles nothing
            attempt: order.refId,
            answerMessage: outcome.transaction.message,
          }),
        };
      }
      await recordAnswer(tx, order, {
        code: outcome.transaction.supplierCode,
        message: outcome.transaction.message,
        at: now,
      });
      const next = new Date(now.getTime() + nextCheckDelay(0, 0));
      return {
        order: await markOpen(tx, order, "pending", now, next, {
          code: outcome.transaction.supplierCode,
          message: outcome.transaction.message,
        }),
        open: true,
      };
    }
    log.warn({ reason: outcome.reason, code: outcome.error?.code }, "order outcome unknown");
    await recordAnswer(tx, order, {
      code: outcome.error?.code ?? null,
      message: outcome.reason,
      at: now,
    });
    const next = new Date(now.getTime() + nextCheckDelay(0, 0));
    return {
      order: await markOpen(tx, order, "unknown", now, next, {
        code: outcome.error?.code ?? null,
        message: outcome.reason,
      }),
      open: true,
    };
  });

  if (result.open) await deps.jobs?.scheduleCheck(order.id, nextCheckDelay(0, 0));
  else await deps.jobs?.kickNotifications();
  if (result.order) return result.order;
  // something else (a callback, a poll, the sweeper) moved it first: show what is stored,
  // and say so if the supplier's answer contradicts it
  const stored = (await getOrder(deps.db, order.id)) ?? order;
  // (an answer about an attempt the order has left contradicts nothing)
  if (
    outcome.outcome === "accepted" &&
    outcome.transaction.status !== "pending" &&
    stored.refId === order.refId
  ) {
    await reportIfConflicting(deps, stored, outcome.transaction.status);
  }
  return stored;
}
