import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { builtOncePerShape } from "../../db/built-once.ts";
import type { Executor } from "../../db/client.ts";
import { h2hOrders, inquiries, products, quotes, type UplineMargin } from "../../db/schema.ts";
import { newRefId } from "../../supplier/ref-id.ts";
import { type BillDetails, SupplierError } from "../../supplier/types.ts";
import { closureOf } from "../catalogue/availability.ts";
import { buyerPrice, type PricingContext } from "../catalogue/prices.ts";
import type { Tier } from "../catalogue/pricing.ts";
import { type BuyerProduct, type productByCode, productForBuyer } from "../catalogue/queries.ts";
import { userAccountKey, walletBalance, walletBalanceOfKey } from "../wallet/ledger.ts";
import { alreadyPaid, billKeyOf, billPayment } from "./bills.ts";
import { normaliseDestination } from "./destination.ts";
import type { OrderEngine } from "./engine.ts";
import { payReadColumns, type QuoteForPay } from "./pay-read.ts";
import { sameDayPurchases } from "./repeat.ts";
import type { OrderKind, Quote, QuoteRefusal, QuoteResult, StoredQuoteRefusal } from "./types.ts";

/** how long a price on a confirmation card holds */
const QUOTE_TTL_MS = 10 * 60_000;
/** the supplier's inquiry session (5 minutes, as the supplier documents) */
const INQUIRY_TTL_MS = 5 * 60_000;

/** short and unguessable: it travels in callback_data (≤ 64 bytes) */
function newQuoteId(): string {
  return randomBytes(9).toString("base64url");
}

/** testing mode is an admin's tool: only SUPPLIER_TESTING or an admin's /test make test quotes */
function testingAllowed(deps: OrderEngine, q: { userId: number; testing?: boolean }): boolean {
  return deps.testing || (q.testing === true && (deps.adminIds ?? []).includes(q.userId));
}

/** prices a prepaid or game product for a destination, for the confirmation card. */
export async function createQuote(
  deps: OrderEngine,
  q: {
    userId: number;
    chatId: number;
    productCode: string;
    destination: string;
    testing?: boolean;
    /**
     * the same-day repeat rule (repeat.ts): by default the card is the question (it shows
     * today's purchases, and its Pay allows that many before it); `nth`: the buyer typed
     * which of the day this is (CODE.n.DEST); false: H2H, where each ref_id is its own order
     */
    repeat?: { nth?: number | undefined } | false;
    /**
     * an H2H request's claim on its ref_id (commerce/h2h/orders.ts), bound to this quote by
     * the quote's own statement while the request still holds it (its id and claimedAt) and
     * the quote is of its kind; the answer has `forPay` (the quote as the Pay reads it) when it was
     */
    claim?: QuoteClaim;
    /**
     * the product already read for this buyer and code a moment before, by a statement of
     * the caller's (the H2H ref_id's claim reads it with productOnSaleJson): not read again
     */
    priced?: BuyerProduct | undefined;
  },
): Promise<QuoteResult & { forPay?: QuoteForPay | undefined }> {
  const now = deps.clock.now();
  // the product with the buyer's tier, their upline chain and each upline's part of the
  // price: one statement
  const { item, chained } = q.priced ?? (await productForBuyer(deps.db, q.productCode, q.userId));
  if (!item || !chained || item.type === "pasca")
    return { ok: false, reason: "product_unavailable" };
  const closed = closureOf(item, now);
  if (closed) return { ok: false, reason: "product_closed", until: closed.until };
  const destination = normaliseDestination(item, q.destination);
  if (!destination) return { ok: false, reason: "invalid_destination" };

  const testing = testingAllowed(deps, q);
  const kind: OrderKind = item.type === "game" ? "game" : "prepaid";
  const id = newQuoteId();
  const expiresAt = new Date(now + QUOTE_TTL_MS);
  const guarded = !testing && q.repeat !== false;
  const sameDay = guarded
    ? await sameDayPurchases(deps.db, {
        userId: q.userId,
        productCode: item.code,
        destination,
        now,
      })
    : undefined;
  const nth = q.repeat === false ? undefined : q.repeat?.nth;
  const claim = q.claim?.kind === kind ? q.claim : undefined;
  const row = {
    id,
    userId: q.userId,
    chatId: q.chatId,
    kind,
    productCode: item.code,
    destination,
    price: item.price,
    cost: item.supplierPrice,
    margins: testing ? [] : chained.margins,
    testing,
    expiresAt,
    sameDayAllowed: guarded ? (nth === undefined ? (sameDay?.count ?? 0) : nth - 1) : null,
  };
  const [stored] = await quoteInsert(deps.db, claim !== undefined, {
    ...row,
    accountKey: userAccountKey(q.userId),
    claimId: claim?.id ?? null,
    claimedAt: claim?.claimedAt ?? null,
    claimProductCode: claim?.productCode ?? null,
  });
  if (!stored) throw new Error(`quote ${id} was not stored`);
  const { balance } = stored;
  // the bound quote is paid a moment later: it is handed the row as stored, with its product
  // and routes as this statement read them, instead of reading them again
  const forPay: QuoteForPay | undefined =
    stored.bound && "product" in stored
      ? {
          quote: { ...row, inquiryId: null, cancelledAt: null, createdAt: stored.createdAt },
          already: null,
          product: stored.product,
          minMargin: stored.minMargin,
          routes: stored.routes,
        }
      : undefined;
  return {
    ok: true,
    ...(forPay ? { forPay } : {}),
    quote: {
      id,
      kind,
      productCode: item.code,
      productName: item.name,
      destination,
      price: item.price,
      testing,
      expiresAt,
      balance,
      balanceAfter: testing ? balance : balance - item.price,
      sameDay,
    },
  };
}

