import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { builtOnce } from "../../db/built-once.ts";
import type { Executor } from "../../db/client.ts";
import { h2hOrders, orders, products } from "../../db/schema.ts";
import { pricingQuery, pricingRead } from "../catalogue/prices.ts";
import {
  type BuyerProduct,
  CODE_PLACEHOLDERS,
  codeValues,
  pricedForBuyer,
  productOnSaleJson,
} from "../catalogue/queries.ts";
import { cancelQuote } from "../orders/cancel.ts";
import type { OrderEngine } from "../orders/engine.ts";
import type { QuoteForPay } from "../orders/pay-read.ts";
import { confirmQuote } from "../orders/place.ts";
import { createBillQuote, createQuote, loadQuote } from "../orders/quotes.ts";
import type { ConfirmResult, Order, Quote, QuoteRefusal } from "../orders/types.ts";

// H2H orders through the order engine's own way in (createQuote / createBillQuote, then
// confirmQuote), so they are stored before sent, held on the reseller's wallet at the
// reseller's price and settled by the same rules (design rules 1, 3, 5). A reseller's ref_id
// is theirs alone: it binds to the quote kios made for it (h2h_orders, unique per reseller),
// and the order that quote makes carries kios's own ref_id upstream.

type H2hOrderRow = typeof h2hOrders.$inferSelect;

/** the reseller and the door's credentials it came through: an H2H key or a center key */
export type Caller =
  | { userId: number; keyId: number; centerKeyId?: undefined }
  | { userId: number; keyId?: undefined; centerKeyId: number };

/** a ref_id of this reseller, with the order its quote made (if any) */
export interface StoredH2h {
  row: H2hOrderRow;
  order: Order | undefined;
}

/** why an H2H request made no transaction: the protocol's code decides the words */
export type H2hRefusal =
  | { code: "PRODUCT_NOT_FOUND"; message: string }
  | { code: "PRODUCT_INACTIVE"; message: string }
  | { code: "INVALID_CUSTOMER_NO"; message: string }
  | { code: "INSUFFICIENT_BALANCE"; message: string }
  | { code: "INQUIRY_FAILED"; message: string }
  | { code: "INQUIRY_NOT_FOUND"; message: string }
  | { code: "INQUIRY_EXPIRED"; message: string }
  | { code: "INQUIRY_MISMATCH"; message: string }
  | { code: "VALIDATION_ERROR"; message: string; field: string }
  /** kios can't take it now (its supplier balance, an upstream failure); nothing was held */
  | { code: "SERVER_ERROR"; message: string };

export type OrderAnswer =
  | { ok: true; order: Order; row: H2hOrderRow }
  /**
   * the ref_id is held by a request still before its order (its claim, maybe with its quote
   * bound): being processed, its answer comes by a repeat, status or the final's callback
   */
  | { ok: true; order: null; row: H2hOrderRow }
  | { ok: false; refusal: H2hRefusal };
export type InquiryAnswer =
  | { ok: true; quote: Quote; row: H2hOrderRow }
  | { ok: false; refusal: H2hRefusal };

export async function findH2h(
  db: Executor,
  userId: number,
  refId: string,
): Promise<StoredH2h | undefined> {
  const [found] = await h2hRead(db, { userId, refId });
  return found ? { row: found.row, order: found.order ?? undefined } : undefined;
}

// built once (db/built-once.ts): every H2H order and every status query reads it
const h2hRead = builtOnce((db) =>
  db
    .select({ row: h2hOrders, order: orders })
    .from(h2hOrders)
    .leftJoin(orders, eq(orders.confirmKey, h2hOrders.quoteId))
    .where(
      and(
        eq(h2hOrders.userId, sql.placeholder("userId")),
        eq(h2hOrders.refId, sql.placeholder("refId")),
      ),
    ),
);

/**
 * the product a code names, for the protocol's PRODUCT_NOT_FOUND / PRODUCT_INACTIVE split:
 * the code as given first, then in any case (as the catalogue's byCode finds it: a
 * Digiflazz-first shop's codes are its SKUs in lower case, a reseller's software sends them
 * in upper case)
 */
