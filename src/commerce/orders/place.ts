import { and, eq } from "drizzle-orm";
import { inquiries, orders, products, quotes } from "../../db/schema.ts";
import { newRefId } from "../../supplier/ref-id.ts";
import type { BillDetails } from "../../supplier/types.ts";
import { closureOf } from "../catalogue/availability.ts";
import { type Route, routePaused, routesOf, usableRoutes } from "../catalogue/routes.ts";
import { onSale, saleCostOf } from "../catalogue/sale.ts";
import {
  firstCovered,
  type GuardedRoute,
  type KnownSupplierBalance,
  knownSupplierBalances,
  reserveSupplierBalance,
} from "../supplier-balance/known-balance.ts";
import { alertLowBalance } from "../supplier-balance/low-balance.ts";
import { holdForOrder, InsufficientFundsError, walletBalance } from "../wallet/ledger.ts";
import { alreadyPaid, billKeyOf, billPayment } from "./bills.ts";
import { BILL_PAY_MARGIN_MS, type OrderEngine } from "./engine.ts";
import { minMarginColumn, minMarginFrom } from "./min-margin.ts";
import { firstSupplierName, openFirstAttempt } from "./routing.ts";
import { sendAttempt } from "./submission.ts";
import type { ConfirmResult, Order } from "./types.ts";

class Refused extends Error {
  constructor(
    readonly result: Exclude<ConfirmResult, { ok: true }>,
    /** set when the supplier balance guard refused: the suppliers found short, told to the admins */
    readonly lowBalance: readonly KnownSupplierBalance[] = [],
  ) {
    super(result.reason);
  }
}

async function existingOrder(deps: OrderEngine, quoteId: string): Promise<Order | undefined> {
  const [row] = await deps.db.select().from(orders).where(eq(orders.confirmKey, quoteId));
  return row;
}

type Tx = Parameters<Parameters<OrderEngine["db"]["transaction"]>[0]>[0];
type QuoteRow = typeof quotes.$inferSelect;
type ProductRow = typeof products.$inferSelect;

export interface Confirmation {
  quoteId: string;
  userId: number;
  messageId?: number | undefined;
  /**
   * told once the order is stored and about to go to the supplier (the bot shows its ⏳
   * with the ref then, not after the supplier's answer)
   */
  onSubmitted?: ((order: Order) => void) | undefined;
}

/**
 * the Pay button. Design rule 1: the order (ref_id, price, hold) is committed before the
 * supplier is called. Design rule 3: one quote makes at most one order and one hold, however
 * many times or places it is confirmed; only the confirmation that created the order calls
 * the supplier.
 */
export async function confirmQuote(deps: OrderEngine, c: Confirmation): Promise<ConfirmResult> {
  const now = new Date(deps.clock.now());
  let created: Order;
  let skippedShort: readonly KnownSupplierBalance[] = [];
  try {
    ({ order: created, skippedShort } = await deps.db.transaction((tx) =>
      storeOrder(deps, tx, c, now),
    ));
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    await alertSupplierShort(deps, err.lowBalance);
    return err.result;
  }
  // a supplier's balance was short and the order went to a later route: the admins still
  // hear of it
  await alertSupplierShort(deps, skippedShort);
  const submitted = await markSubmitted(deps, created);
  if (!submitted) {
    return { ok: true, order: (await existingOrder(deps, c.quoteId)) ?? created, duplicate: true };
  }
  deps.logger
    .child({ component: "orders" })
    .info(
      { orderId: submitted.id, refId: submitted.refId, product: submitted.productCode },
      "order submitted",
    );
  deps.onOrderSubmitted?.(submitted);
  c.onSubmitted?.(submitted);
  const order = await sendAttempt(deps, submitted);
  return { ok: true, order, duplicate: false };
}

/**
 * the order, its hold and the supplier balance's reservation, in one transaction: the
 * quote's order if it has one, else a new one, else the refusal (thrown as Refused, so the
 * transaction stores nothing)
 */
async function storeOrder(
  deps: OrderEngine,
  tx: Tx,
  c: Confirmation,
  now: Date,
): Promise<{ order: Order; skippedShort: readonly KnownSupplierBalance[] }> {
  const { quote, already } = await lockQuote(tx, c);
  if (already) return { order: already, skippedShort: [] };
  if (quote.cancelledAt) throw new Refused({ ok: false, reason: "quote_cancelled" });
  const [read] = await tx
    .select({ product: products, minMargin: minMarginColumn })
    .from(products)
    .where(eq(products.code, quote.productCode));
  const sellable = refuseUnsellable(deps, quote, read?.product, c.userId, now);
  // the routes an order of this quote may take, read once: the guard's look and the first
  // attempt both choose from them
  const routes =
    quote.kind === "bill"
      ? []
      : await quoteRoutes(deps, tx, quote, sellable, minMarginFrom(read?.minMargin, deps));
  // no route may be tried (each leaves less than the minimum margin, or is switched off):
  // nothing is sent
  if (quote.kind !== "bill" && !quote.testing && routes.length === 0) {
    throw new Refused({ ok: false, reason: "product_unavailable" });
  }
  const guarded = guardedRoutes(deps, quote, routes);
  // a first look, before the wallet's: a buyer is not sent to top up for an order no
  // supplier balance can take (the reservation in holdAndReserve is what holds). A route
  // whose supplier is short is skipped for the next instead of failing the sale
  if (!quote.testing) await refuseSupplierShort(deps, tx, guarded);
  const bill = quote.kind === "bill" ? await billOfQuote(deps, tx, quote, now) : undefined;
  const order = await insertOrder(tx, {
    quote,
    product: sellable,
    bill,
    now,
    messageId: c.messageId,
  });
  const short = quote.testing ? [] : await holdAndReserve(deps, tx, quote, order, guarded);
  // its first attempt, stored with it (design rule 15): the first route kios will try
  // whose supplier can cover it
  return {
    order: await openFirstAttempt(deps, tx, order, new Set(short.map((s) => s.supplier)), routes),
    skippedShort: short,
  };
}

