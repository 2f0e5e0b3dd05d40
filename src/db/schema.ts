import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { SentRequest } from "../supplier/types.ts";

// one schema for both drivers; drizzle-kit generates drizzle/ from this file.
// money is integer rupiah in bigint columns, read as JS numbers (exact below 2^53).

const money = (name: string) => bigint(name, { mode: "number" });
const tstz = (name: string) => timestamp(name, { withTimezone: true });
const createdAt = () => tstz("created_at").notNull().defaultNow();

// ---------------------------------------------------------------- people

export const users = pgTable(
  "users",
  {
    // telegram user ids exceed 2^31, so bigint; kept as a JS number (they stay below 2^53)
    telegramId: bigint("telegram_id", { mode: "number" }).primaryKey(),
    firstName: text("first_name").notNull().default(""),
    username: text("username"),
    language: text("language").notNull().default("id"),
    /** the price tier */
    tier: text("tier", { enum: ["customer", "reseller"] })
      .notNull()
      .default("customer"),
    /** the user blocked the bot: broadcasts skip them */
    blockedAt: tstz("blocked_at"),
    /** the upline: the reseller this user joined under (docs/resellers.md) */
    parentId: bigint("parent_id", { mode: "number" }),
    /** when the user joined their upline (by link, or moved by an admin) */
    joinedAt: tstz("joined_at"),
    /** what follows r_ in the user's referral link; made when first asked for */
    referralCode: text("referral_code").unique(),
    /** scrypt of the wallet PIN as "salt:hash" (hex); null: no PIN */
    pinHash: text("pin_hash"),
    /** wrong PINs in a row since the last right one */
    pinFailures: integer("pin_failures").notNull().default(0),
    /** five wrong PINs lock the wallet's guarded actions until then */
    pinLockedUntil: tstz("pin_locked_until"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("users_tier_known", sql`${t.tier} in ('customer', 'reseller')`),
    check("users_language_known", sql`${t.language} in ('id', 'en')`),
    check("users_parent_not_self", sql`${t.parentId} is null or ${t.parentId} <> ${t.telegramId}`),
    index("users_parent").on(t.parentId),
  ],
);

/**
 * an open PIN keypad (commerce/wallet/pin-pads.ts): bound to one user and one purpose (the
 * guarded action's callback data), gone once answered or past expires_at. Its keys carry
 * positions on a layout derived under the server's key, and what was typed is sealed, so
 * nothing here (nor in the stored updates) reveals a digit.
 */
export const pinPads = pgTable(
  "pin_pads",
  {
    id: text("id").primaryKey(),
    userId: bigint("user_id", { mode: "number" }).notNull(),
    /** the action the PIN unlocks, as its button's callback data ("pay:<quoteId>") */
    purpose: text("purpose").notNull(),
    /** what the action needs beyond its callback data (a callback URL); never a secret */
    detail: text("detail"),
    /** the typed keys and the step, sealed (secrets/box.ts) */
    entry: text("entry").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("pin_pads_user").on(t.userId)],
);

/**
 * a reseller's markup over their own price, paid by their downlines: the shop's markup
 * rules (docs/catalogue.md#selling-prices) with one reseller instead of a tier
 */
export const resellerMarkups = pgTable(
  "reseller_markups",
  {
    id: serial("id").primaryKey(),
    resellerId: bigint("reseller_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    scope: text("scope", { enum: ["all", "type", "category", "brand", "product"] }).notNull(),
    scopeValue: text("scope_value").notNull().default(""),
    percentBp: integer("percent_bp").notNull().default(0),
    flat: money("flat").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("reseller_markups_scope").on(t.resellerId, t.scope, t.scopeValue),
    check("reseller_markups_not_negative", sql`${t.percentBp} >= 0 and ${t.flat} >= 0`),
    check(
      "reseller_markups_scope_known",
      sql`${t.scope} in ('all', 'type', 'category', 'brand', 'product')`,
    ),
  ],
);

/** shop-wide settings the admins change at run time (rounding step, deposit text, …) */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});

// ---------------------------------------------------------------- catalogue

export const products = pgTable(
  "products",
  {
    code: text("code").primaryKey(),
    name: text("name").notNull(),
    category: text("category").notNull(),
    brand: text("brand").notNull(),
    type: text("type", { enum: ["prepaid", "game", "pasca"] }).notNull(),
    /** lowercase operator key for mobile products (telkomsel, indosat, xl, …), else null */
    operator: text("operator"),
    supplierPrice: money("supplier_price").notNull(),
    /** as the supplier last reported it */
    active: boolean("active").notNull(),
    /** false once a sync no longer sees the product */
    listed: boolean("listed").notNull().default(true),
    description: text("description").notNull().default(""),
    startCutOff: text("start_cut_off"),
    endCutOff: text("end_cut_off"),
    /**
     * what kios sells it by when another supplier has a route for it
     * (commerce/catalogue/sale.ts): the cost of the route tried first, and whether any route
     * can sell it. Null while it has no route but the first supplier's: then `supplier_price`
     * and `active` say it. Kept by refreshRouteSale() after each sync, link and route change
     */
    routeCost: money("route_cost"),
    routable: boolean("routable"),
    /** closed by kios until then: the supplier refused it as inactive, or it kept failing */
    pausedUntil: tstz("paused_until"),
    pauseReason: text("pause_reason"),
    /**
     * null: the first supplier's product, this row its route. Else the other supplier whose
     * product, matching no kios product, became this one (docs/suppliers.md#linking): its
     * routes are all rows of product_routes, and the price and status here mirror that
     * supplier's route, kept by the linking
     */
    originSupplier: text("origin_supplier"),
    firstSeenAt: tstz("first_seen_at").notNull().defaultNow(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
    syncedAt: tstz("synced_at").notNull().defaultNow(),
    /**
     * what the catalogue search matches (commerce/catalogue/search.ts): code, brand,
     * category, name and operator, lowercase, the thousands dots of numbers dropped
     * ("Telkomsel 10.000" → "… telkomsel 10000"). Kept by PostgreSQL itself; its trigram
     * index is made by the migration where pg_trgm exists (see search.ts)
     */
    searchText: text("search_text")
      .notNull()
      .generatedAlwaysAs(
        // String.raw: a tagged template would drop the backslashes of the regular expression
        () =>
          sql.raw(
            String.raw`lower(regexp_replace(code || ' ' || brand || ' ' || category || ' ' || name || ' ' || coalesce(operator, ''), '(\d)\.(?=\d{3})', '\1', 'g'))`,
          ),
      ),
  },
  (t) => [
    check("products_type_known", sql`${t.type} in ('prepaid', 'game', 'pasca')`),
    check("products_price_positive", sql`${t.supplierPrice} >= 0`),
    index("products_type_brand").on(t.type, t.brand),
    index("products_operator_category").on(t.operator, t.category),
    index("products_category_brand").on(t.category, t.brand),
    index("products_name_lower").on(sql`lower(${t.name})`),
  ],
);

export const priceChanges = pgTable(
  "price_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productCode: text("product_code")
      .notNull()
      .references(() => products.code),
    oldPrice: money("old_price").notNull(),
    newPrice: money("new_price").notNull(),
    changedAt: tstz("changed_at").notNull().defaultNow(),
  },
  (t) => [index("price_changes_product").on(t.productCode, t.changedAt)],
);

