import { randomBytes } from "node:crypto";
import { and, eq, gte, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { payments } from "../../db/schema.ts";
import { GatewayError, type GatewayPaymentStatus, type PaymentQr } from "../../gateway/types.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import { depositLimits } from "../wallet/deposits.ts";
import { creditFromGateway, MAX_OPERATION_AMOUNT } from "../wallet/ledger.ts";
import {
  chargeWindowMs,
  DEFAULT_EXPIRY_MINUTES,
  NEVER_CREATED_MS,
  nextPaymentCheckDelay,
  type PaymentEngine,
} from "./engine.ts";

// deposits through a payment gateway, with the money rules of orders: the row is committed
// before the gateway is asked; the credit is one ledger transfer keyed by the gateway order
// id, made only on the gateway's own status ("paid", this exact amount); state moves forward.

export type Payment = typeof payments.$inferSelect;
type PaymentStatus = Payment["status"];

const OPEN: PaymentStatus[] = ["created", "pending"];

export type StartPaymentResult =
  /** the QR to show: the payment is pending and was not shown yet */
  | { ok: true; payment: Payment; qr: PaymentQr }
  | { ok: false; reason: "amount_too_small" | "amount_too_large"; limit: number }
  | { ok: false; reason: "gateway_unavailable"; payment?: Payment }
  | { ok: false; reason: "duplicate" };

/** Midtrans allows 50 characters of [A-Za-z0-9-_.~]; unguessable so a QR can't be looked up by others */
function newGatewayOrderId(): string {
  return `KIOS-${Date.now().toString(36).toUpperCase()}-${randomBytes(6).toString("hex").toUpperCase()}`;
}

/**
 * asks the gateway for a QRIS payment. The row is stored first; if the gateway's answer is
 * lost (timeout, 5xx) or unusable, the row stays "created" and the resolver asks the gateway
 * about it, so a payment the gateway did create is never lost (and never left payable).
 * While the charge call is under way the payment is its own: the resolver leaves it alone.
 */
export async function startPayment(
  deps: PaymentEngine,
  p: {
    userId: number;
    chatId: number;
    amount: number;
    purpose?: "deposit" | "buy";
    quoteId?: string;
    cardMessageId?: number;
    /** buy: the shortfall may be below the shop's smallest deposit */
    skipMinimum?: boolean;
  },
): Promise<StartPaymentResult> {
  const { db, clock, logger } = deps.orders;
  const shop = await depositLimits(db);
  const limits = { min: shop.min, max: Math.min(shop.max, MAX_OPERATION_AMOUNT) };
  if (
    !Number.isSafeInteger(p.amount) ||
    (!p.skipMinimum && p.amount < limits.min) ||
    p.amount <= 0
  ) {
    return { ok: false, reason: "amount_too_small", limit: limits.min };
  }
  if (p.amount > limits.max) return { ok: false, reason: "amount_too_large", limit: limits.max };
  const minutes = deps.expiryMinutes ?? DEFAULT_EXPIRY_MINUTES;
  const now = clock.now();
  // the charge's own time: no check before it is over (a crash leaves it to the sweeper after)
  const chargingUntil = new Date(now + chargeWindowMs(deps.gateway));
  const purpose = p.purpose ?? "deposit";
  let row: Payment | undefined;
  try {
    [row] = await db
      .insert(payments)
      .values({
        gateway: deps.gateway.name,
        gatewayOrderId: newGatewayOrderId(),
        userId: p.userId,
        chatId: p.chatId,
        purpose,
        quoteId: p.quoteId ?? null,
        holdsCard: purpose === "buy" && p.quoteId !== undefined,
        cardMessageId: p.cardMessageId ?? null,
        amount: p.amount,
        expiresAt: new Date(now + minutes * 60_000),
        chargingUntil,
        nextCheckAt: chargingUntil,
      })
      .returning();
  } catch (err) {
    // this card's "deposit and buy" has a QR that can still be paid (a second tap)
    if (isUniqueViolation(err)) return { ok: false, reason: "duplicate" };
    throw err;
  }
  const stored = row!;
  const log = logger.child({ component: "payments", paymentId: stored.id });
  let created: Awaited<ReturnType<typeof deps.gateway.createPayment>>;
  try {
    created = await deps.gateway.createPayment({
      orderId: stored.gatewayOrderId,
      amount: stored.amount,
      expiresInMinutes: minutes,
    });
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    log.warn({ err: err.message, uncertain: err.uncertain }, "payment not created");
    // the buyer sees no QR: the card (if any) may ask for another
    if (!err.uncertain) {
      // refused outright: nothing exists at the gateway
      await db
        .update(payments)
        .set({
          status: "failed",
          chargingUntil: null,
          nextCheckAt: null,
          holdsCard: false,
          updatedAt: new Date(clock.now()),
        })
        .where(and(eq(payments.id, stored.id), eq(payments.status, "created")));
      return { ok: false, reason: "gateway_unavailable" };
    }
    // it may exist: the resolver asks, and cancels it if it does
    const [left] = await db
      .update(payments)
      .set({
        chargingUntil: null,
        nextCheckAt: new Date(clock.now() + nextPaymentCheckDelay(0)),
        holdsCard: false,
        updatedAt: new Date(clock.now()),
      })
      .where(and(eq(payments.id, stored.id), eq(payments.status, "created")))
      .returning();
    await deps.jobs?.scheduleCheck(stored.id, nextPaymentCheckDelay(0));
    return { ok: false, reason: "gateway_unavailable", payment: left ?? stored };
  }
  const [pending] = await db
    .update(payments)
    .set({
      status: "pending",
      qrString: "qrString" in created ? created.qrString : null,
      gatewayTransactionId: created.transactionId,
      expiresAt: created.expiresAt,
      chargingUntil: null,
      nextCheckAt: new Date(clock.now() + nextPaymentCheckDelay(0)),
      updatedAt: new Date(clock.now()),
    })
    .where(and(eq(payments.id, stored.id), eq(payments.status, "created")))
    .returning();
  if (!pending) {
    // the answer came after the payment was settled without it (a charge slower than its
    // window was taken for lost): its QR is never shown, and never left payable
    await reconcileUnshown(deps, stored.id);
    return { ok: false, reason: "gateway_unavailable" };
  }
  log.info({ orderId: stored.gatewayOrderId, amount: stored.amount }, "payment created");
  await deps.jobs?.scheduleCheck(stored.id, nextPaymentCheckDelay(0));
  const qr: PaymentQr =
    "qrString" in created ? { qrString: created.qrString } : { png: created.png };
  return { ok: true, payment: pending, qr };
}

/** a charge whose answer found its payment no longer open: cancelled at the gateway unless paid */
async function reconcileUnshown(deps: PaymentEngine, paymentId: number): Promise<void> {
  const { db, logger } = deps.orders;
  const log = logger.child({ component: "payments", paymentId });
  const payment = await getPayment(db, paymentId);
  if (!payment || payment.status === "paid" || payment.status === "mismatch") {
    log.warn({ status: payment?.status }, "a charge's answer came after its payment was final");
    return;
  }
  try {
    const status = await deps.gateway.cancel(payment.gatewayOrderId);
    const level = status.state === "paid" ? "error" : "warn";
    // paid at the gateway for a payment kios closed: the admins' to look at (/payment)
    log[level](
      { status: payment.status, gateway: status.state, orderId: payment.gatewayOrderId },
      "a charge's answer came after its payment was final; cancelled at the gateway",
    );
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    // it expires at the gateway by itself; nobody was shown its QR
    log.warn({ err: err.message }, "a late charge could not be cancelled");
  }
}

export async function getPayment(db: Executor, id: number): Promise<Payment | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function getPaymentByOrderId(
  db: Executor,
  gatewayOrderId: string,
): Promise<Payment | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.gatewayOrderId, gatewayOrderId));
  return row;
}

