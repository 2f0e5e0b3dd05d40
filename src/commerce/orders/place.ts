import { and, eq, sql } from "drizzle-orm";
import { builtOnce, builtOncePerShape } from "../../db/built-once.ts";
import { isStatementUndone } from "../../db/errors.ts";
import { inquiries, type OrderBill, orders, products, quotes } from "../../db/schema.ts";
import { newRefId } from "../../supplier/ref-id.ts";
import type { BillDetails } from "../../supplier/types.ts";
import { closureOf } from "../catalogue/availability.ts";
import {
  type Route,
  routePaused,
  routesFromRows,
  storedRoutesFrom,
  usableRoutes,
} from "../catalogue/routes.ts";
import { onSale, saleCostOf } from "../catalogue/sale.ts";
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
import {
  holdCallOf,
  holdCallValues,
  holdResultOf,
  InsufficientFundsError,
} from "../wallet/ledger.ts";
import { alreadyPaid, billKeyOf, billPayment, billPeriodsOf } from "./bills.ts";
import { BILL_PAY_MARGIN_MS, type OrderEngine } from "./engine.ts";
import { minMarginFrom, routeCostCeiling } from "./min-margin.ts";
import { orderColumnsOf } from "./order-columns.ts";
import { payReadColumns, type QuoteForPay } from "./pay-read.ts";
import { sameDayColumns, sameDayLockColumn, sameDaySince, unconfirmedRepeat } from "./repeat.ts";
import { firstAttemptOf, firstSupplierName } from "./routing.ts";
import { sendAttempt } from "./submission.ts";
import { alertSupplierShort, OVERTAKEN_RETRIES, overtakenPause } from "./supplier-short.ts";
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

/**
 * the supplier balance guard's reservation failed its check where the order is stored (Pays
 * that reserved meanwhile hold what it needs), or the route it reserved is no longer the
 * quote's: the transaction is rolled back and the Pay runs again (reservationStanding says
 * whether it keeps its reservation or reserves anew: a later route, or the refusal)
 */
class Overtaken extends Error {
  constructor(
    /** the reservation no longer fits the quote's routes: reserve again */
    readonly replan = false,
  ) {
    super("overtaken");
  }
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
  /**
   * the quote as the request that stored it a moment ago has it (an H2H order's: quotes.ts's
   * forPay): the guard reserves from it instead of reading it again. It is what an unlocked
   * read would see; the order's own statement locks the quote and checks it again
   */
  asStored?: QuoteForPay | undefined;
}

/**
 * the Pay button. Design rule 1: the order (ref_id, price, hold) is committed before the
 * supplier is called. Design rule 3: one quote makes at most one order and one hold, however
 * many times or places it is confirmed; only the confirmation that created the order calls
 * the supplier.
 */