export const markupRules = pgTable(
  "markup_rules",
  {
    id: serial("id").primaryKey(),
    scope: text("scope", { enum: ["all", "type", "category", "brand", "product"] }).notNull(),
    /** "" for scope all; else the type, category, brand or product code */
    scopeValue: text("scope_value").notNull().default(""),
    tier: text("tier", { enum: ["customer", "reseller"] }).notNull(),
    /** percentage in basis points: 250 = 2.5 % */
    percentBp: integer("percent_bp").notNull().default(0),
    flat: money("flat").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("markup_rules_scope_tier").on(t.scope, t.scopeValue, t.tier),
    check(
      "markup_rules_scope_known",
      sql`${t.scope} in ('all', 'type', 'category', 'brand', 'product')`,
    ),
    check("markup_rules_tier_known", sql`${t.tier} in ('customer', 'reseller')`),
  ],
);

// ---------------------------------------------------------------- ledger

/**
 * double-entry accounts. A user's wallet and the shop's holds account must never go
 * negative: the CHECK makes a bug fail loudly instead of minting money.
 */
export const accounts = pgTable(
  "accounts",
  {
    id: serial("id").primaryKey(),
    /** "user:<telegram id>", "shop:holds", "shop:revenue", "shop:supplier_cost", … */
    key: text("key").notNull().unique(),
    kind: text("kind", { enum: ["user", "shop"] }).notNull(),
    userId: bigint("user_id", { mode: "number" }).references(() => users.telegramId),
    balance: money("balance").notNull().default(0),
    allowNegative: boolean("allow_negative").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check("accounts_not_negative", sql`${t.allowNegative} or ${t.balance} >= 0`),
    check("accounts_kind_known", sql`${t.kind} in ('user', 'shop')`),
  ],
);

/** a balanced set of entries, applied once per business key (e.g. order:42:capture) */
export const transfers = pgTable(
  "transfers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    key: text("key").notNull().unique(),
    kind: text("kind", {
      enum: [
        "deposit",
        "debit",
        "credit",
        "hold",
        "capture",
        "release",
        "supplier_topup",
        "margin",
        "wallet_transfer",
      ],
    }).notNull(),
    memo: text("memo").notNull().default(""),
    /** the admin who made a manual transfer */
    actorId: bigint("actor_id", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "transfers_kind_known",
      sql`${t.kind} in ('deposit', 'debit', 'credit', 'hold', 'capture', 'release', 'supplier_topup', 'margin', 'wallet_transfer')`,
    ),
  ],
);

/** append-only (a trigger refuses UPDATE and DELETE); a transfer's amounts sum to zero */
export const entries = pgTable(
  "entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    transferId: bigint("transfer_id", { mode: "number" })
      .notNull()
      .references(() => transfers.id),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    /** signed: positive credits the account, negative debits it */
    amount: money("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("entries_account").on(t.accountId, t.id),
    index("entries_transfer").on(t.transferId),
    check("entries_amount_nonzero", sql`${t.amount} <> 0`),
  ],
);

/** a balance transfer between wallets (/transfer): asked, then confirmed or cancelled once */
export const walletTransfers = pgTable(
  "wallet_transfers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    fromUserId: bigint("from_user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    toUserId: bigint("to_user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    amount: money("amount").notNull(),
    status: text("status", { enum: ["asked", "done", "cancelled"] })
      .notNull()
      .default("asked"),
    createdAt: createdAt(),
    decidedAt: tstz("decided_at"),
  },
  (t) => [
    index("wallet_transfers_from").on(t.fromUserId, t.createdAt),
    check("wallet_transfers_amount_positive", sql`${t.amount} > 0`),
    check("wallet_transfers_status_known", sql`${t.status} in ('asked', 'done', 'cancelled')`),
  ],
);

export const depositRequests = pgTable(
  "deposit_requests",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    /** what the user asked for */
    amount: money("amount").notNull(),
    /** what the user is told to pay: amount plus a small unique code, to match the payment */
    payAmount: money("pay_amount").notNull(),
    reference: text("reference").notNull().unique(),
    status: text("status", { enum: ["requested", "confirmed", "rejected", "expired"] })
      .notNull()
      .default("requested"),
    expiresAt: tstz("expires_at").notNull(),
    decidedAt: tstz("decided_at"),
    decidedBy: bigint("decided_by", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "deposit_requests_status_known",
      sql`${t.status} in ('requested', 'confirmed', 'rejected', 'expired')`,
    ),
    check("deposit_requests_amount_positive", sql`${t.amount} > 0`),
    index("deposit_requests_user").on(t.userId, t.createdAt),
    // one open request per exact amount to pay, so a bank transfer matches one request
    uniqueIndex("deposit_requests_open_pay_amount")
      .on(t.payAmount)
      .where(sql`${t.status} = 'requested'`),
  ],
);