export async function productKind(db: Executor, code: string) {
  const read = (where: ReturnType<typeof eq>) =>
    db.select({ type: products.type, listed: products.listed }).from(products).where(where);
  const [exact] = await read(eq(products.code, code));
  const [row] = exact ? [exact] : await read(eq(sql`lower(${products.code})`, code.toLowerCase()));
  return row?.listed ? row.type : undefined;
}

function quoteRefusal(r: QuoteRefusal, code: string): H2hRefusal {
  switch (r.reason) {
    case "product_unavailable":
    case "not_for_sale":
      return { code: "PRODUCT_INACTIVE", message: `product ${code} is not available` };
    case "product_closed":
      return {
        code: "PRODUCT_INACTIVE",
        message: `product ${code} is closed until ${new Date(r.until).toISOString()}`,
      };
    case "invalid_destination":
      return { code: "INVALID_CUSTOMER_NO", message: "customer_no is not valid for this product" };
    case "no_bill":
      return { code: "INQUIRY_FAILED", message: r.message || "no bill is due" };
    case "bill_already_paid":
      return {
        code: "INQUIRY_FAILED",
        message: r.state === "open" ? "this bill is being paid" : "this bill is already paid",
      };
    case "supplier_error":
      return { code: "SERVER_ERROR", message: "the bill could not be looked up; try again" };
  }
}

function confirmRefusal(
  r: Exclude<ConfirmResult, { ok: true }>,
  kind: "order" | "bill",
): H2hRefusal {
  switch (r.reason) {
    case "insufficient_balance":
      return {
        code: "INSUFFICIENT_BALANCE",
        message: `balance ${r.balance} is below the price ${r.price}`,
      };
    case "product_unavailable":
      return { code: "PRODUCT_INACTIVE", message: "the product is not available" };
    case "product_closed":
      return {
        code: "PRODUCT_INACTIVE",
        message: `the product is closed until ${new Date(r.until).toISOString()}`,
      };
    case "bill_already_paid":
      return {
        code: "INQUIRY_FAILED",
        message: r.state === "open" ? "this bill is being paid" : "this bill is already paid",
      };
    case "quote_expired":
      return kind === "bill"
        ? { code: "INQUIRY_EXPIRED", message: "the inquiry expired; inquire again" }
        : { code: "SERVER_ERROR", message: "the price changed; send the order again" };
    case "supplier_unavailable":
      return { code: "SERVER_ERROR", message: "temporarily unable to take orders; try later" };
    case "quote_cancelled":
    case "quote_not_found":
    // (H2H's quotes leave the same-day rule to the ref_id: a new ref_id is a new order)
    case "bought_today":
      return { code: "SERVER_ERROR", message: "the order could not be placed; try again" };
  }
}

/**
 * binds a bill's ref_id to its inquiry's quote: this one, or the row of a concurrent request
 * with the same ref_id that got there first (an order's claim, or another inquiry's)
 */
async function bindRef(
  db: Executor,
  caller: Caller,
  b: {
    refId: string;
    kind: "order" | "bill";
    productCode: string;
    customerNo: string;
    quoteId: string;
  },
): Promise<H2hOrderRow> {
  const [row] = await db
    .insert(h2hOrders)
    .values({
      userId: caller.userId,
      keyId: caller.keyId ?? null,
      centerKeyId: caller.centerKeyId ?? null,
      ...b,
    })
    .onConflictDoNothing({ target: [h2hOrders.userId, h2hOrders.refId] })
    .returning();
  if (row) return row;
  const [winner] = await db
    .select()
    .from(h2hOrders)
    .where(and(eq(h2hOrders.userId, caller.userId), eq(h2hOrders.refId, b.refId)));
  return winner!;
}

async function confirm(
  engine: OrderEngine,
  caller: Caller,
  row: H2hOrderRow & { quoteId: string },
  asStored?: QuoteForPay,
): Promise<OrderAnswer> {
  const result = await confirmQuote(engine, {
    quoteId: row.quoteId,
    userId: caller.userId,
    asStored,
  });
  if (result.ok) return { ok: true, order: result.order, row };
  return { ok: false, refusal: confirmRefusal(result, row.kind) };
}