/** an H2H claim a quote binds (createQuote's `claim`) */
export interface QuoteClaim {
  id: number;
  claimedAt: Date;
  /** the quote's kind the request asked for: a quote of another kind binds nothing */
  kind: OrderKind;
  /** the code as the request named it, kept on the ref_id's row */
  productCode: string;
}

/**
 * the quote stored and the buyer's balance read, in one statement built once
 * (db/built-once.ts); with `bind`, an H2H claim bound to it in the same statement
 */
const quoteInsert = builtOncePerShape(String, (db, bind: boolean) => {
  const inserted = db.$with("inserted").as(
    db
      .insert(quotes)
      .values({
        id: sql.placeholder("id"),
        userId: sql.placeholder("userId"),
        chatId: sql.placeholder("chatId"),
        kind: sql.placeholder("kind"),
        productCode: sql.placeholder("productCode"),
        destination: sql.placeholder("destination"),
        price: sql.placeholder("price"),
        cost: sql.placeholder("cost"),
        margins: sql.placeholder("margins"),
        testing: sql.placeholder("testing"),
        expiresAt: sql.placeholder("expiresAt"),
        sameDayAllowed: sql.placeholder("sameDayAllowed"),
      })
      .returning({ id: quotes.id, productCode: quotes.productCode, createdAt: quotes.createdAt }),
  );
  const balance = walletBalanceOfKey(sql`${sql.placeholder("accountKey")}`);
  if (!bind) {
    return db.with(inserted).select({ balance, bound: sql<boolean>`false` }).from(inserted);
  }
  // only while the request still holds its claim (not taken over: commerce/h2h/orders.ts)
  const claimed = db.$with("bound").as(
    db
      .update(h2hOrders)
      .set({
        quoteId: sql`(select ${inserted.id} from ${inserted})`,
        productCode: sql`${sql.placeholder("claimProductCode")}`,
        customerNo: sql`${sql.placeholder("destination")}`,
        finalQueuedAt: null,
      })
      .where(
        and(
          eq(h2hOrders.id, sql.placeholder("claimId")),
          isNull(h2hOrders.quoteId),
          eq(h2hOrders.claimedAt, sql.param(sql.placeholder("claimedAt"), h2hOrders.claimedAt)),
        ),
      )
      .returning({ id: h2hOrders.id }),
  );
  // what the Pay reads of the quote (forPay), read by this statement
  return db
    .with(inserted, claimed)
    .select({
      balance,
      bound: sql<boolean>`exists (select 1 from ${claimed})`,
      createdAt: inserted.createdAt,
      ...payReadColumns,
    })
    .from(inserted)
    .leftJoin(products, eq(products.code, inserted.productCode));
});

/**
 * asks the supplier for a bill (inquiry) and prices it: the bill as it is, plus the admin
 * fee with the shop's markup. The quote lasts exactly as long as the inquiry session.
 */