/** a reseller's receipts: their own shop name and selling price on them, and sent by themselves */
export const receiptSettings = pgTable(
  "receipt_settings",
  {
    userId: bigint("user_id", { mode: "number" })
      .primaryKey()
      .references(() => users.telegramId),
    /** the name printed at the top; null: the shop's */
    shopName: text("shop_name"),
    /** added to kios's price on the receipt: the reseller's own selling price */
    markup: money("markup").notNull().default(0),
    /** every successful order's receipt comes by itself */
    auto: boolean("auto").notNull().default(false),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check("receipt_settings_markup_range", sql`${t.markup} >= 0 and ${t.markup} <= 10000000`),
  ],
);

/**
 * a deposit paid through a payment gateway (QRIS). The row is committed before the gateway
 * is asked; the wallet is credited once, by a transfer keyed by the gateway order id, only
 * after the gateway's own status API says "paid" for exactly this amount.
 */
export const payments = pgTable(
  "payments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    gateway: text("gateway").notNull(),
    /** the order id kios gives the gateway: unique across gateways and never reused */
    gatewayOrderId: text("gateway_order_id").notNull().unique(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    chatId: bigint("chat_id", { mode: "number" }).notNull(),
    /** the chat message that shows the QR, edited as the payment moves */
    messageId: integer("message_id"),
    /** purpose buy: the confirmation card the purchase was asked on, which shows the order */
    cardMessageId: integer("card_message_id"),
    /** a top-up, or a top-up that buys a quote once paid ("deposit and buy") */
    purpose: text("purpose", { enum: ["deposit", "buy"] }).notNull(),
    quoteId: text("quote_id"),
    /**
     * purpose buy: this top-up is the card's one QR (a second tap says so). Let go when its
     * charge fails or its QR ends unpaid, so the card can ask for another
     */
    holdsCard: boolean("holds_card").notNull().default(false),
    amount: money("amount").notNull(),
    status: text("status", {
      enum: ["created", "pending", "paid", "expired", "cancelled", "denied", "failed", "mismatch"],
    })
      .notNull()
      .default("created"),
    /** what the gateway said was paid, when it differs from amount (status mismatch) */
    paidAmount: money("paid_amount"),
    gatewayTransactionId: text("gateway_transaction_id"),
    qrString: text("qr_string"),
    expiresAt: tstz("expires_at").notNull(),
    /** when the resolver asks the gateway next (null once final) */
    nextCheckAt: tstz("next_check_at"),
    /**
     * the charge call is under way until then (null once it answered): the payment is not the
     * resolver's before, so a QR on its way to the buyer is not cancelled
     */
    chargingUntil: tstz("charging_until"),
    checks: integer("checks").notNull().default(0),
    /** for purpose buy: what became of the purchase once paid */
    purchase: text("purchase", { enum: ["placed", "fresh_card", "cancelled"] }),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
    settledAt: tstz("settled_at"),
  },
  (t) => [
    check(
      "payments_status_known",
      sql`${t.status} in ('created', 'pending', 'paid', 'expired', 'cancelled', 'denied', 'failed', 'mismatch')`,
    ),
    check("payments_amount_positive", sql`${t.amount} > 0`),
    check("payments_purpose_known", sql`${t.purpose} in ('deposit', 'buy')`),
    index("payments_user").on(t.userId, t.createdAt),
    index("payments_open").on(t.nextCheckAt).where(sql`${t.status} in ('created', 'pending')`),
    // one "deposit and buy" per card at a time
    uniqueIndex("payments_card").on(t.quoteId).where(sql`${t.holdsCard}`),
  ],
);

/**
 * gateway reports (Midtrans calls them HTTP notifications) as received and verified: stored
 * once, then confirmed by the gateway's status. The table keeps its first name.
 */
export const gatewayReports = pgTable(
  "payment_notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    gateway: text("gateway").notNull(),
    /** sha-256 of the raw body: a repeated delivery is the same row */
    bodyHash: text("body_hash").notNull().unique(),
    gatewayOrderId: text("gateway_order_id").notNull(),
    rawBody: text("raw_body").notNull(),
    receivedAt: tstz("received_at").notNull().defaultNow(),
    processedAt: tstz("processed_at"),
    outcome: text("outcome"),
  },
  (t) => [index("payment_notifications_order").on(t.gatewayOrderId)],
);

// ---------------------------------------------------------------- orders

/** what one upline earns on a downline's order: their markup over their own price */
export interface UplineMargin {
  userId: number;
  amount: number;
}

/** what a bill payment's order keeps of its inquiry for showing it */
export interface OrderBill {
  customerName: string;
  /** the periods as the supplier wrote them ("202611"), oldest first; shown in words */
  periods: string[];
}

/** a price shown on a confirmation card; confirming it creates at most one order */
export const quotes = pgTable(
  "quotes",
  {
    /** short random id, carried in callback_data */
    id: text("id").primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    chatId: bigint("chat_id", { mode: "number" }).notNull(),
    kind: text("kind", { enum: ["prepaid", "game", "bill"] }).notNull(),
    productCode: text("product_code")
      .notNull()
      .references(() => products.code),
    destination: text("destination").notNull(),
    price: money("price").notNull(),
    cost: money("cost").notNull(),
    testing: boolean("testing").notNull().default(false),
    inquiryId: bigint("inquiry_id", { mode: "number" }),
    expiresAt: tstz("expires_at").notNull(),
    /** the buyer pressed Cancel: the card is void and Pay buys nothing */
    cancelledAt: tstz("cancelled_at"),
    /** each upline's margin in this price, top of the tree first (docs/resellers.md) */
    margins: jsonb("margins").$type<UplineMargin[]>().notNull().default([]),
    /**
     * the same-day repeat rule (docs/orders.md#same-product-same-destination-same-day): how
     * many of the buyer's purchases of this product for this destination today the card
     * allows before its own (what it showed, or the n of CODE.n.DEST less one); Pay refuses
     * when more are stored. Null: the rule doesn't apply (a bill, a test, H2H's ref_id rule)
     */
    sameDayAllowed: integer("same_day_allowed"),
    createdAt: createdAt(),
  },
  (t) => [check("quotes_kind_known", sql`${t.kind} in ('prepaid', 'game', 'bill')`)],
);