/**
 * an order's confirmation that was refused formed nothing, so its ref_id binds nothing: its
 * quote is voided (under the quote's lock, as a Cancel: a repeat confirming it at the same
 * moment either made its order first, which is then the answer, or finds it void) and the
 * row that bound the ref_id goes. A crash between the two leaves a row on a void quote,
 * which the next request with the ref_id lets go the same way.
 */
async function releaseRef(
  engine: OrderEngine,
  caller: Caller,
  row: H2hOrderRow & { quoteId: string },
): Promise<Order | undefined> {
  const voided = await cancelQuote(engine.db, {
    quoteId: row.quoteId,
    userId: caller.userId,
    now: new Date(engine.clock.now()),
  });
  if (voided.state === "ordered") return voided.order;
  await engine.db
    .delete(h2hOrders)
    .where(and(eq(h2hOrders.id, row.id), eq(h2hOrders.quoteId, row.quoteId)));
  return undefined;
}

/** an order's confirmation; refused, its ref_id is let go (releaseRef) */
async function confirmOrRelease(
  engine: OrderEngine,
  caller: Caller,
  row: H2hOrderRow & { quoteId: string },
  /** the quote as this request just stored it (quotes.ts's forPay) */
  asStored?: QuoteForPay,
): Promise<OrderAnswer> {
  const answer = await confirm(engine, caller, row, asStored);
  if (answer.ok) return answer;
  const order = await releaseRef(engine, caller, row);
  return order ? { ok: true, order, row } : answer;
}

const refTakenByBill: H2hRefusal = {
  code: "VALIDATION_ERROR",
  field: "ref_id",
  message: "is already used by a bill inquiry",
};

/**
 * a claim with no quote this old was left by a request that never came back (a crashed
 * process): the next request with its ref_id takes it over. Long beside a quote (ms), as a
 * request on a loaded machine may still be alive: it then binds nothing (orderOnClaim)
 */
export const CLAIM_TAKEOVER_MS = 3 * 60_000;
/**
 * how long a repeat waits for a young claim to become an order before it answers "in
 * flight": a request's quote takes milliseconds, so a burst of repeats mostly answers the
 * order itself; under load the wait ends and the answer is PROSES / ORDER_PENDING
 */
const CLAIM_WAITS_MS = [20, 50, 100, 200, 400, 800, 1000];
/** each round either answers or saw the ref_id change hands (released, taken over) */
const ROUNDS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const bound = (row: H2hOrderRow): row is H2hOrderRow & { quoteId: string } => row.quoteId !== null;

type Claim =
  /**
   * this request holds the ref_id: (id, claimedAt) is its identity; a new claim comes with
   * the product priced for the reseller, read by the claim's own statement
   */
  | { mine: true; row: H2hOrderRow; priced?: BuyerProduct }
  /** another request's: its row and order as read */
  | { mine: false; stored: StoredH2h };

/**
 * takes the ref_id for this request on arrival, before its quote: a row with no quote,
 * committed at once, so a repeat meanwhile sees the ref_id taken and never answers as if it
 * were free. A claim a request left with no quote for CLAIM_TAKEOVER_MS (a crashed process)
 * is taken over, once (conditional on the claim read). Undefined: the row went or changed
 * hands between two reads; look again.
 */
async function claimRef(
  engine: OrderEngine,
  caller: Caller,
  o: { code: string; customerNo: string; refId: string },
): Promise<Claim | undefined> {
  const claimedAt = new Date(engine.clock.now());
  const request = {
    keyId: caller.keyId ?? null,
    centerKeyId: caller.centerKeyId ?? null,
    productCode: o.code.trim(),
    customerNo: o.customerNo.trim(),
    claimedAt,
  };
  const [claimed] = await claimInsert(engine.db, {
    userId: caller.userId,
    refId: o.refId,
    ...request,
    ...codeValues(o.code),
  });
  if (claimed) {
    const { pricing, ...row } = claimed;
    return { mine: true, row, priced: pricedForBuyer(pricingRead(pricing)) };
  }
  const stored = await findH2h(engine.db, caller.userId, o.refId);
  if (!stored) return undefined;
  if (stored.row.quoteId !== null || !stale(engine, stored.row)) return { mine: false, stored };
  const [taken] = await engine.db
    .update(h2hOrders)
    .set({ ...request, finalQueuedAt: null })
    .where(
      and(
        eq(h2hOrders.id, stored.row.id),
        isNull(h2hOrders.quoteId),
        eq(h2hOrders.claimedAt, stored.row.claimedAt),
      ),
    )
    .returning();
  return taken ? { mine: true, row: taken } : undefined;
}