/**
 * the buyer's own quote, locked (a Cancel of the same card waits for this confirmation, or
 * this one for it), with the order it made already if any: one statement
 */
async function lockQuote(
  tx: Tx,
  c: Confirmation,
): Promise<{ quote: QuoteRow; already: Order | null }> {
  const [row] = await tx
    .select({ quote: quotes, already: orders })
    .from(quotes)
    .leftJoin(orders, eq(orders.confirmKey, quotes.id))
    .where(and(eq(quotes.id, c.quoteId), eq(quotes.userId, c.userId)))
    .for("update", { of: quotes });
  if (!row) throw new Refused({ ok: false, reason: "quote_not_found" });
  return row;
}

function expired(quote: QuoteRow): Refused {
  return new Refused({
    ok: false,
    reason: "quote_expired",
    kind: quote.kind,
    productCode: quote.productCode,
    destination: quote.destination,
  });
}

/** refuses a quote that can no longer buy its product; returns the product when it can */
function refuseUnsellable(
  deps: OrderEngine,
  quote: QuoteRow,
  product: ProductRow | undefined,
  userId: number,
  now: Date,
): ProductRow {
  if (quote.expiresAt.getTime() <= now.getTime()) throw expired(quote);
  // testing mode is an admin's tool: a test card left over from SUPPLIER_TESTING, or a
  // customer holding an admin's test card, gets a fresh (real) quote instead
  if (quote.testing && !deps.testing && !(deps.adminIds ?? []).includes(userId)) {
    throw expired(quote);
  }
  if (!product || !onSale(product)) {
    throw new Refused({ ok: false, reason: "product_unavailable" });
  }
  // a card shown before the product closed (its cut-off window, a pause) buys nothing
  const closed = closureOf(product, now.getTime());
  if (closed) throw new Refused({ ok: false, reason: "product_closed", until: closed.until });
  // the supplier raised its price past what we quoted: quote again rather than sell at a loss
  if (quote.kind !== "bill" && saleCostOf(product) > quote.price && !quote.testing) {
    throw expired(quote);
  }
  return product;
}

/**
 * where the order may go, in the order kios tries it, with what each supplier would charge:
 * its usable routes (the first's own at the quoted cost, as its first attempt takes it); a
 * bill, or a product with no usable route, at the first supplier
 */
function guardedRoutes(
  deps: OrderEngine,
  quote: QuoteRow,
  routes: readonly Route[],
): GuardedRoute[] {
  if (routes.length === 0) return [{ supplier: firstSupplierName(deps), cost: quote.cost }];
  return routes.map((r) => ({ supplier: r.supplier, cost: r.implicit ? quote.cost : r.cost }));
}

/** the guard's first look: refused when no route's supplier can cover the order */
async function refuseSupplierShort(
  deps: OrderEngine,
  tx: Tx,
  routes: readonly GuardedRoute[],
): Promise<void> {
  const estimates = await knownSupplierBalances(tx, {
    suppliers: routes.map((r) => r.supplier),
    firstSupplier: firstSupplierName(deps),
  });
  const { route, short } = firstCovered(routes, estimates);
  if (!route) throw new Refused({ ok: false, reason: "supplier_unavailable" }, short);
}

/**
 * the routes the quote's product may take at the quote's price, in the order they are
 * tried. None left because its routes are paused (they kept failing at their suppliers):
 * closed until the first pause ends, as a paused product is
 */
async function quoteRoutes(
  deps: OrderEngine,
  tx: Tx,
  quote: QuoteRow,
  product: ProductRow,
  minMargin: number,
): Promise<Route[]> {
  const now = deps.clock.now();
  const all = await routesOf(tx, product, firstSupplierName(deps));
  const usable = usableRoutes(all, {
    price: quote.price,
    minMargin,
    tried: new Set(),
    testing: quote.testing,
    now,
  });
  const pauses = all.filter((r) => routePaused(r, now)).map((r) => r.pausedUntil!.getTime());
  if (usable.length === 0 && pauses.length > 0) {
    throw new Refused({ ok: false, reason: "product_closed", until: Math.min(...pauses) });
  }
  return usable;
}