/** a postpaid bill inquiry: the supplier's 5-minute session, bound to ref_id, code, number */
export const inquiries = pgTable(
  "inquiries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    refId: text("ref_id").notNull().unique(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    productCode: text("product_code")
      .notNull()
      .references(() => products.code),
    customerNo: text("customer_no").notNull(),
    customerName: text("customer_name").notNull().default(""),
    tagihan: money("tagihan").notNull(),
    admin: money("admin").notNull(),
    /** the supplier's total: tagihan + admin */
    total: money("total").notNull(),
    /** bill details (lembar_tagihan, periods, tariff, …) as normalised by the client */
    details: jsonb("details"),
    expiresAt: tstz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("inquiries_user").on(t.userId, t.createdAt)],
);

export const ORDER_STATUSES = [
  "created",
  "submitted",
  "pending",
  "unknown",
  "success",
  "failed",
] as const;

export const orders = pgTable(
  "orders",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    refId: text("ref_id").notNull().unique(),
    /** the confirmation that made it (a quote id): one confirmation, one order */
    confirmKey: text("confirm_key").notNull().unique(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    chatId: bigint("chat_id", { mode: "number" }).notNull(),
    /** the chat message that shows this order, edited in place as it moves */
    messageId: integer("message_id"),
    kind: text("kind", { enum: ["prepaid", "game", "bill"] }).notNull(),
    productCode: text("product_code")
      .notNull()
      .references(() => products.code),
    productName: text("product_name").notNull(),
    destination: text("destination").notNull(),
    /** what the buyer pays */
    price: money("price").notNull(),
    /** what the supplier was quoted to charge */
    cost: money("cost").notNull(),
    /** each upline's margin in the price, credited when the order succeeds */
    margins: jsonb("margins").$type<UplineMargin[]>().notNull().default([]),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("created"),
    testing: boolean("testing").notNull().default(false),
    inquiryId: bigint("inquiry_id", { mode: "number" }).references(() => inquiries.id),
    /**
     * bills only: "<product>:<customer no>:<period>". One open or paid payment per bill:
     * a second payer's insert meets the unique index below
     */
    billKey: text("bill_key"),
    /**
     * bills only: whose bill it is and the periods paid, as the inquiry said (copied at Pay,
     * so the order's card, history and receipts say them without the inquiry)
     */
    bill: jsonb("bill").$type<OrderBill>(),
    /**
     * the Unix time (seconds) the supplier request was signed with, stored before it is
     * sent: the supplier refuses it 5 minutes after that, which bounds "never arrived"
     */
    requestTimestamp: bigint("request_timestamp", { mode: "number" }),
    /**
     * the supplier of the attempt the order is on now (docs/suppliers.md): null for the
     * first supplier. `ref_id` is that attempt's; a re-route moves both (order_attempts keeps
     * every earlier one)
     */
    supplier: text("supplier"),
    /** the code the current attempt sends that supplier; null: product_code (the first's own) */
    routeCode: text("route_code"),
    sn: text("sn"),
    supplierCode: text("supplier_code"),
    supplierMessage: text("supplier_message"),
    failureReason: text("failure_reason"),
    /** what the supplier finally charged, when it says */
    supplierPrice: money("supplier_price"),
    checks: integer("checks").notNull().default(0),
    nextCheckAt: tstz("next_check_at"),
    /** set when an order needs an admin's eye (open too long, a contradiction, an overcharge) */
    flaggedAt: tstz("flagged_at"),
    /** an admin's decision on an order kios may not settle alone: refund or wait */
    decision: text("decision", { enum: ["refund", "wait"] }),
    decidedBy: bigint("decided_by", { mode: "number" }),
    decidedAt: tstz("decided_at"),
    /**
     * the order's settlement lock (commerce/orders/lock.ts): who holds it and until when (a
     * short lease, renewed while its holder works). On the order's own row, so taking it
     * reads the order in the same statement
     */
    lockHolder: text("lock_holder"),
    lockUntil: tstz("lock_until"),
    createdAt: createdAt(),
    submittedAt: tstz("submitted_at"),
    finalAt: tstz("final_at"),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check(
      "orders_status_known",
      sql`${t.status} in ('created', 'submitted', 'pending', 'unknown', 'success', 'failed')`,
    ),
    check("orders_kind_known", sql`${t.kind} in ('prepaid', 'game', 'bill')`),
    check("orders_price_not_below_cost", sql`${t.testing} or ${t.price} >= ${t.cost}`),
    index("orders_user_created").on(t.userId, t.createdAt),
    index("orders_open")
      .on(t.status, t.nextCheckAt)
      .where(sql`${t.status} not in ('success', 'failed')`),
    index("orders_final_at").on(t.finalAt),
    // the supplier balance guard sums what was sent since the last balance reading
    index("orders_submitted_at").on(t.submittedAt),
    uniqueIndex("orders_one_payment_per_bill")
      .on(t.billKey)
      .where(sql`${t.billKey} is not null and ${t.status} <> 'failed'`),
    check(
      "orders_decision_known",
      sql`${t.decision} is null or ${t.decision} in ('refund', 'wait')`,
    ),
  ],
);

/**
 * a kios product's routes: one supplier's code for it, with that supplier's price and
 * status (docs/suppliers.md#routes). The catalogue sync keeps them; admins order them
 * and switch them off. A product without rows has one route: its own code at the first
 * supplier.
 */