// built once (db/built-once.ts): every H2H order claims its ref_id first. The claim must wait
// for the signature, and the quote's pricing read for nothing but the code and the reseller:
// the claim's RETURNING reads it (the pricing query as a scalar subquery, its product by the
// request's code), one statement instead of two; a ref_id already taken reads nothing
const claimInsert = builtOnce((db) =>
  db
    .insert(h2hOrders)
    .values({
      userId: sql.placeholder("userId"),
      refId: sql.placeholder("refId"),
      kind: "order",
      quoteId: null,
      keyId: sql.placeholder("keyId"),
      centerKeyId: sql.placeholder("centerKeyId"),
      productCode: sql.placeholder("productCode"),
      customerNo: sql.placeholder("customerNo"),
      claimedAt: sql.placeholder("claimedAt"),
    })
    .onConflictDoNothing({ target: [h2hOrders.userId, h2hOrders.refId] })
    .returning({
      ...getTableColumns(h2hOrders),
      pricing: sql<unknown>`(${pricingQuery(
        sql`${sql.placeholder("userId")}`,
        productOnSaleJson(CODE_PLACEHOLDERS),
      )})`,
    }),
);

const stale = (engine: OrderEngine, row: H2hOrderRow) =>
  row.claimedAt.getTime() < engine.clock.now() - CLAIM_TAKEOVER_MS;

/** the claim this request holds, if it still does (not taken over) */
const heldBy = (row: H2hOrderRow) =>
  and(eq(h2hOrders.id, row.id), isNull(h2hOrders.quoteId), eq(h2hOrders.claimedAt, row.claimedAt));

/**
 * a refusal of this request's own quote formed nothing: its claim goes in the same step, so
 * the ref_id is free (issue 36 item 13). False: the claim was taken over meanwhile, and the
 * ref_id's state, not this refusal, is the answer.
 */
async function releaseClaim(db: Executor, row: H2hOrderRow): Promise<boolean> {
  const gone = await db.delete(h2hOrders).where(heldBy(row)).returning({ id: h2hOrders.id });
  return gone.length > 0;
}

/**
 * the quote for a claim this request holds, bound to it (unless the claim was taken over:
 * then undefined, and the quote is left to expire), then confirmed
 */
async function orderOnClaim(
  engine: OrderEngine,
  caller: Caller,
  o: { cmd: "prepaid" | "game"; code: string; customerNo: string },
  claim: H2hOrderRow,
  priced: BuyerProduct | undefined,
): Promise<OrderAnswer | undefined> {
  const refuse = async (refusal: H2hRefusal): Promise<OrderAnswer | undefined> =>
    (await releaseClaim(engine.db, claim)) ? { ok: false, refusal } : undefined;
  const notFound: H2hRefusal = {
    code: "PRODUCT_NOT_FOUND",
    message: `no ${o.cmd} product with code ${o.code}`,
  };
  // the quote reads the product (a prepaid or game one, listed) as it prices it, so the
  // product's kind is read on its own only to tell a refusal's reason (not found, or
  // inactive). A quote of the other kind (a game's code sent as prepaid) is left to expire
  const quoted = await createQuote(engine, {
    userId: caller.userId,
    chatId: caller.userId,
    productCode: o.code,
    destination: o.customerNo,
    // the reseller's server keeps the same-day rule: each new ref_id is its explicit choice
    repeat: false,
    // bound by the quote's own statement while this request holds the claim
    claim: { id: claim.id, claimedAt: claim.claimedAt, kind: o.cmd, productCode: o.code },
    priced,
  });
  if (!quoted.ok) {
    if ((await productKind(engine.db, o.code)) !== o.cmd) return refuse(notFound);
    return refuse(quoteRefusal(quoted, o.code));
  }
  if (quoted.quote.kind !== o.cmd) return refuse(notFound);
  // the claim taken over meanwhile (no quote bound to hand on): the quote is left to expire
  if (!quoted.forPay) return undefined;
  const row = {
    ...claim,
    quoteId: quoted.quote.id,
    productCode: o.code,
    customerNo: quoted.quote.destination,
    finalQueuedAt: null,
  };
  return confirmOrRelease(engine, caller, row, quoted.forPay);
}