export async function confirmQuote(deps: OrderEngine, c: Confirmation): Promise<ConfirmResult> {
  const now = new Date(deps.clock.now());
  let stored: StoredOrder;
  try {
    stored = await storeOrderOnce(deps, c, now);
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    await alertSupplierShort(deps, err.lowBalance);
    return err.result;
  }
  // a repeated tap, or another process's: the confirmation that made the order sends it
  if (!stored.fresh) return { ok: true, order: stored.order, duplicate: true };
  // a supplier's balance was short and the order went to a later route: the admins still
  // hear of it
  await alertSupplierShort(deps, stored.skippedShort);
  const submitted = stored.order;
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
 * the guard's reservation (committed on its own, before the transaction: known-balance.ts),
 * then storeOrder in its transaction, which consumes it. Run again while Pays that reserved
 * at the same time hold what this one needs: blocked by older reservations it withdraws and
 * reserves again, blocked only by newer ones it keeps its place, so the oldest always goes;
 * refused as no supplier able to take it when it keeps being overtaken. A reservation not
 * consumed (refused, a repeated tap) is released; one left by a crash expires.
 */
async function storeOrderOnce(deps: OrderEngine, c: Confirmation, now: Date): Promise<StoredOrder> {
  const guard = { firstSupplier: firstSupplierName(deps), now: now.getTime() };
  let plan = await planReservation(deps, c, now);
  let consumed = false;
  try {
    // in one statement when it can stand alone; else (or not taken) the transaction
    const alone = await storeOrderAlone(deps, c, now, plan);
    if (alone) {
      consumed = alone.fresh;
      return alone;
    }
    for (let run = 0; ; run++) {
      try {
        const current = plan;
        const stored = await deps.db.transaction((tx) => storeOrder(deps, tx, c, now, current));
        consumed = stored.fresh;
        return stored;
      } catch (err) {
        if (!(err instanceof Overtaken)) throw err;
        if (run >= OVERTAKEN_RETRIES) {
          throw new Refused({ ok: false, reason: "supplier_unavailable" });
        }
        const mine = plan.reservation;
        // blocked only by newer reservations: keep the place (they withdraw for it)
        const standing =
          mine && !err.replan ? await reservationStanding(deps.db, mine, guard) : undefined;
        const keep =
          mine !== undefined &&
          standing?.live === true &&
          (standing.known ?? Number.POSITIVE_INFINITY) - standing.older >= mine.cost;
        await overtakenPause(run);
        if (keep) continue;
        if (mine) await releaseReservation(deps.db, mine);
        plan = { route: undefined, reservation: undefined, short: [] };
        plan = await planReservation(deps, c, now);
      }
    }
  } finally {
    if (plan.reservation && !consumed) await releaseReservation(deps.db, plan.reservation);
  }
}

/** what the guard let a Pay take before its transaction: the route and its reservation */
interface Plan {
  route: GuardedRoute | undefined;
  reservation: Reservation | undefined;
  short: readonly KnownSupplierBalance[];
  /**
   * the quote as read without a lock, its product as sellable and its routes: what the
   * reservation was made from
   */
  quoted?: { read: QuoteRead; product: ProductRow; routes: readonly Route[] } | undefined;
}

type QuoteRead = QuoteForPay;

/**
 * the guard's reservation for this Pay, from the quote as read without a lock: none for a
 * quote that has its order, a test order, or one storeOrder refuses anyway (it reads the
 * quote again under its lock and refuses it there). Refused when no route's supplier
 * balance can take it
 */
async function planReservation(deps: OrderEngine, c: Confirmation, now: Date): Promise<Plan> {
  const none = { route: undefined, reservation: undefined, short: [] };
  const handed = c.asStored;
  const read =
    handed && handed.quote.id === c.quoteId && handed.quote.userId === c.userId
      ? handed
      : await readQuote(deps.db, c, false);
  const { quote } = read;
  if (read.already || quote.cancelledAt || quote.testing) return none;
  const sellable = refuseUnsellable(deps, quote, read.product ?? undefined, c.userId, now);
  const routes =
    quote.kind === "bill"
      ? []
      : quoteRoutes(deps, quote, sellable, read.routes, minMarginFrom(read.minMargin, deps));
  if (quote.kind !== "bill" && routes.length === 0) {
    throw new Refused({ ok: false, reason: "product_unavailable" });
  }
  const plan = await reserve(deps, guardedRoutes(deps, quote, routes), now);
  return { ...plan, quoted: { read, product: sellable, routes } };
}

/**
 * a quote whose order may be stored by one statement with no transaction around it: no
 * same-day rule (its count must be read under the buyer's lock, by a statement after the one
 * that takes it: H2H's quotes leave the rule to the ref_id), no bill (its payment is looked
 * up first), no test order, and no order or Cancel seen yet
 */
const standsAlone = (read: QuoteRead) =>
  !read.already &&
  !read.quote.cancelledAt &&
  !read.quote.testing &&
  read.quote.kind !== "bill" &&
  read.quote.sameDayAllowed === null;

/**
 * the order stored by one statement, from the quote as the guard read it: the quote locked
 * and checked open, the order, its first attempt, the reservation consumed and the hold,
 * atomic as any one statement is (4 statements as a transaction: begin, the quote read
 * under its lock, the order's statement, commit). What would make the transaction roll back
 * fails the statement (the hold not made, the quote cancelled, the reservation overtaken),
 * and undefined sends the Pay the transaction's way, which finds out why and answers as
 * before. The product and its routes are as read a moment before, not under a lock, as the
 * transaction's own read is not either (the quote's row is the one it locks)
 */
async function storeOrderAlone(
  deps: OrderEngine,
  c: Confirmation,
  now: Date,
  plan: Plan,
): Promise<StoredOrder | undefined> {
  const { quoted } = plan;
  if (!quoted || !standsAlone(quoted.read)) return undefined;
  const { quote } = quoted.read;
  const { product, routes } = quoted;
  const { route, reservation, short } = plan;
  try {
    const { order, fresh } = await insertOrder(deps, deps.db, {
      quote,
      product,
      bill: undefined,
      now,
      messageId: c.messageId,
      route: firstRoute(deps, quote, routes, route),
      reservation,
      guard: { firstSupplier: firstSupplierName(deps), now: now.getTime() },
      hold: { userId: quote.userId, amount: quote.price },
      alone: true,
    });
    return { order, fresh, skippedShort: fresh ? short : [] };
  } catch (err) {
    // the transaction's way answers each of these as it always has
    if (isStatementUndone(err) || err instanceof Overtaken) return undefined;
    throw err;
  }
}

interface StoredOrder {
  order: Order;
  /** made by this confirmation (it sends it); false: the quote's order from before */
  fresh: boolean;
  /** the suppliers the guard found short before the route the order takes */
  skippedShort: readonly KnownSupplierBalance[];
}

/**
 * the order, its first attempt, its hold and the supplier balance's reservation, in one
 * transaction: the quote's order if it has one, else a new one, else the refusal (thrown as
 * Refused, so the transaction stores nothing). The order is stored `submitted`, signed with
 * this time: committed, it is sent at once (design rule 1), and one that never arrives (a
 * crash before the send) is settled as any lost request is, by the status check once the
 * supplier's 5-minute window has passed.
 */
async function storeOrder(
  deps: OrderEngine,
  tx: Tx,
  c: Confirmation,
  now: Date,
  plan: Plan,
): Promise<StoredOrder> {
  const read = await readQuote(tx, c, true);
  const { quote } = read;
  if (read.already) return { order: read.already, fresh: false, skippedShort: [] };
  if (quote.cancelledAt) throw new Refused({ ok: false, reason: "quote_cancelled" });
  const sellable = refuseUnsellable(deps, quote, read.product ?? undefined, c.userId, now);
  // the routes an order of this quote may take: the guard and the first attempt choose
  // from them
  const routes =
    quote.kind === "bill"
      ? []
      : quoteRoutes(deps, quote, sellable, read.routes, minMarginFrom(read.minMargin, deps));
  // no route may be tried (each leaves less than the minimum margin, or is switched off):
  // nothing is sent
  if (quote.kind !== "bill" && !quote.testing && routes.length === 0) {
    throw new Refused({ ok: false, reason: "product_unavailable" });
  }
  const bill = quote.kind === "bill" ? await billOfQuote(deps, tx, quote, now) : undefined;
  // before the wallet's hold: a buyer is not sent to top up for an order no supplier
  // balance can take. A route whose supplier is short was skipped for the next
  const { route, reservation, short } = quote.testing
    ? { route: undefined, reservation: undefined, short: [] }
    : plannedRoute(plan, guardedRoutes(deps, quote, routes));
  const first = firstRoute(deps, quote, routes, route);
  const { order, fresh } = await insertOrder(deps, tx, {
    quote,
    product: sellable,
    bill,
    now,
    messageId: c.messageId,
    route: first,
    reservation,
    guard: { firstSupplier: firstSupplierName(deps), now: now.getTime() },
    // a test order moves no money
    hold: quote.testing ? undefined : { userId: quote.userId, amount: quote.price },
  });
  return { order, fresh, skippedShort: fresh ? short : [] };
}

/**
 * the buyer's own quote with the order it made already if any, its product, the minimum
 * margin setting and the product's routes: one statement. Locked (in the Pay's
 * transaction), the quote's row is (a Cancel of the same card waits for this confirmation,
 * or this one for it) and so is the buyer's same-day lock for it; unlocked it is what the
 * guard reserves from
 */
async function readQuote(
  exec: Tx | OrderEngine["db"],
  c: Confirmation,
  lock: boolean,
): Promise<QuoteForPay & { sameDay?: unknown }> {
  const values = { quoteId: c.quoteId, userId: c.userId };
  const [row] = await (lock ? lockedQuoteRead(exec, values) : quoteRead(exec, values));
  if (!row) throw new Refused({ ok: false, reason: "quote_not_found" });
  return row;
}

const quoteColumns = { quote: quotes, already: orders, ...payReadColumns };

// both reads built once (db/built-once.ts): the quote and its buyer are the placeholders
const quoteRead = builtOnce((exec) =>
  exec
    .select(quoteColumns)
    .from(quotes)
    .leftJoin(orders, eq(orders.confirmKey, quotes.id))
    .leftJoin(products, eq(products.code, quotes.productCode))
    .where(
      and(eq(quotes.id, sql.placeholder("quoteId")), eq(quotes.userId, sql.placeholder("userId"))),
    ),
);

const lockedQuoteRead = builtOnce((exec) =>
  exec
    .select({
      ...quoteColumns,
      // the buyer's lock for this product and destination, taken with the quote: the
      // statement that stores the order counts every purchase of it committed before
      // (repeat.ts)
      sameDay: sameDayLockColumn,
    })
    .from(quotes)
    .leftJoin(orders, eq(orders.confirmKey, quotes.id))
    .leftJoin(products, eq(products.code, quotes.productCode))
    .where(
      and(eq(quotes.id, sql.placeholder("quoteId")), eq(quotes.userId, sql.placeholder("userId"))),
    )
    .for("update", { of: quotes }),
);

function expired(quote: QuoteRow): Refused {
  return new Refused({
    ok: false,
    reason: "quote_expired",
    kind: quote.kind,
    productCode: quote.productCode,
    destination: quote.destination,
  });
}

/** what the quote leaves the shop once every upline is paid: the most it may cost at all */
const shopShareOf = (quote: QuoteRow) =>
  routeCostCeiling({ price: quote.price, margins: quote.margins, minMargin: 0 });

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
  // the supplier raised its price past what we quoted: quote again rather than sell at a
  // loss, or pay the uplines' margins from the shop's own (design rule 21)
  if (quote.kind !== "bill" && saleCostOf(product) > shopShareOf(quote) && !quote.testing) {
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

/**
 * the routes the quote's product may take at the quote's price, in the order they are
 * tried: each within the price less every upline's margin and the shop's minimum margin
 * (design rule 21). None left because its routes are paused (they kept
 * failing at their suppliers): closed until the first pause ends, as a paused product is
 */
function quoteRoutes(
  deps: OrderEngine,
  quote: QuoteRow,
  product: ProductRow,
  stored: unknown,
  minMargin: number,
): Route[] {
  const now = deps.clock.now();
  const all = routesFromRows(product, storedRoutesFrom(stored), firstSupplierName(deps));
  const usable = usableRoutes(all, {
    costCeiling: routeCostCeiling({ price: quote.price, margins: quote.margins, minMargin }),
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

/**
 * the supplier balance guard's choice (known-balance.ts): the route the order may take and
 * its reservation there, committed; refused when no route's supplier can cover it
 */
async function reserve(
  deps: OrderEngine,
  routes: readonly GuardedRoute[],
  now: Date,
): Promise<Plan> {
  const { route, reservation, short } = await reserveSupplierBalance(deps.db, routes, {
    firstSupplier: firstSupplierName(deps),
    now: now.getTime(),
  });
  if (!route) throw new Refused({ ok: false, reason: "supplier_unavailable" }, short);
  return { route, reservation, short };
}

/**
 * the route the guard reserved, when it is still one the quote may take at the same cost
 * (its routes were read again under the quote's lock); else the Pay reserves again
 */
function plannedRoute(plan: Plan, routes: readonly GuardedRoute[]): Plan {
  const { route } = plan;
  if (!route || !routes.some((r) => r.supplier === route.supplier && r.cost === route.cost)) {
    throw new Overtaken(true);
  }
  return plan;
}

/**
 * where the first attempt goes: the route the guard let through (or, with no guard, the
 * first usable one); a bill at the first supplier, where it was inquired
 */
function firstRoute(
  deps: OrderEngine,
  quote: QuoteRow,
  routes: readonly Route[],
  guarded: GuardedRoute | undefined,
): Pick<Route, "supplier" | "supplierCode" | "cost"> {
  const first = { supplier: firstSupplierName(deps), supplierCode: quote.productCode };
  if (quote.kind === "bill") return { ...first, cost: quote.cost };
  const route = guarded ? routes.find((r) => r.supplier === guarded.supplier) : routes[0];
  if (!route) return { ...first, cost: quote.cost };
  // the first supplier's own product row is what the quote was priced from
  return route.implicit ? { ...route, cost: quote.cost } : route;
}

interface BillOfQuote {
  /** pay-pasca must carry the inquiry's own ref_id */
  refId: string;
  /** one bill, one payment (design rule 9); null for a test payment */
  billKey: string | null;
  /** the name and periods the order's card keeps showing */
  shown: OrderBill;
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
  // a quote whose share for the shop (the price less the uplines' margins) is below the
  // supplier's own total can't be paid without a loss: re-inquire
  if (!quote.testing && shopShareOf(quote) < inquiry.total) throw expired(quote);
  const details = inquiry.details as BillDetails | null;
  const shown = { customerName: inquiry.customerName, periods: billPeriodsOf(details) };
  // a test payment moves no money and never stands in the way of a real one
  if (quote.testing) return { refId: inquiry.refId, billKey: null, shown };
  const billKey = billKeyOf({
    productCode: inquiry.productCode,
    customerNo: inquiry.customerNo,
    details,
    inquiredAt: inquiry.createdAt,
  });
  const paying = await billPayment(tx, billKey);
  if (paying) throw new Refused(alreadyPaid(paying, quote.userId));
  return { refId: inquiry.refId, billKey, shown };
}

/**
 * the order row, `submitted` to the route its first attempt takes, with that attempt (fresh); the quote's order
 * if a concurrent confirmation stored it first (its lock on the quote was waited for, but
 * this statement's snapshot was older than that order); refused when another payment of the
 * same bill got there first (the insert waited for it to commit)
 */
async function insertOrder(
  deps: OrderEngine,
  tx: Tx | OrderEngine["db"],
  o: {
    quote: QuoteRow;
    product: ProductRow;
    bill: BillOfQuote | undefined;
    now: Date;
    messageId: number | undefined;
    route: Pick<Route, "supplier" | "supplierCode" | "cost">;
    /** the supplier balance guard's reservation, consumed in the same statement (none: no guard) */
    reservation: Reservation | undefined;
    /** the guard's first supplier and time, for the reservation's check */
    guard: { firstSupplier: string; now: number };
    /** the buyer's hold, made in the same statement (none for a test order) */
    hold: { userId: number; amount: number } | undefined;
    /** the statement runs with no transaction around it (storeOrderAlone) */
    alone?: boolean;
  },
): Promise<{ order: Order; fresh: boolean }> {
  const { quote, now, route } = o;
  const billKey = o.bill?.billKey ?? null;
  // the first supplier under the product's own code is where an order goes unless routed
  const routed =
    route.supplier !== firstSupplierName(deps) || route.supplierCode !== quote.productCode;
  const shape = {
    routed,
    reservation: o.reservation !== undefined,
    hold: o.hold !== undefined,
    alone: o.alone === true,
  };
  const [row] = await orderStatement(tx, shape, {
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
    cost: routed ? route.cost : quote.cost,
    supplier: route.supplier,
    routeCode: route.supplierCode,
    attemptCost: route.cost,
    margins: quote.margins,
    testing: quote.testing,
    inquiryId: quote.inquiryId,
    billKey,
    bill: o.bill?.shown ?? null,
    now,
    // the request is signed with this time: the supplier's 5-minute window then bounds
    // "never arrived"
    requestTimestamp: Math.floor(now.getTime() / 1000),
    sameDaySince: sameDaySince(now.getTime()),
    ...(o.reservation ? prefixed("res", reservationValues(o.reservation, o.guard)) : {}),
    ...(o.hold ? prefixed("hold", holdCallValues(o.hold)) : {}),
  });
  if (row) {
    const { held: holdValue, reserved: reservedOk, sameDayCount, sameDayLast, ...stored } = row;
    // (alone, the statement's kios_assert stood for the quote and the reservation)
    const { standing: _, ...order } = stored as typeof stored & { standing?: boolean };
    // Pays that committed since this one read the estimate took what it needed
    if (!reservedOk) throw new Overtaken();
    const repeat = unconfirmedRepeat(quote.sameDayAllowed, { sameDayCount, sameDayLast });
    if (repeat) throw new Refused(repeat);
    if (o.hold) holdOf(holdValue, { orderId: order.id, ...o.hold });
    return { order, fresh: true };
  }
  const [other] = await tx.select().from(orders).where(eq(orders.confirmKey, quote.id));
  if (other) return { order: other, fresh: false };
  const paying = billKey ? await billPayment(tx, billKey) : undefined;
  if (paying) throw new Refused(alreadyPaid(paying, quote.userId));
  throw new Refused({ ok: false, reason: "quote_not_found" });
}

/** values named for one CTE's placeholders: `prefix` + the name, capitalised */
function prefixed(prefix: string, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [`${prefix}${k[0]?.toUpperCase()}${k.slice(1)}`, v]),
  );
}

const p = (name: string) => sql`${sql.placeholder(name)}`;

/** what varies Pay's order statement: one built statement per shape (db/built-once.ts) */
interface OrderShape {
  /** the order leaves the first supplier's own code: its supplier and route are stored */
  routed: boolean;
  /** the guard's reservation is checked and consumed in it */
  reservation: boolean;
  /** the buyer's hold is made in it (none for a test order) */
  hold: boolean;
  /**
   * the statement stands alone, with no transaction around it (storeOrderAlone): it locks
   * the quote itself, its hold is strict, and a reservation not consumed or a quote cancelled
   * fails it whole (kios_assert)
   */
  alone: boolean;
}

/**
 * Pay's statement that stores the order: the order, its first attempt, the guard's
 * reservation checked and consumed, the buyer's hold and the same-day count, in one
 * statement of data-modifying CTEs, built once per shape with every value a placeholder
 */
const orderStatement = builtOncePerShape(
  (s: OrderShape) => `${s.routed}|${s.reservation}|${s.hold}|${s.alone}`,
  (tx, s) => {
    // alone, the quote's lock is the statement's own, taken before the order is inserted (as
    // the transaction's read takes it first): a Cancel waits for it, or it for the Cancel and
    // then finds the quote void, and the statement fails
    const locked = s.alone
      ? tx.$with("quote_locked", { id: sql<string>`id` }).as(sql`
          select ${quotes.id} from ${quotes}
          where ${quotes.id} = ${p("confirmKey")} and ${quotes.userId} = ${p("userId")}
            and ${quotes.cancelledAt} is null
          for update`)
      : undefined;
    const stored = tx.$with("stored").as(
      tx
        .insert(orders)
        .values({
          refId: sql.placeholder("refId"),
          confirmKey: locked
            ? sql`case when kios_assert(exists (select 1 from ${locked}), 'the quote open')
                then (select id from ${locked}) end`
            : sql.placeholder("confirmKey"),
          userId: sql.placeholder("userId"),
          chatId: sql.placeholder("chatId"),
          messageId: sql.placeholder("messageId"),
          kind: sql.placeholder("kind"),
          productCode: sql.placeholder("productCode"),
          productName: sql.placeholder("productName"),
          destination: sql.placeholder("destination"),
          price: sql.placeholder("price"),
          cost: sql.placeholder("cost"),
          ...(s.routed
            ? { supplier: sql.placeholder("supplier"), routeCode: sql.placeholder("routeCode") }
            : {}),
          margins: sql.placeholder("margins"),
          status: "submitted",
          testing: sql.placeholder("testing"),
          inquiryId: sql.placeholder("inquiryId"),
          billKey: sql.placeholder("billKey"),
          bill: sql.placeholder("bill"),
          createdAt: sql.placeholder("now"),
          submittedAt: sql.placeholder("now"),
          requestTimestamp: sql.placeholder("requestTimestamp"),
          updatedAt: sql.placeholder("now"),
        })
        .onConflictDoNothing()
        .returning(),
    );
    // the guard's reservation checked and consumed, in the same statement (data-modifying
    // CTEs all run): the attempt stored here takes its place in one commit
    const reserved = s.reservation
      ? tx.$with("reserved", { ok: sql<unknown>`ok` }).as(
          reservationStatement({
            id: p("resId"),
            supplier: p("resSupplier"),
            cost: p("resCost"),
            first: p("resFirst"),
            now: p("resNow"),
            consumeBy: p("resConsumeBy"),
          }),
        )
      : undefined;
    // its first attempt (design rule 15) and the buyer's hold, in the same statement. The
    // hold reads the reservation's row: no reservation consumed, no hold, and the Pay runs
    // again
    const held = s.hold
      ? tx.$with("held", { held: sql<unknown>`held` }).as(
          sql`select ${holdCallOf(
            sql`${stored.id}`,
            {
              kind: p("holdKind"),
              actorId: p("holdActorId"),
              legs: p("holdLegs"),
              requires: p("holdRequires"),
            },
            s.alone,
          )} as held from ${stored}${reserved ? sql`, ${reserved}` : sql``}`,
        )
      : undefined;
    return tx
      .with(
        ...(locked ? [locked] : []),
        stored,
        firstAttemptOf(tx, stored, {
          supplier: p("supplier"),
          supplierCode: p("routeCode"),
          cost: p("attemptCost"),
        }),
        ...(reserved ? [reserved] : []),
        ...(held ? [held] : []),
      )
      .select({
        ...orderColumnsOf(stored),
        held: held ? sql<unknown>`(select held from ${held})` : sql<unknown>`null`,
        reserved: reserved ? sql<boolean>`exists (select 1 from ${reserved})` : sql<boolean>`true`,
        // alone, what a transaction's caller would roll back for fails the statement instead
        ...(locked && reserved
          ? {
              standing: sql<boolean>`kios_assert(exists (select 1 from ${reserved}),
                'the reservation consumed')`,
            }
          : {}),
        // the same-day repeat rule, counted where the order is stored (repeat.ts)
        ...sameDayColumns({
          userId: p("userId"),
          productCode: p("productCode"),
          destination: p("destination"),
          since: sql`${sql.param(sql.placeholder("sameDaySince"), orders.createdAt)}`,
        }),
      })
      .from(stored);
  },
);

/** the buyer's hold, as the order's statement made it: refused (the whole Pay) when the wallet can't cover the price */
function holdOf(value: unknown, o: { orderId: number; userId: number; amount: number }): void {
  try {
    holdResultOf(value, o);
  } catch (err) {
    if (!(err instanceof InsufficientFundsError)) throw err;
    throw new Refused({
      ok: false,
      reason: "insufficient_balance",
      balance: err.balance,
      price: o.amount,
      missing: o.amount - err.balance,
    });
  }
}