export const productRoutes = pgTable(
  "product_routes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productCode: text("product_code")
      .notNull()
      .references(() => products.code),
    supplier: text("supplier").notNull(),
    supplierCode: text("supplier_code").notNull(),
    /** the supplier's own name for it, as last synced */
    name: text("name").notNull(),
    /** what this supplier charges (rupiah), as last synced */
    cost: money("cost").notNull(),
    /** as the supplier last reported it */
    active: boolean("active").notNull(),
    /** false once a sync of its supplier no longer sees it */
    listed: boolean("listed").notNull().default(true),
    /** tried in this order, lowest first */
    position: integer("position").notNull(),
    /** an admin's switch */
    enabled: boolean("enabled").notNull().default(true),
    /**
     * this route is not tried until then: it kept failing at its supplier, or the supplier
     * refused it as inactive (catalogue/pauses.ts). The product's own paused_until closes it
     * at every supplier
     */
    pausedUntil: tstz("paused_until"),
    pauseReason: text("pause_reason"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("product_routes_supplier_code").on(t.supplier, t.supplierCode),
    uniqueIndex("product_routes_product_supplier").on(t.productCode, t.supplier),
    index("product_routes_product_position").on(t.productCode, t.position),
    check("product_routes_cost_positive", sql`${t.cost} >= 0`),
  ],
);

/**
 * a supplier's product the sync could not link by itself: no kios product matches, or
 * more than one does (never guessed); listed for an admin
 */
export const unlinkedSupplierProducts = pgTable(
  "unlinked_supplier_products",
  {
    supplier: text("supplier").notNull(),
    supplierCode: text("supplier_code").notNull(),
    name: text("name").notNull(),
    brand: text("brand").notNull(),
    category: text("category").notNull(),
    /** the kios products that matched equally (two or more); empty: none matched */
    candidates: jsonb("candidates").$type<string[]>().notNull(),
    /** what this supplier charges for it and whether it sells it, as last synced */
    cost: money("cost").notNull().default(0),
    active: boolean("active").notNull().default(false),
    seenAt: tstz("seen_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.supplier, t.supplierCode] })],
);

/**
 * one request of an order to one supplier (design rule 15): stored before it is sent, its
 * answer and times kept. At most one is open per order (the partial unique index): a
 * second attempt never starts while an earlier one could still succeed.
 */
export const orderAttempts = pgTable(
  "order_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: bigint("order_id", { mode: "number" })
      .notNull()
      .references(() => orders.id),
    /** 1, 2, …: the order's attempts in the order they were made */
    seq: integer("seq").notNull(),
    supplier: text("supplier").notNull(),
    supplierCode: text("supplier_code").notNull(),
    refId: text("ref_id").notNull(),
    /** what this route cost when it was chosen */
    cost: money("cost").notNull(),
    /**
     * open: it may still succeed; rejected: the supplier proved nothing was formed;
     * failed: a final failure; success
     */
    status: text("status", { enum: ["open", "rejected", "failed", "success"] })
      .notNull()
      .default("open"),
    /** the supplier's answer code and words, once it answered */
    answerCode: text("answer_code"),
    answerMessage: text("answer_message"),
    /**
     * a final failure's machine-readable reason, as the supplier's record gave it
     * (OUT_OF_STOCK, WRONG_OPERATOR, …; docs/supplier.md#failure-reasons); null: none given
     */
    reason: text("reason"),
    /** set when the next attempt was made because of this one: the proof it followed */
    reroutedFor: text("rerouted_for"),
    /**
     * what was sent, stored before the first send, for a supplier whose status check re-sends
     * the request (Digiflazz): every re-send is exactly this (src/commerce/orders/resend.ts)
     */
    sent: jsonb("sent").$type<SentRequest>(),
    /** when it was last sent (the first send or a status check's re-send) */
    sentAt: tstz("sent_at"),
    createdAt: createdAt(),
    answeredAt: tstz("answered_at"),
    finalAt: tstz("final_at"),
  },
  (t) => [
    uniqueIndex("order_attempts_supplier_ref").on(t.supplier, t.refId),
    uniqueIndex("order_attempts_order_seq").on(t.orderId, t.seq),
    uniqueIndex("order_attempts_one_open").on(t.orderId).where(sql`${t.status} = 'open'`),
    // reconciliation windows and the balance guard read a supplier's attempts settled since
    // a reading (open ones through the index above)
    index("order_attempts_supplier_final").on(t.supplier, t.finalAt),
    check(
      "order_attempts_status_known",
      sql`${t.status} in ('open', 'rejected', 'failed', 'success')`,
    ),
  ],
);

/**
 * money the owner put into the supplier account, recorded by an admin (/supplier_topup) or
 * confirmed from a balance check that found a rise nothing explained
 */
export const supplierTopups = pgTable(
  "supplier_topups",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** business key ("admin:<chat>:<message>", "check:<id>"): a repeated command records once */
    key: text("key").notNull().unique(),
    /**
     * the supplier account it went into, by name; null: the first supplier (SUPPLIER_NAME),
     * so rows from before several suppliers, and a renamed first, stay the first's
     */
    supplier: text("supplier"),
    amount: money("amount").notNull(),
    note: text("note").notNull().default(""),
    /** when the money reached the supplier: the balance check window it belongs to */
    effectiveAt: tstz("effective_at").notNull(),
    /** the admin who recorded it (null: the command line) */
    recordedBy: bigint("recorded_by", { mode: "number" }),
    /** the balance check whose unexplained rise this top-up explains */
    checkId: bigint("check_id", { mode: "number" }),
    createdAt: createdAt(),
    /**
     * set when an admin reversed a booking made in error (/supplier_topup_reverse): a second
     * ledger transfer undoes it, and reconciliation no longer counts it
     */
    reversedAt: tstz("reversed_at"),
    reversedBy: bigint("reversed_by", { mode: "number" }),
  },
  (t) => [
    check("supplier_topups_positive", sql`${t.amount} > 0`),
    index("supplier_topups_effective").on(t.supplier, t.effectiveAt),
    // a rise is explained by one top-up at a time; a reversed one frees it
    uniqueIndex("supplier_topups_check_once")
      .on(t.checkId)
      .where(sql`${t.checkId} is not null and ${t.reversedAt} is null`),
  ],
);