/**
 * a ref_id another request holds: its order; a bill's is refused; a quote bound and not yet
 * confirmed is confirmed (its one order is the answer, as every racing request's); a young
 * claim is waited for a moment, then answered as in flight. Undefined: the ref_id was let go
 * (that request was refused, nothing formed) and this request goes on as a new one.
 */
async function joinStored(
  engine: OrderEngine,
  caller: Caller,
  first: StoredH2h,
): Promise<OrderAnswer | undefined> {
  let stored: StoredH2h | undefined = first;
  for (const wait of [0, ...CLAIM_WAITS_MS]) {
    if (wait > 0) {
      await sleep(wait);
      stored = await findH2h(engine.db, caller.userId, first.row.refId);
    }
    if (!stored) return undefined;
    if (stored.order) return { ok: true, order: stored.order, row: stored.row };
    if (stored.row.kind === "bill") return { ok: false, refusal: refTakenByBill };
    if (bound(stored.row)) {
      const joined = await confirmOrRelease(engine, caller, stored.row);
      return joined.ok ? joined : undefined;
    }
    if (stale(engine, stored.row)) return undefined;
  }
  return { ok: true, order: null, row: stored!.row };
}

/**
 * cmd prepaid | game: the ref_id is claimed on arrival, before the quote (claimRef); a
 * repeated ref_id returns its stored transaction, or is told it is in flight, whatever
 * product or destination the repeat names (docs/center.md); a ref_id whose request was
 * refused (nothing formed) is free, and this request is a new one
 */
export async function placeH2hOrder(
  engine: OrderEngine,
  caller: Caller,
  o: { cmd: "prepaid" | "game"; code: string; customerNo: string; refId: string },
): Promise<OrderAnswer> {
  for (let round = 0; round < ROUNDS; round++) {
    const claim = await claimRef(engine, caller, o);
    if (!claim) continue;
    if (claim.mine) {
      // a request whose claim was taken over meanwhile never forms anything of its own: the
      // request that took it answered its client, and its order (or its refusal, which let
      // the ref_id go) stands
      const answer = await orderOnClaim(engine, caller, o, claim.row, claim.priced);
      return answer ?? (await asItStands(engine, caller, o.refId));
    }
    const answer = await joinStored(engine, caller, claim.stored);
    if (answer) return answer;
  }
  // the ref_id changed hands every round: whatever holds it now is the answer
  return asItStands(engine, caller, o.refId);
}

const tryAgain: OrderAnswer = {
  ok: false,
  refusal: { code: "SERVER_ERROR", message: "nothing was ordered; try again with the same ref_id" },
};

/** the ref_id's state as it stands, for a request that holds no claim on it */
async function asItStands(
  engine: OrderEngine,
  caller: Caller,
  refId: string,
): Promise<OrderAnswer> {
  const now = await findH2h(engine.db, caller.userId, refId);
  if (!now) return tryAgain;
  return (await joinStored(engine, caller, now)) ?? tryAgain;
}

