import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { gatewayReports, payments } from "../../db/schema.ts";
import { GatewayError, type GatewayPaymentStatus } from "../../gateway/types.ts";
import { enqueueNotification, type FreshCard } from "../notifications/outbox.ts";
import { cancelQuote } from "../orders/cancel.ts";
import { confirmQuote } from "../orders/place.ts";
import { findUserQuote, requote, storedRefusal } from "../orders/quotes.ts";
import { nextPaymentCheckDelay, type PaymentEngine } from "./engine.ts";
import {
  type ApplyResult,
  applyGatewayStatus,
  duePayments,
  getPayment,
  type Payment,
  unfinishedPurchases,
} from "./payments.ts";

// the resolver: an open payment is asked about until it is final, so a lost notification
// never loses a deposit; a paid "deposit and buy" then buys its card, once.

const isOpen = (p: Payment) => p.status === "created" || p.status === "pending";

/** asks the gateway about one payment and applies the answer; returns the payment after */
export async function resolvePayment(
  deps: PaymentEngine,
  paymentId: number,
): Promise<Payment | undefined> {
  const { db, logger } = deps.orders;
  const log = logger.child({ component: "payments", paymentId });
  const payment = await getPayment(db, paymentId);
  if (!payment) return undefined;
  if (chargeUnderWay(deps, payment)) {
    // its QR may be on its way to the buyer: startPayment settles it, or the sweeper once
    // the charge's window is past (its next check)
    log.debug("charge under way; left to it");
    return payment;
  }
  if (isOpen(payment)) {
    let status: GatewayPaymentStatus;
    try {
      status = await deps.gateway.status(payment.gatewayOrderId);
      // a charge whose answer was lost: the buyer never saw its QR, so it must not stay payable
      if (payment.status === "created" && status.state === "pending") {
        status = await deps.gateway.cancel(payment.gatewayOrderId);
      }
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      log.warn({ err: err.message }, "payment status unknown; asking again later");
      await later(deps, payment);
      return payment;
    }
    const applied: ApplyResult = await applyGatewayStatus(deps, payment.id, status);
    await markGatewayReportsProcessed(deps, applied.payment);
    if (isOpen(applied.payment)) {
      await later(deps, applied.payment);
      return applied.payment;
    }
    if (applied.changed) {
      log.info({ status: applied.payment.status }, "payment final");
      await deps.orders.jobs?.kickNotifications();
    }
    return completePurchase(deps, applied.payment);
  }
  return completePurchase(deps, payment);
}

function chargeUnderWay(deps: PaymentEngine, p: Payment): boolean {
  return (
    p.status === "created" &&
    p.chargingUntil !== null &&
    p.chargingUntil.getTime() > deps.orders.clock.now()
  );
}

async function later(deps: PaymentEngine, payment: Payment): Promise<void> {
  const delay = nextPaymentCheckDelay(payment.checks);
  await deps.orders.db
    .update(payments)
    .set({
      checks: sql`${payments.checks} + 1`,
      nextCheckAt: new Date(deps.orders.clock.now() + delay),
    })
    .where(and(eq(payments.id, payment.id), inArray(payments.status, ["created", "pending"])));
  await deps.jobs?.scheduleCheck(payment.id, delay);
}

async function markGatewayReportsProcessed(deps: PaymentEngine, payment: Payment): Promise<void> {
  await deps.orders.db
    .update(gatewayReports)
    .set({ processedAt: sql`now()`, outcome: payment.status })
    .where(
      and(
        eq(gatewayReports.gatewayOrderId, payment.gatewayOrderId),
        isNull(gatewayReports.processedAt),
      ),
    );
}

/**
 * a paid "deposit and buy" confirms its card, as the buyer's Pay would: one confirmation, one
 * order (confirmQuote's own rule), nothing if the buyer cancelled the card, and a fresh card
 * when the price moved or the quote ran out. Run again after a crash, it changes nothing.
 */