/**
 * every reading of the supplier balance, with what kios recorded in the window since the
 * one before: the reconciliation's figures, kept so a drift can be traced later
 */
export const supplierBalanceChecks = pgTable(
  "supplier_balance_checks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /**
     * whose balance it read, by name; null: the first supplier (as supplier_topups). Each
     * supplier's checks are a chain of their own: a check's window starts at its supplier's
     * check before it
     */
    supplier: text("supplier"),
    /** when the supplier's answer arrived: the end of this check's window */
    readAt: tstz("read_at").notNull(),
    /**
     * when the balance request was sent: the supplier read its balance somewhere between
     * this and readAt (null: checks stored before it was kept)
     */
    requestedAt: tstz("requested_at"),
    balance: money("balance").notNull(),
    /** orders sent by readAt and not final then: the supplier may have charged them */
    openCount: integer("open_count").notNull(),
    openCost: money("open_cost").notNull(),
    /**
     * the attempts counted open (those in openCost): the next check settles exactly these,
     * whatever time their final carries. A final's time is stamped before its transaction
     * commits, so one stamped before readAt may still have been open to this check
     */
    openAttemptIds: bigint("open_attempt_ids", { mode: "number" })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
    /** the check before: the start of the window (null: the first check, a baseline) */
    previousId: bigint("previous_id", { mode: "number" }),
    topups: money("topups").notNull().default(0),
    successCount: integer("success_count").notNull().default(0),
    successCost: money("success_cost").notNull().default(0),
    expectedChange: money("expected_change"),
    actualChange: money("actual_change"),
    drift: money("drift"),
    tolerance: money("tolerance").notNull().default(0),
    /**
     * orders in flight at the reading: how much higher (rise) or lower (fall) than kios's
     * count the supplier's figure may be because of them. Open orders may be refunded
     * already or not have arrived yet; orders settled between the request and the answer
     * may fall on either side of the reading.
     */
    inFlightRise: money("in_flight_rise").notNull().default(0),
    inFlightFall: money("in_flight_fall").notNull().default(0),
    /**
     * the part of this check's drift that in-flight orders may explain, not reported: the
     * next check adds it to its own, so it is reported there unless it resolved
     */
    carried: money("carried").notNull().default(0),
    status: text("status", { enum: ["baseline", "ok", "drift", "explained"] }).notNull(),
    /**
     * where the reading came from: `balance`, the supplier's balance call (cek-saldo); or
     * `answer`, the balance a transaction answer or report carried (Digiflazz's
     * buyer_last_saldo), read somewhere between its attempt's first send (requestedAt) and
     * its arrival (readAt)
     */
    source: text("source", { enum: ["balance", "answer"] })
      .notNull()
      .default("balance"),
    /** the answer's ref_id, for a reading from an answer */
    refId: text("ref_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("supplier_balance_checks_supplier").on(t.supplier, t.id),
    check(
      "supplier_balance_checks_status_known",
      sql`${t.status} in ('baseline', 'ok', 'drift', 'explained')`,
    ),
    check("supplier_balance_checks_source_known", sql`${t.source} in ('balance', 'answer')`),
  ],
);

/**
 * the supplier balance guard's reservations (docs/suppliers.md#the-balance-guard): one row
 * per Pay (or re-route) about to store an attempt at a guarded supplier, inserted and
 * committed on its own before the Pay checks the estimate, so every Pay that checks later
 * sees it. The statement that stores the order deletes it (the order's attempt then counts
 * in its place, in the same commit: never both, never neither); a Pay refused deletes its
 * own. A row left by a crash counts until `expires_at` and is swept after. No row is
 * shared by two Pays, so no Pay waits on another's lock (issue 40)
 */
export const supplierReservations = pgTable(
  "supplier_reservations",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** the supplier's name (the first supplier's under its configured name) */
    supplier: text("supplier").notNull(),
    /** what the attempt would cost there */
    cost: money("cost").notNull(),
    createdAt: createdAt(),
    /** counted by other Pays until then (the shop's clock); a Pay consumes its own only well before */
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [index("supplier_reservations_supplier").on(t.supplier, t.expiresAt)],
);

/** supplier reports (the supplier's callbacks) as received: stored once (inbox), then confirmed by /v1/status */
export const supplierReports = pgTable(
  "supplier_reports",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** sha-256 of the raw body: a repeated delivery is the same row */
    bodyHash: text("body_hash").notNull().unique(),
    /** the supplier whose path it arrived on (its name); null: before suppliers had names (the first) */
    supplier: text("supplier"),
    refId: text("ref_id").notNull(),
    reportedStatus: text("reported_status").notNull(),
    rawBody: text("raw_body").notNull(),
    receivedAt: tstz("received_at").notNull().defaultNow(),
    processedAt: tstz("processed_at"),
    outcome: text("outcome"),
    /** the report drain's worker (lease generation) acting on it, until claimed_until */
    claimedBy: text("claimed_by"),
    claimedUntil: tstz("claimed_until"),
    /** claims made so far, this one included */
    attempts: integer("attempts").notNull().default(0),
    /** the last attempt's error, while it waits to be tried again */
    error: text("error"),
  },
  (t) => [
    index("supplier_reports_ref").on(t.refId),
    // the drain walks what is left to act on, oldest first
    index("supplier_reports_open").on(t.id).where(sql`${t.processedAt} is null`),
  ],
);