/** cmd inquiry: the bill at the reseller's price, bound to their ref_id for the payment */
export async function h2hInquiry(
  engine: OrderEngine,
  caller: Caller,
  i: { code: string; customerNo: string; refId: string },
): Promise<InquiryAnswer> {
  const stored = await findH2h(engine.db, caller.userId, i.refId);
  let replaced: H2hOrderRow | undefined;
  if (stored) {
    if (stored.row.kind !== "bill") {
      return {
        ok: false,
        refusal: {
          code: "VALIDATION_ERROR",
          field: "ref_id",
          message: "is already used by an order",
        },
      };
    }
    if (stored.order) {
      return {
        ok: false,
        refusal: {
          code: "VALIDATION_ERROR",
          field: "ref_id",
          message: "is already used by a bill payment",
        },
      };
    }
    // (a bill's row is made with its quote: never a claim, h2h_orders_bill_quoted)
    const quote = bound(stored.row) ? await loadQuote(engine.db, stored.row.quoteId) : undefined;
    // while its inquiry is open a payment may be under way with it: the same inquiry again
    if (quote && quote.expiresAt.getTime() > engine.clock.now()) {
      if (
        stored.row.productCode === i.code.trim() &&
        sameCustomer(stored.row.customerNo, i.customerNo)
      ) {
        return { ok: true, quote, row: stored.row };
      }
      return {
        ok: false,
        refusal: {
          code: "VALIDATION_ERROR",
          field: "ref_id",
          message: "is already used by another inquiry",
        },
      };
    }
    // an expired inquiry can no longer be paid: the ref_id may take a fresh one
    replaced = stored.row;
  }
  const kind = await productKind(engine.db, i.code);
  if (kind !== "pasca") {
    return {
      ok: false,
      refusal: { code: "PRODUCT_NOT_FOUND", message: `no pasca product with code ${i.code}` },
    };
  }
  const quoted = await createBillQuote(engine, {
    userId: caller.userId,
    chatId: caller.userId,
    productCode: i.code,
    customerNo: i.customerNo,
  });
  if (!quoted.ok) return { ok: false, refusal: quoteRefusal(quoted, i.code) };
  const row = replaced
    ? await rebindInquiry(engine.db, replaced, quoted.quote)
    : await bindRef(engine.db, caller, {
        refId: i.refId,
        kind: "bill",
        productCode: i.code,
        customerNo: quoted.quote.destination,
        quoteId: quoted.quote.id,
      });
  if (row.kind !== "bill") {
    return {
      ok: false,
      refusal: {
        code: "VALIDATION_ERROR",
        field: "ref_id",
        message: "is already used by an order",
      },
    };
  }
  const quote =
    row.quoteId === quoted.quote.id || !bound(row)
      ? quoted.quote
      : await loadQuote(engine.db, row.quoteId);
  return { ok: true, quote: quote!, row };
}

/** an expired inquiry's ref_id taken by a fresh inquiry, once (conditional on the one read) */
async function rebindInquiry(db: Executor, row: H2hOrderRow, quote: Quote): Promise<H2hOrderRow> {
  const [moved] = await db
    .update(h2hOrders)
    .set({
      quoteId: quote.id,
      productCode: quote.productCode,
      customerNo: quote.destination,
      finalQueuedAt: null,
    })
    .where(
      and(
        eq(h2hOrders.id, row.id),
        row.quoteId === null ? isNull(h2hOrders.quoteId) : eq(h2hOrders.quoteId, row.quoteId),
      ),
    )
    .returning();
  if (moved) return moved;
  const [now] = await db.select().from(h2hOrders).where(eq(h2hOrders.id, row.id));
  return now!;
}

/** cmd pay-pasca: the payment of the inquiry made under the same ref_id */
export async function h2hPayBill(
  engine: OrderEngine,
  caller: Caller,
  p: { code: string; customerNo: string; refId: string },
): Promise<OrderAnswer> {
  const stored = await findH2h(engine.db, caller.userId, p.refId);
  if (stored?.row.kind !== "bill") {
    return {
      ok: false,
      refusal: { code: "INQUIRY_NOT_FOUND", message: "no inquiry with this ref_id" },
    };
  }
  if (
    stored.row.productCode !== p.code.trim() ||
    !sameCustomer(stored.row.customerNo, p.customerNo)
  ) {
    return {
      ok: false,
      refusal: {
        code: "INQUIRY_MISMATCH",
        message: "code or customer_no differs from the inquiry",
      },
    };
  }
  if (stored.order) return { ok: true, order: stored.order, row: stored.row };
  if (!bound(stored.row)) {
    return {
      ok: false,
      refusal: { code: "INQUIRY_NOT_FOUND", message: "no inquiry with this ref_id" },
    };
  }
  const answer = await confirm(engine, caller, stored.row);
  if (answer.ok) return answer;
  // a repeat that waited while another request stored this payment is refused as "being
  // paid" by the bill's own rule (one bill, one payment): that payment is this ref_id's,
  // and it is the answer, pending or final
  const paid = await findH2h(engine.db, caller.userId, p.refId);
  return paid?.order ? { ok: true, order: paid.order, row: paid.row } : answer;
}

function sameCustomer(stored: string, given: string): boolean {
  return stored === given.trim() || stored === given.replace(/\D/g, "");
}