export async function createBillQuote(
  deps: OrderEngine,
  q: { userId: number; chatId: number; productCode: string; customerNo: string; testing?: boolean },
): Promise<QuoteResult> {
  const now = deps.clock.now();
  // the product with the buyer's tier and upline chain in one statement, as for a prepaid
  // quote
  const { item, pricing, tier } = await productForBuyer(deps.db, q.productCode, q.userId);
  if (item?.type !== "pasca") return { ok: false, reason: "product_unavailable" };
  const closed = closureOf(item, now);
  if (closed) return { ok: false, reason: "product_closed", until: closed.until };
  const customerNo = normaliseDestination(item, q.customerNo);
  if (!customerNo) return { ok: false, reason: "invalid_destination" };

  const asked = await inquire(deps, { code: item.code, customerNo, now });
  if (!asked.ok) return asked;
  const { inquiry } = asked;
  const priced = billPrice(pricing, item, inquiry, tier);
  if (!priced) return { ok: false, reason: "not_for_sale" };
  const testing = testingAllowed(deps, q);
  // one bill, one payment (design rule 9): a bill being paid, or paid, is not offered again
  const paying = await billPayment(
    deps.db,
    billKeyOf({
      productCode: item.code,
      customerNo,
      details: inquiry.desc,
      inquiredAt: new Date(now),
    }),
  );
  if (paying && !testing) return alreadyPaid(paying, q.userId);
  // never trust a window longer than the five minutes of docs/supplier.md#replies
  const expiresAt = new Date(Math.min(inquiry.expiresAt.getTime(), now + INQUIRY_TTL_MS));
  const stored = await storeBillQuote(deps, {
    ...q,
    productCode: item.code,
    customerNo,
    inquiry,
    refId: inquiry.refId || asked.refId,
    price: priced.price,
    margins: testing ? [] : priced.margins,
    testing,
    expiresAt,
    now,
  });
  const balance = await walletBalance(deps.db, q.userId);
  return {
    ok: true,
    quote: {
      id: stored.quoteId,
      kind: "bill",
      productCode: item.code,
      productName: item.name,
      destination: customerNo,
      price: priced.price,
      testing,
      expiresAt,
      balance,
      balanceAfter: testing ? balance : balance - priced.price,
      bill: {
        inquiryId: stored.inquiryId,
        refId: inquiry.refId || asked.refId,
        customerName: inquiry.customerName,
        tagihan: inquiry.tagihan,
        admin: priced.admin,
        details: inquiry.desc,
      },
    },
  };
}

type Inquiry = Awaited<ReturnType<OrderEngine["supplier"]["inquiry"]>>;

/** the supplier's inquiry under a new ref_id, or why there is no bill to pay */
async function inquire(
  deps: OrderEngine,
  i: { code: string; customerNo: string; now: number },
): Promise<{ ok: true; inquiry: Inquiry; refId: string } | QuoteRefusal> {
  const refId = newRefId(i.now);
  try {
    const inquiry = await deps.supplier.inquiry({ code: i.code, customerNo: i.customerNo, refId });
    return { ok: true, inquiry, refId };
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    if (err.code === "INQUIRY_FAILED")
      return { ok: false, reason: "no_bill", message: err.message };
    if (err.code === "INVALID_CUSTOMER_NO") return { ok: false, reason: "invalid_destination" };
    deps.logger.warn({ code: err.code, refId }, "bill inquiry failed");
    return { ok: false, reason: "supplier_error", message: err.message };
  }
}

/**
 * the buyer pays the supplier's own total (which may hold penalties or fees beyond
 * tagihan + admin) plus the shop's markup on the admin fee: never less than the total.
 * undefined: the markup rules don't sell it.
 */
function billPrice(
  pricing: PricingContext,
  item: NonNullable<Awaited<ReturnType<typeof productByCode>>>,
  inquiry: Inquiry,
  tier: Tier,
): { price: number; admin: number; margins: UplineMargin[] } | undefined {
  // the uplines' markups go on the admin fee too, as the shop's does
  const markedUpAdmin = buyerPrice(pricing, { ...item, supplierPrice: inquiry.admin }, tier);
  if (markedUpAdmin === null) return undefined;
  const markup = markedUpAdmin.price - inquiry.admin;
  const price = Math.max(inquiry.total, inquiry.tagihan + inquiry.admin) + markup;
  return { price, admin: price - inquiry.tagihan, margins: markedUpAdmin.margins };
}