interface BillOfQuote {
  /** pay-pasca must carry the inquiry's own ref_id */
  refId: string;
  /** one bill, one payment (design rule 9); null for a test payment */
  billKey: string | null;
}

/** a bill's payment: its inquiry still open long enough, and the bill not paid already */
async function billOfQuote(
  deps: OrderEngine,
  tx: Tx,
  quote: QuoteRow,
  now: Date,
): Promise<BillOfQuote> {
  const [inquiry] = await tx
    .select()
    .from(inquiries)
    .where(eq(inquiries.id, quote.inquiryId ?? -1));
  if (!inquiry) throw new Refused({ ok: false, reason: "quote_not_found" });
  // too little of the supplier's window is left for the payment to arrive inside it
  const margin = deps.billPayMarginMs ?? BILL_PAY_MARGIN_MS;
  if (inquiry.expiresAt.getTime() - now.getTime() < margin) throw expired(quote);
  // a quote below the supplier's own total can't be paid without a loss: re-inquire
  if (!quote.testing && quote.price < inquiry.total) throw expired(quote);
  // a test payment moves no money and never stands in the way of a real one
  if (quote.testing) return { refId: inquiry.refId, billKey: null };
  const billKey = billKeyOf({
    productCode: inquiry.productCode,
    customerNo: inquiry.customerNo,
    details: inquiry.details as BillDetails | null,
    inquiredAt: inquiry.createdAt,
  });
  const paying = await billPayment(tx, billKey);
  if (paying) throw new Refused(alreadyPaid(paying));
  return { refId: inquiry.refId, billKey };
}

/** the order row, `created`; a concurrent confirmation's order if it got there first */
async function insertOrder(
  tx: Tx,
  o: {
    quote: QuoteRow;
    product: ProductRow;
    bill: BillOfQuote | undefined;
    now: Date;
    messageId: number | undefined;
  },
): Promise<Order> {
  const { quote, now } = o;
  const billKey = o.bill?.billKey ?? null;
  const [order] = await tx
    .insert(orders)
    .values({
      refId: o.bill?.refId ?? newRefId(now.getTime()),
      confirmKey: quote.id,
      userId: quote.userId,
      chatId: quote.chatId,
      messageId: o.messageId ?? null,
      kind: quote.kind,
      productCode: quote.productCode,
      productName: o.product.name,
      destination: quote.destination,
      price: quote.price,
      cost: quote.cost,
      margins: quote.margins,
      status: "created",
      testing: quote.testing,
      inquiryId: quote.inquiryId,
      billKey,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (order) return order;
  // a concurrent confirmation of this card, or another payment of the same bill, got
  // there first (the insert waited for it to commit)
  const [other] = await tx.select().from(orders).where(eq(orders.confirmKey, quote.id));
  if (other) return other;
  const paying = billKey ? await billPayment(tx, billKey) : undefined;
  if (paying) throw new Refused(alreadyPaid(paying));
  throw new Refused({ ok: false, reason: "quote_not_found" });
}

/**
 * the buyer's hold, then the supplier balance guard's reservation: one Pay at a time.
 * Returns the estimates of the suppliers found short before the route the order may take
 * (those routes are skipped); refuses when no route's supplier can cover it.
 */
async function holdAndReserve(
  deps: OrderEngine,
  tx: Tx,
  quote: QuoteRow,
  order: Order,
  routes: readonly GuardedRoute[],
): Promise<readonly KnownSupplierBalance[]> {
  try {
    // a refused hold refuses the Pay: its whole transaction rolls back, no savepoint needed
    await holdForOrder(
      tx,
      { orderId: order.id, userId: quote.userId, amount: quote.price },
      { savepoint: false },
    );
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
  const { route, short } = await reserveSupplierBalance(
    tx,
    { id: order.id },
    routes,
    firstSupplierName(deps),
  );
  if (!route) throw new Refused({ ok: false, reason: "supplier_unavailable" }, short);
  return short;
}

/** suppliers the guard found short (skipped or refused): each admin is told, once per reading */
async function alertSupplierShort(
  deps: OrderEngine,
  short: readonly KnownSupplierBalance[],
): Promise<void> {
  for (const estimate of short) {
    deps.logger
      .child({ component: "orders" })
      .warn(
        { supplier: estimate.supplier, known: estimate.known },
        "supplier balance too low: route not taken",
      );
    for (const adminId of deps.adminIds ?? []) {
      await alertLowBalance(deps.db, {
        checkId: estimate.checkId,
        known: estimate.known,
        supplier: estimate.supplier,
        adminId,
      });
    }
  }
}

/**
 * created → submitted. Only the confirmation that moves it sends it to the supplier, signed
 * with the time stored here (the supplier's 5-minute window then bounds "never arrived");
 * undefined for any other (a repeated tap, another process)
 */
async function markSubmitted(deps: OrderEngine, created: Order): Promise<Order | undefined> {
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
  return submitted;
}
