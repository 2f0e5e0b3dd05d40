import { and, eq } from "drizzle-orm";
import { inquiries, orders, products, quotes } from "../../db/schema.ts";
import { newRefId } from "../../supplier/ref-id.ts";
import type { BillDetails, SubmitOutcome } from "../../supplier/types.ts";
import { closureOf } from "../catalogue/availability.ts";
import {
  type KnownSupplierBalance,
  knownSupplierBalance,
  reserveSupplierBalance,
} from "../supplier-balance/known-balance.ts";
import { alertLowBalance } from "../supplier-balance/low-balance.ts";
import { holdForOrder, InsufficientFundsError, walletBalance } from "../wallet/ledger.ts";
import { alreadyPaid, billKeyOf, billPayment } from "./bills.ts";
import { BILL_PAY_MARGIN_MS, nextCheckDelay, type OrderEngine } from "./engine.ts";
import { reportIfConflicting } from "./resolve.ts";
import { finalisationOf, finaliseOrder, markOpen, rejectionOf } from "./transitions.ts";
import type { ConfirmResult, Order } from "./types.ts";

class Refused extends Error {
  constructor(
    readonly result: Exclude<ConfirmResult, { ok: true }>,
    /** set when the supplier balance guard refused: the admins are told */
    readonly lowBalance?: KnownSupplierBalance,
  ) {
    super(result.reason);
  }
}

async function existingOrder(deps: OrderEngine, quoteId: string): Promise<Order | undefined> {
  const [row] = await deps.db.select().from(orders).where(eq(orders.confirmKey, quoteId));
  return row;
}

/**
 * the Pay button. Design rule 1: the order (ref_id, price, hold) is committed before the supplier
 * is called. Design rule 3: one quote makes at most one order and one hold, however many times or
 * places it is confirmed; only the confirmation that created the order calls the supplier.
 */