/** the "deposit and buy" payment that holds a card: its QR can still be paid, or was paid */
export async function paymentForQuote(db: Executor, quoteId: string): Promise<Payment | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.quoteId, quoteId), eq(payments.holdsCard, true)));
  return row;
}

/** remembers the message that shows the QR, so the settlement can edit it */
export async function setPaymentMessage(
  db: Database,
  id: number,
  messageId: number,
): Promise<void> {
  await db.update(payments).set({ messageId }).where(eq(payments.id, id));
}

export type ApplyResult =
  | { changed: false; payment: Payment }
  | { changed: true; payment: Payment; credited: boolean };

/**
 * moves a payment forward on the gateway's own word. "paid" for exactly the amount credits
 * the wallet, in the same transaction as the state change and the message owed to the chat;
 * a different amount is flagged to the admins and credits nothing; a final state is kept.
 */
export async function applyGatewayStatus(
  deps: PaymentEngine,
  paymentId: number,
  status: GatewayPaymentStatus,
): Promise<ApplyResult> {
  const { db, clock, adminIds } = deps.orders;
  const now = new Date(clock.now());
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
    if (!row) throw new Error(`payment ${paymentId} vanished`);
    if (!OPEN.includes(row.status)) return { changed: false, payment: row };
    const next = finalStatusOf(row, status, now);
    if (!next) return stillOpen(tx, row, status, now);
    const payment = await finish(tx, row, next, status, now);
    const credited = next === "paid" && (await creditPayment(tx, row));
    if (next === "mismatch") await tellAdminsOfMismatch(tx, row, adminIds ?? []);
    await tellBuyerOfEnd(tx, row, next);
    return { changed: true, payment, credited };
  });
}

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** the final status the gateway's answer moves an open payment to; undefined: still open */
function finalStatusOf(
  row: Payment,
  status: GatewayPaymentStatus,
  now: Date,
): PaymentStatus | undefined {
  switch (status.state) {
    case "paid":
      return status.amount === row.amount ? "paid" : "mismatch";
    case "expired":
    case "cancelled":
    case "denied":
    case "failed":
      return status.state;
    case "refunded":
      // refunded before kios saw it paid: nothing to credit
      return "cancelled";
    case "not_found":
      // unknown at the gateway long after kios wrote it: the charge never got there
      return now.getTime() - row.createdAt.getTime() >= NEVER_CREATED_MS && row.status === "created"
        ? "failed"
        : undefined;
    case "pending":
      return undefined;
  }
}