/** the inquiry and its quote, stored together */
async function storeBillQuote(
  deps: OrderEngine,
  b: {
    userId: number;
    chatId: number;
    productCode: string;
    customerNo: string;
    inquiry: Inquiry;
    refId: string;
    price: number;
    margins: UplineMargin[];
    testing: boolean;
    expiresAt: Date;
    now: number;
  },
): Promise<{ quoteId: string; inquiryId: number }> {
  const quoteId = newQuoteId();
  const inquiryId = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(inquiries)
      .values({
        refId: b.refId,
        userId: b.userId,
        productCode: b.productCode,
        customerNo: b.customerNo,
        customerName: b.inquiry.customerName,
        tagihan: b.inquiry.tagihan,
        admin: b.inquiry.admin,
        total: b.inquiry.total,
        createdAt: new Date(b.now),
        details: b.inquiry.desc ?? null,
        expiresAt: b.expiresAt,
      })
      .returning({ id: inquiries.id });
    await tx.insert(quotes).values({
      id: quoteId,
      userId: b.userId,
      chatId: b.chatId,
      kind: "bill",
      productCode: b.productCode,
      destination: b.customerNo,
      price: b.price,
      cost: b.inquiry.total,
      margins: b.margins,
      testing: b.testing,
      inquiryId: row!.id,
      expiresAt: b.expiresAt,
    });
    return row!.id;
  });
  return { quoteId, inquiryId };
}

export interface QuoteSummary {
  id: string;
  kind: "prepaid" | "game" | "bill";
  productCode: string;
  productName: string;
  destination: string;
  price: number;
  expiresAt: Date;
  /** an admin's test quote: its fresh quote must be a test too */
  testing: boolean;
  /** the buyer cancelled the card */
  cancelledAt: Date | null;
}

/** one of this user's quotes (another user's is simply not found) */
export async function findUserQuote(
  db: Executor,
  quoteId: string,
  userId: number,
): Promise<QuoteSummary | undefined> {
  const [row] = await db
    .select({
      id: quotes.id,
      kind: quotes.kind,
      productCode: quotes.productCode,
      productName: products.name,
      destination: quotes.destination,
      price: quotes.price,
      expiresAt: quotes.expiresAt,
      testing: quotes.testing,
      cancelledAt: quotes.cancelledAt,
    })
    .from(quotes)
    .innerJoin(products, eq(products.code, quotes.productCode))
    .where(and(eq(quotes.id, quoteId), eq(quotes.userId, userId)));
  return row;
}

/** a quote as stored, with the buyer's wallet as it is now: what its card shows */
export async function loadQuote(db: Executor, quoteId: string): Promise<Quote | undefined> {
  const [row] = await db
    .select({ quote: quotes, productName: products.name, inquiry: inquiries })
    .from(quotes)
    .innerJoin(products, eq(products.code, quotes.productCode))
    .leftJoin(inquiries, eq(inquiries.id, quotes.inquiryId))
    .where(eq(quotes.id, quoteId));
  if (!row) return undefined;
  const { quote, inquiry } = row;
  const balance = await walletBalance(db, quote.userId);
  // a card that allows today's earlier purchases asks about them, wherever it is drawn
  const sameDay = quote.sameDayAllowed
    ? await sameDayPurchases(db, { ...quote, now: quote.createdAt.getTime() })
    : undefined;
  return {
    id: quote.id,
    kind: quote.kind,
    productCode: quote.productCode,
    productName: row.productName,
    destination: quote.destination,
    price: quote.price,
    testing: quote.testing,
    expiresAt: quote.expiresAt,
    balance,
    balanceAfter: quote.testing ? balance : balance - quote.price,
    bill: inquiry
      ? {
          inquiryId: inquiry.id,
          refId: inquiry.refId,
          customerName: inquiry.customerName,
          tagihan: inquiry.tagihan,
          admin: quote.price - inquiry.tagihan,
          details: (inquiry.details as BillDetails | null) ?? undefined,
        }
      : undefined,
    sameDay,
  };
}

export function storedRefusal(r: QuoteRefusal): StoredQuoteRefusal {
  return r.reason === "bill_already_paid" ? { ...r, at: r.at.getTime() } : r;
}

export function revivedRefusal(r: StoredQuoteRefusal): QuoteRefusal {
  return r.reason === "bill_already_paid" ? { ...r, at: new Date(r.at) } : r;
}

/**
 * a fresh quote for the same product and destination as one that can no longer be paid
 * (its price moved, it ran out): a bill is inquired afresh. An admin's test stays a test.
 */
export async function requote(
  deps: OrderEngine,
  old: {
    userId: number;
    chatId: number;
    productCode: string;
    destination: string;
    kind: OrderKind;
    testing: boolean;
  },
): Promise<QuoteResult> {
  return old.kind === "bill"
    ? createBillQuote(deps, {
        userId: old.userId,
        chatId: old.chatId,
        productCode: old.productCode,
        customerNo: old.destination,
        testing: old.testing,
      })
    : createQuote(deps, {
        userId: old.userId,
        chatId: old.chatId,
        productCode: old.productCode,
        destination: old.destination,
        testing: old.testing,
      });
}