export async function confirmQuote(
  deps: OrderEngine,
  c: {
    quoteId: string;
    userId: number;
    messageId?: number | undefined;
    /**
     * told once the order is stored and about to go to the supplier (the bot shows its ⏳
     * with the ref then, not after the supplier's answer)
     */
    onSubmitted?: ((order: Order) => void) | undefined;
  },
): Promise<ConfirmResult> {
  const now = new Date(deps.clock.now());
  const log = deps.logger.child({ component: "orders" });

  let created: Order;
  try {
    created = await deps.db.transaction(async (tx) => {
      const [quote] = await tx
        .select()
        .from(quotes)
        .where(and(eq(quotes.id, c.quoteId), eq(quotes.userId, c.userId)))
        // a Cancel of the same card waits for this confirmation, or this one for it
        .for("update");
      if (!quote) throw new Refused({ ok: false, reason: "quote_not_found" });

      const [already] = await tx.select().from(orders).where(eq(orders.confirmKey, quote.id));
      if (already) return already;
      if (quote.cancelledAt) throw new Refused({ ok: false, reason: "quote_cancelled" });

      const [product] = await tx
        .select()
        .from(products)
        .where(eq(products.code, quote.productCode));
      const refusedExpired = new Refused({
        ok: false,
        reason: "quote_expired",
        kind: quote.kind,
        productCode: quote.productCode,
        destination: quote.destination,
      });
      if (quote.expiresAt.getTime() <= now.getTime()) throw refusedExpired;
      // testing mode is an admin's tool: a test card left over from SUPPLIER_TESTING, or a
      // customer holding an admin's test card, gets a fresh (real) quote instead
      if (quote.testing && !deps.testing && !(deps.adminIds ?? []).includes(c.userId)) {
        throw refusedExpired;
      }
      if (!product?.active || !product.listed) {
        throw new Refused({ ok: false, reason: "product_unavailable" });
      }
      // a card shown before the product closed (its cut-off window, a pause) buys nothing
      const closed = closureOf(product, now.getTime());
      if (closed) throw new Refused({ ok: false, reason: "product_closed", until: closed.until });
      // the supplier raised its price past what we quoted: quote again rather than sell at a loss
      if (quote.kind !== "bill" && product.supplierPrice > quote.price && !quote.testing) {
        throw refusedExpired;
      }

      if (!quote.testing) {
        // a first look, before the wallet's: a buyer is not sent to top up for an order the
        // supplier balance can't take (the reservation below is what holds)
        const supplier = await knownSupplierBalance(tx);
        if (supplier && supplier.known < quote.cost) {
          throw new Refused({ ok: false, reason: "supplier_unavailable" }, supplier);
        }
      }

      let refId = newRefId(now.getTime());
      let billKey: string | null = null;
      if (quote.kind === "bill") {
        const [inquiry] = await tx
          .select()
          .from(inquiries)
          .where(eq(inquiries.id, quote.inquiryId ?? -1));
        if (!inquiry) throw new Refused({ ok: false, reason: "quote_not_found" });
        // too little of the supplier's window is left for the payment to arrive inside it
        const margin = deps.billPayMarginMs ?? BILL_PAY_MARGIN_MS;
        if (inquiry.expiresAt.getTime() - now.getTime() < margin) throw refusedExpired;
        // a quote below the supplier's own total can't be paid without a loss: re-inquire
        if (!quote.testing && quote.price < inquiry.total) throw refusedExpired;
        // pay-pasca must carry the inquiry's own ref_id
        refId = inquiry.refId;
        // a test payment moves no money and never stands in the way of a real one
        if (!quote.testing) {
          billKey = billKeyOf({
            productCode: inquiry.productCode,
            customerNo: inquiry.customerNo,
            details: inquiry.details as BillDetails | null,
            inquiredAt: inquiry.createdAt,
          });
          const paying = await billPayment(tx, billKey);
          if (paying) throw new Refused(alreadyPaid(paying));
        }
      }

      const [order] = await tx
        .insert(orders)
        .values({
          refId,
          confirmKey: quote.id,
          userId: quote.userId,
          chatId: quote.chatId,
          messageId: c.messageId ?? null,
          kind: quote.kind,
          productCode: quote.productCode,
          productName: product.name,
          destination: quote.destination,
          price: quote.price,
          cost: quote.cost,
          status: "created",
          testing: quote.testing,
          inquiryId: quote.inquiryId,
          billKey,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      if (!order) {
        // a concurrent confirmation of this card, or another payment of the same bill, got
        // there first (the insert waited for it to commit)
        const [other] = await tx.select().from(orders).where(eq(orders.confirmKey, quote.id));
        if (other) return other;
        const paying = billKey ? await billPayment(tx, billKey) : undefined;
        if (paying) throw new Refused(alreadyPaid(paying));
        throw new Refused({ ok: false, reason: "quote_not_found" });
      }
      if (!quote.testing) {
        try {
          await holdForOrder(tx, { orderId: order.id, userId: quote.userId, amount: quote.price });
        } catch (err) {
          if (!(err instanceof InsufficientFundsError)) throw err;
          const balance = await walletBalance(tx, quote.userId);
          throw new Refused({
            ok: false,
            reason: "insufficient_balance",
            balance,
            price: quote.price,
            missing: quote.price - balance,
          });
        }
        // the balance guard reserves: with this order stored, one Pay at a time
        const short = await reserveSupplierBalance(tx, { id: order.id, cost: quote.cost });
        if (short) throw new Refused({ ok: false, reason: "supplier_unavailable" }, short);
      }
      return order;
    });
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    if (err.lowBalance) {
      log.warn({ known: err.lowBalance.known }, "supplier balance too low: order not sent");
      for (const adminId of deps.adminIds ?? []) {
        await alertLowBalance(deps.db, { ...err.lowBalance, adminId });
      }
    }
    return err.result;
  }

  // only the confirmation that moves created → submitted sends it to the supplier, signed
  // with the time stored here (the supplier's 5-minute window then bounds "never arrived")
  const sendAt = deps.clock.now();
  const [submitted] = await deps.db
    .update(orders)
    .set({
      status: "submitted",
      submittedAt: new Date(sendAt),
      requestTimestamp: Math.floor(sendAt / 1000),
      updatedAt: new Date(sendAt),
    })
    .where(and(eq(orders.id, created.id), eq(orders.status, "created")))
    .returning();
  if (!submitted) {
    return { ok: true, order: (await existingOrder(deps, c.quoteId)) ?? created, duplicate: true };
  }

  log.info(
    { orderId: submitted.id, refId: submitted.refId, product: submitted.productCode },
    "order submitted",
  );
  deps.onOrderSubmitted?.(submitted);
  c.onSubmitted?.(submitted);
  const outcome = await submit(deps, submitted);
  const order = await applySubmitOutcome(deps, submitted, outcome);
  return { ok: true, order, duplicate: false };
}

function signedAt(order: Order): { signedAt?: number } {
  return order.requestTimestamp === null ? {} : { signedAt: order.requestTimestamp * 1000 };
}

async function submit(deps: OrderEngine, order: Order): Promise<SubmitOutcome> {
  try {
    if (order.kind === "bill") {
      return await deps.supplier.payBill({
        code: order.productCode,
        customerNo: order.destination,
        refId: order.refId,
        testing: order.testing,
        ...signedAt(order),
      });
    }
    return await deps.supplier.order({
      cmd: order.kind,
      code: order.productCode,
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

/** records what the supplier said about a just-submitted order (design rule 2: unknown is not failed). */
async function applySubmitOutcome(
  deps: OrderEngine,
  order: Order,
  outcome: SubmitOutcome,
): Promise<Order> {
  const now = new Date(deps.clock.now());
  const log = deps.logger.child({ component: "orders", orderId: order.id, refId: order.refId });

  const result = await deps.db.transaction(async (tx) => {
    if (outcome.outcome === "rejected") {
      log.warn({ code: outcome.error.code }, "order refused by the supplier");
      return {
        order: await finaliseOrder(tx, order, rejectionOf(outcome.error), now, false, {
          adminIds: deps.adminIds,
          pause: deps.productPause,
          onFinal: deps.onOrderFinal,
        }),
      };
    }
    if (outcome.outcome === "accepted") {
      const fin = finalisationOf(outcome.transaction);
      if (fin) {
        return {
          order: await finaliseOrder(tx, order, fin, now, false, {
            adminIds: deps.adminIds,
            pause: deps.productPause,
            onFinal: deps.onOrderFinal,
          }),
        };
      }
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
  const stored = (await existingOrder(deps, order.confirmKey)) ?? order;
  if (outcome.outcome === "accepted" && outcome.transaction.status !== "pending") {
    await reportIfConflicting(deps, stored, outcome.transaction.status);
  }
  return stored;
}