export async function completePurchase(deps: PaymentEngine, payment: Payment): Promise<Payment> {
  if (payment.purpose !== "buy" || payment.status !== "paid" || payment.purchase !== null) {
    return payment;
  }
  if (!payment.quoteId) return payment;
  const result = await confirmQuote(deps.orders, {
    quoteId: payment.quoteId,
    userId: payment.userId,
    messageId: payment.cardMessageId ?? undefined,
  });
  const purchase = result.ok
    ? "placed"
    : result.reason === "quote_cancelled"
      ? "cancelled"
      : "fresh_card";
  // the price moved or the card ran out: the money waits in the wallet, with a fresh card
  const fresh = purchase === "fresh_card" ? await freshCard(deps, payment) : undefined;
  const [done] = await deps.orders.db.transaction(async (tx) => {
    const rows = await tx
      .update(payments)
      .set({ purchase, updatedAt: new Date(deps.orders.clock.now()) })
      .where(and(eq(payments.id, payment.id), isNull(payments.purchase)))
      .returning();
    if (rows[0]) {
      await enqueueNotification(tx, {
        key: `payment:${payment.id}:purchase`,
        chatId: payment.chatId,
        messageId: payment.cardMessageId,
        payload: { type: "payment_purchase", paymentId: payment.id, fresh },
      });
    }
    return rows;
  });
  if (done) await deps.orders.jobs?.kickNotifications();
  deps.orders.logger.info({ paymentId: payment.id, purchase }, "top-up and buy");
  return done ?? (await getPayment(deps.orders.db, payment.id)) ?? payment;
}

/** the fresh quote a paid "deposit and buy" offers when its own card could not be bought */
async function freshCard(deps: PaymentEngine, payment: Payment): Promise<FreshCard | undefined> {
  if (!payment.quoteId) return undefined;
  const stale = await findUserQuote(deps.orders.db, payment.quoteId, payment.userId);
  if (!stale) return undefined;
  const outcome = await requote(deps.orders, {
    userId: payment.userId,
    chatId: payment.chatId,
    productCode: stale.productCode,
    destination: stale.destination,
    kind: stale.kind,
    testing: stale.testing,
  });
  return outcome.ok ? { quoteId: outcome.quote.id } : { refusal: storedRefusal(outcome) };
}

export type CancelPaymentResult =
  | { state: "cancelled"; payment: Payment }
  /** too late: it was paid (and credited) or already final */
  | { state: "final"; payment: Payment }
  | { state: "not_found" }
  /** the gateway didn't answer: nothing changed, try again */
  | { state: "unavailable" };

/**
 * the buyer's Cancel under a QR. A "deposit and buy" card is voided first, so a payment that
 * lands meanwhile tops up the wallet and buys nothing; then the gateway is asked to cancel,
 * and its answer is applied (a payment that was paid after all is credited).
 */
export async function cancelPayment(
  deps: PaymentEngine,
  c: { paymentId: number; userId: number },
): Promise<CancelPaymentResult> {
  const payment = await getPayment(deps.orders.db, c.paymentId);
  if (!payment || payment.userId !== c.userId) return { state: "not_found" };
  if (payment.purpose === "buy" && payment.quoteId) {
    await cancelQuote(deps.orders.db, {
      quoteId: payment.quoteId,
      userId: payment.userId,
      now: new Date(deps.orders.clock.now()),
    });
  }
  if (!isOpen(payment)) return { state: "final", payment: await completePurchase(deps, payment) };
  let status: GatewayPaymentStatus;
  try {
    status = await deps.gateway.cancel(payment.gatewayOrderId);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return { state: "unavailable" };
  }
  const applied = await applyGatewayStatus(deps, payment.id, status);
  await deps.orders.jobs?.kickNotifications();
  const after = await completePurchase(deps, applied.payment);
  return after.status === "cancelled"
    ? { state: "cancelled", payment: after }
    : { state: "final", payment: after };
}

/** the sweeper: every open payment whose check is due, and purchases a crash left undone */
export async function sweepPayments(deps: PaymentEngine): Promise<number> {
  const now = new Date(deps.orders.clock.now());
  const due = await duePayments(deps.orders.db, now);
  for (const id of due) {
    try {
      await resolvePayment(deps, id);
    } catch (err) {
      deps.orders.logger.error({ err, paymentId: id }, "payment check failed");
    }
  }
  for (const id of await unfinishedPurchases(deps.orders.db)) {
    const payment = await getPayment(deps.orders.db, id);
    if (payment) await completePurchase(deps, payment);
  }
  return due.length;
}