/** messages owed to chats (outbox): one row per business key, delivered once */
export const notifications = pgTable(
  "notifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    key: text("key").notNull().unique(),
    chatId: bigint("chat_id", { mode: "number" }).notNull(),
    /** edit this message in place when set; otherwise send a new one */
    messageId: integer("message_id"),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["pending", "sending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    claimedAt: tstz("claimed_at"),
    sentAt: tstz("sent_at"),
  },
  (t) => [
    check(
      "notifications_status_known",
      sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`,
    ),
    index("notifications_pending").on(t.status, t.id).where(sql`${t.status} <> 'sent'`),
    // what the outbox sent a chat since a card last moved (bot/storage/card-in-view.ts)
    index("notifications_chat_created").on(t.chatId, t.createdAt),
  ],
);

// ---------------------------------------------------------------- bot

/**
 * bot messages that delete themselves (the H2H keys shown once): the bot deletes each when
 * its time comes, and the row outlives a restart, so a secret is not left in a chat
 */
export const expiringMessages = pgTable(
  "expiring_messages",
  {
    chatId: bigint("chat_id", { mode: "number" }).notNull(),
    messageId: integer("message_id").notNull(),
    deleteAt: tstz("delete_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.messageId] }),
    index("expiring_messages_due").on(t.deleteAt),
  ],
);

/**
 * what an order's chat message shows, so edits only go forward: an edit for a state older
 * than (or the same as) what the message shows is not sent
 */
export const chatCards = pgTable(
  "chat_cards",
  {
    chatId: bigint("chat_id", { mode: "number" }).notNull(),
    messageId: integer("message_id").notNull(),
    /** the confirmation (quote) the message is about */
    quoteId: text("quote_id").notNull(),
    /** how far along the shown state is (see bot/cards.ts) */
    rank: integer("rank").notNull(),
    /** sha-256 of the text and keyboard shown */
    contentHash: text("content_hash").notNull(),
    text: text("text").notNull(),
    keyboard: jsonb("keyboard"),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.messageId] })],
);

/**
 * conversations v2 state, one row per chat. `revision` counts its writes: a write names the
 * revision it read and fails when another process wrote in between, so no flow is ever
 * silently overwritten. A flow that ends leaves an empty state rather than no row, so the
 * update that ended it stays recorded.
 */
export const botState = pgTable("bot_state", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  revision: integer("revision").notNull().default(1),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
  /**
   * the inbox update (bot and update_id) whose handling wrote this state, in the same
   * write: that update, run again after a crash, is not applied a second time
   */
  botId: bigint("bot_id", { mode: "number" }),
  updateId: bigint("update_id", { mode: "number" }),
});

/**
 * the update inbox: every Telegram update, stored whole before it is acknowledged (webhook)
 * or confirmed (polling), then handled by a worker. A chat's updates are handled one at a
 * time in update_id order; `claimed_until` is the claim's lease (and, with no owner, the
 * time a retried update waits until). An update is its bot's and update_id: one seen within
 * a day is a redelivery and ignored; older, the id was used again and the row is replaced.
 */
export const telegramUpdates = pgTable(
  "telegram_updates",
  {
    /** the bot the update came to (the number before its token's colon); 0: from before */
    botId: bigint("bot_id", { mode: "number" }).notNull().default(0),
    updateId: bigint("update_id", { mode: "number" }).notNull(),
    /** the chat the update belongs to (the sender for chat-less updates; 0 for neither) */
    chatId: bigint("chat_id", { mode: "number" }).notNull().default(0),
    /** the sender (0 for none): the worker reads their user row with the update */
    userId: bigint("user_id", { mode: "number" }).notNull().default(0),
    /** the update as Telegram sent it; null only for rows from before the inbox */
    payload: jsonb("payload"),
    receivedAt: tstz("received_at").notNull().defaultNow(),
    claimedBy: text("claimed_by"),
    claimedUntil: tstz("claimed_until"),
    attempts: integer("attempts").notNull().default(0),
    handledAt: tstz("handled_at"),
    /** why handling ended in an error (the update still counts as handled) */
    error: text("error"),
  },
  (t) => [
    primaryKey({ columns: [t.botId, t.updateId] }),
    // a chat's unhandled updates, and all unhandled updates oldest first: the claim's two walks
    index("telegram_updates_open").on(t.chatId, t.updateId).where(sql`${t.handledAt} is null`),
    index("telegram_updates_waiting").on(t.updateId).where(sql`${t.handledAt} is null`),
    // what a chat sent since a card last moved (bot/storage/card-in-view.ts)
    index("telegram_updates_chat_received").on(t.chatId, t.receivedAt),
    // and, written in migration 0039 (drizzle has no EXCLUDE): at most one claimed, unhandled
    // update per chat (telegram_updates_one_claim_per_chat, checked at each statement's end)
  ],
);

// ---------------------------------------------------------------- H2H (docs/h2h.md)

/**
 * a reseller's host-to-host key: api_id in clear (it names the key), api_key and secret_key
 * encrypted (AES-256-GCM under H2H_ENCRYPTION_KEY): both enter the signature, so they must
 * be recoverable to verify one; a copy of the database alone does not reveal them
 */
export const h2hKeys = pgTable("h2h_keys", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  /** one key per reseller; rotate replaces its secrets in place */
  userId: bigint("user_id", { mode: "number" })
    .notNull()
    .unique()
    .references(() => users.telegramId),
  apiId: text("api_id").notNull().unique(),
  apiKeyEnc: text("api_key_enc").notNull(),
  secretKeyEnc: text("secret_key_enc").notNull(),
  callbackUrl: text("callback_url"),
  /** addresses allowed to call (exact IPs); empty: any */
  ipAllowlist: jsonb("ip_allowlist").$type<string[]>().notNull().default([]),
  /** requests per minute this key may make */
  ratePerMinute: integer("rate_per_minute").notNull().default(600),
  /** the owner's or reseller's on/off switch */
  enabled: boolean("enabled").notNull().default(true),
  /** each H2H result also as a chat message (off: a server sends thousands) */
  chatResults: boolean("chat_results").notNull().default(false),
  revokedAt: tstz("revoked_at"),
  rotatedAt: tstz("rotated_at"),
  createdAt: createdAt(),
});

/**
 * a reseller's credentials for the OtomaX-family door (docs/center.md): a memberID and the
 * pin and password their server signs with, both sealed (kios must read them back to check a
 * sign). One per reseller, as h2h_keys
 */
export const centerKeys = pgTable("center_keys", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  userId: bigint("user_id", { mode: "number" })
    .notNull()
    .unique()
    .references(() => users.telegramId),
  memberId: text("member_id").notNull().unique(),
  pinEnc: text("pin_enc").notNull(),
  passwordEnc: text("password_enc").notNull(),
  /** where a final's report is sent (GET); none: no reports */
  reportUrl: text("report_url"),
  /** addresses allowed to call (exact IPs); empty: any */
  ipAllowlist: jsonb("ip_allowlist").$type<string[]>().notNull().default([]),
  ratePerMinute: integer("rate_per_minute").notNull().default(600),
  enabled: boolean("enabled").notNull().default(true),
  revokedAt: tstz("revoked_at"),
  rotatedAt: tstz("rotated_at"),
  createdAt: createdAt(),
});

/**
 * an H2H request's ref_id in its reseller's namespace, bound to the quote kios made for it;
 * the order is the one whose confirm_key is that quote (design rule 3: one ref_id, one order)
 */
export const h2hOrders = pgTable(
  "h2h_orders",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    /** the JSON door's key it came through, or (centerKeyId) the OtomaX door's: one of them */
    keyId: bigint("key_id", { mode: "number" }).references(() => h2hKeys.id),
    centerKeyId: bigint("center_key_id", { mode: "number" }).references(() => centerKeys.id),
    refId: text("ref_id").notNull(),
    /** order (prepaid, game) or bill (an inquiry, then its payment) */
    kind: text("kind", { enum: ["order", "bill"] }).notNull(),
    productCode: text("product_code").notNull(),
    customerNo: text("customer_no").notNull(),
    /**
     * the quote the ref_id is bound to; none yet: the row is a claim, taken when the request
     * arrived and committed before its quote, so a repeat meanwhile sees the ref_id taken
     * (commerce/h2h/orders.ts). A bill's row is made with its inquiry's quote, never a claim
     */
    quoteId: text("quote_id")
      .unique()
      .references(() => quotes.id),
    /**
     * when the request holding the ref_id took it (on arrival, or on taking over a claim a
     * crashed request left): with the id, the holder's identity, so a request that lost its
     * claim can't bind it; an old claim with no quote is taken over by the next request
     */
    claimedAt: tstz("claimed_at").notNull().defaultNow(),
    /** its final callback was queued (h2h_callbacks): the sweep that queues them skips it */
    finalQueuedAt: tstz("final_queued_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("h2h_orders_user_ref").on(t.userId, t.refId),
    index("h2h_orders_unqueued").on(t.id).where(sql`${t.finalQueuedAt} is null`),
    check("h2h_orders_kind_known", sql`${t.kind} in ('order', 'bill')`),
    check("h2h_orders_bill_quoted", sql`${t.kind} = 'order' or ${t.quoteId} is not null`),
    check("h2h_orders_one_door", sql`(${t.keyId} is null) <> (${t.centerKeyId} is null)`),
  ],
);

/**
 * the final callback owed to a reseller for one H2H order: its body fixed when queued, so
 * every retry sends the same final (never two different finals)
 */
export const h2hCallbacks = pgTable(
  "h2h_callbacks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    h2hOrderId: bigint("h2h_order_id", { mode: "number" })
      .notNull()
      .unique()
      .references(() => h2hOrders.id),
    userId: bigint("user_id", { mode: "number" }).notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "delivered", "given_up", "no_url"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tstz("next_attempt_at").notNull().defaultNow(),
    /** the sender delivering it now, and until when (design rule 18) */
    claimedBy: text("claimed_by"),
    claimedUntil: tstz("claimed_until"),
    lastError: text("last_error"),
    lastAttemptAt: tstz("last_attempt_at"),
    deliveredAt: tstz("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "h2h_callbacks_status_known",
      sql`${t.status} in ('pending', 'delivered', 'given_up', 'no_url')`,
    ),
    index("h2h_callbacks_due").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

/** every delivery attempt of a callback: what the reseller's server answered, or why not */
export const h2hCallbackAttempts = pgTable(
  "h2h_callback_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    callbackId: bigint("callback_id", { mode: "number" })
      .notNull()
      .references(() => h2hCallbacks.id),
    userId: bigint("user_id", { mode: "number" }).notNull(),
    at: tstz("at").notNull().defaultNow(),
    httpStatus: integer("http_status"),
    /** null: delivered */
    error: text("error"),
    ms: integer("ms").notNull(),
  },
  (t) => [index("h2h_callback_attempts_user").on(t.userId, t.at)],
);

/**
 * an order a reseller placed with a center text command in chat (docs/center.md#text-commands):
 * its quote (the order is the one whose confirm_key is it), the reseller's own reference
 * (`R#…`, unique per reseller: a repeat answers this order), and the status word the chat's
 * answer said, so the final comes once as its own message only after a PROSES answer
 */
export const textOrders = pgTable(
  "text_orders",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.telegramId),
    /** the reseller's R# reference; none: the order is matched by kios's own ref only */
    ref: text("ref"),
    // a quote that made no order is pruned after a day, and its row with it
    quoteId: text("quote_id")
      .notNull()
      .unique()
      .references(() => quotes.id, { onDelete: "cascade" }),
    /** what the first answer said (PROSES, SUKSES, GAGAL); null: not answered yet */
    answered: text("answered"),
    createdAt: createdAt(),
  },
  // nulls are distinct: only a given R# is unique
  (t) => [uniqueIndex("text_orders_user_ref").on(t.userId, t.ref)],
);

/** the owner's own words for the center's keywords (`kios center alias SAL SALDO`) */
export const centerAliases = pgTable("center_aliases", {
  alias: text("alias").primaryKey(),
  keyword: text("keyword").notNull(),
  createdAt: createdAt(),
});