/** still open: a created row the gateway knows is pending now */
async function stillOpen(
  tx: Tx,
  row: Payment,
  status: GatewayPaymentStatus,
  now: Date,
): Promise<ApplyResult> {
  if (row.status !== "created" || status.state !== "pending")
    return { changed: false, payment: row };
  const [moved] = await tx
    .update(payments)
    .set({ status: "pending", gatewayTransactionId: status.transactionId ?? null, updatedAt: now })
    .where(eq(payments.id, row.id))
    .returning();
  return { changed: true, payment: moved!, credited: false };
}

/** moves the payment to its final status, forward only */
async function finish(
  tx: Tx,
  row: Payment,
  next: PaymentStatus,
  status: GatewayPaymentStatus,
  now: Date,
): Promise<Payment> {
  const [moved] = await tx
    .update(payments)
    .set({
      status: next,
      paidAmount:
        next === "mismatch" ? (status.amount ?? null) : next === "paid" ? row.amount : null,
      nextCheckAt: null,
      chargingUntil: null,
      // a deposit that ended unpaid lets its card ask for another
      holdsCard: next === "paid" ? row.holdsCard : false,
      settledAt: next === "paid" || next === "mismatch" ? now : null,
      updatedAt: now,
    })
    .where(and(eq(payments.id, row.id), inArray(payments.status, OPEN)))
    .returning();
  return moved!;
}

/** the paid amount into the buyer's wallet, once (the ledger key is the gateway's order id) */
async function creditPayment(tx: Tx, row: Payment): Promise<boolean> {
  const result = await creditFromGateway(tx, {
    key: `payment:${row.gateway}:${row.gatewayOrderId}`,
    userId: row.userId,
    amount: row.amount,
    memo: `${row.gateway} ${row.gatewayOrderId}`,
  });
  return result.applied;
}

/** paid with another amount than asked: nothing credited, every admin told */
async function tellAdminsOfMismatch(tx: Tx, row: Payment, adminIds: readonly number[]) {
  for (const adminId of adminIds) {
    await enqueueNotification(tx, {
      key: `payment:${row.id}:mismatch:${adminId}`,
      chatId: adminId,
      payload: { type: "payment_mismatch", paymentId: row.id },
    });
  }
}

/**
 * the QR's message moves to its end. A payment still "created" never had its QR shown (its
 * charge's answer was lost or came too late): the buyer hears of it only if money arrived
 */
async function tellBuyerOfEnd(tx: Tx, row: Payment, next: PaymentStatus) {
  const shown = row.status !== "created" || next === "paid" || next === "mismatch";
  if (!shown) return;
  await enqueueNotification(tx, {
    key: `payment:${row.id}:final`,
    chatId: row.chatId,
    messageId: row.messageId,
    payload: { type: "payment_final", paymentId: row.id },
  });
}

/** open payments whose next check is due (the sweeper's list), oldest first */
export async function duePayments(db: Executor, now: Date, limit = 100): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        inArray(payments.status, OPEN),
        lte(payments.nextCheckAt, now),
        // a charge under way is its caller's (startPayment)
        or(isNull(payments.chargingUntil), lte(payments.chargingUntil, now)),
      ),
    )
    .orderBy(payments.nextCheckAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** paid "deposit and buy" payments whose purchase was not made yet (a crash in between) */
export async function unfinishedPurchases(db: Executor): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.purpose, "buy"), eq(payments.status, "paid"), isNull(payments.purchase)))
    .limit(100);
  return rows.map((r) => r.id);
}

export interface PaymentStats {
  paid: number;
  paidAmount: number;
  open: number;
  mismatch: number;
}

/** gateway deposits created since `since`: paid (and their sum), still open, mismatched */
export async function paymentStats(db: Executor, since: Date): Promise<PaymentStats> {
  const [row] = await db
    .select({
      paid: sql<number>`count(*) filter (where ${payments.status} = 'paid')::int`,
      paidAmount: sql<number>`coalesce(sum(${payments.amount}) filter (where ${payments.status} = 'paid'), 0)::bigint`,
      open: sql<number>`count(*) filter (where ${payments.status} in ('created', 'pending'))::int`,
      mismatch: sql<number>`count(*) filter (where ${payments.status} = 'mismatch')::int`,
    })
    .from(payments)
    .where(gte(payments.createdAt, since));
  return {
    paid: Number(row?.paid ?? 0),
    paidAmount: Number(row?.paidAmount ?? 0),
    open: Number(row?.open ?? 0),
    mismatch: Number(row?.mismatch ?? 0),
  };
}

/** a payment by its number or its gateway order id (an admin's look-up) */
export async function findPayment(db: Executor, ref: string): Promise<Payment | undefined> {
  if (/^\d{1,15}$/.test(ref)) return getPayment(db, Number(ref));
  return getPaymentByOrderId(db, ref);
}
