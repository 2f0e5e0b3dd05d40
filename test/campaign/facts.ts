import { NOT_FOUND_MARGIN_MS, SIGNED_REQUEST_WINDOW_MS } from "../../src/commerce/orders/engine.ts";

// what the reconciliation reads, as plain data: kios's books (orders, wallets, the outbox,
// the ledger's verdict), the sandbox's own books (requests, transactions, balance) and the
// chats as the Bot API server recorded them. Kept free of I/O so checks can be fed by hand.

export interface OrderFact {
  id: number;
  refId: string;
  /** the quote the order was confirmed from */
  confirmKey: string;
  userId: number;
  chatId: number;
  messageId: number | null;
  kind: "prepaid" | "game" | "bill";
  productCode: string;
  destination: string;
  price: number;
  /** the supplier of its current attempt (the one its ref_id was sent to) */
  supplier: string;
  status: "created" | "submitted" | "pending" | "unknown" | "success" | "failed";
  flagged: boolean;
  testing: boolean;
  /** ms since the epoch; null when never sent */
  submittedAt: number | null;
  /** when kios checks it next (ms since the epoch); null: no check planned */
  nextCheckAt: number | null;
  /** what each upline earns when it succeeds (a downline's order; docs/resellers.md) */
  margins: { userId: number; amount: number }[];
  /** placed through an H2H door (its results go there, not to the chat) */
  h2h: boolean;
  /** placed by a center text command in chat (its answers are `R#…` lines, texts checks) */
  text: boolean;
}

/** an order the OtomaX door stored for a reseller's refID (h2h_orders), with its kios order */
export interface CenterOrderFact {
  memberId: string;
  refId: string;
  product: string;
  dest: string;
  orderId: number | null;
  status: string | null;
  /** when its order was made (ms since the epoch); null: no order */
  orderedAt: number | null;
}

/** the OtomaX door's side of the run: what the resellers' software sent and received */
export interface CenterFacts {
  /** the resellers' memberIDs and kios user ids */
  members: { memberId: string; userId: number }[];
  /** every refID sent */
  sent: { memberId: string; refId: string }[];
  /** every request's answer */
  replies: { memberId: string; refId: string; status: number; text: string; sentAt: number }[];
  /** every GET that reached a report URL */
  reports: { memberId: string; refid: string; message: string; status: string; sn: string }[];
  orders: CenterOrderFact[];
}

/** a center text command's order (text_orders), with its kios order */
export interface TextOrderFact {
  userId: number;
  ref: string | null;
  orderId: number | null;
  product: string | null;
  dest: string | null;
  status: string | null;
  price: number | null;
}

/** the text-command resellers' side of the run (test/campaign/texts.ts) */
export interface TextFacts {
  members: number[];
  /** each R# typed, with its first text's product and dest */
  sent: { userId: number; ref: string; product: string; dest: string }[];
  /** `S.PIN` after the settle: what it said */
  finalBalances: { userId: number; said: number | undefined }[];
  orders: TextOrderFact[];
}

export interface NotificationFact {
  type: string;
  orderId: number | undefined;
  chatId: number;
  status: string;
}

export interface SupplierTransactionFact {
  /** the supplier (sandbox) that holds it */
  supplier: string;
  refId: string;
  kind: "order" | "bill";
  code: string;
  customerNo: string;
  status: "pending" | "success" | "failed";
  charged: number;
  /**
   * a failed one's reason by the supplier's own books: the product's or the seller's sake
   * (another route may sell it), the destination's (none may), or none given
   */
  failure?: "product" | "destination" | "none" | undefined;
}

/** one order or bill-payment call a supplier received, as its own books have it */
export interface SupplierCallFact {
  supplier: string;
  refId: string;
  /** clock ms */
  at: number;
  /**
   * created: it formed a transaction; repeat: answered with the one the ref_id holds;
   * refused: answered a refusal with nothing formed; error: failed before any work
   */
  result: "created" | "repeat" | "refused" | "error";
  /** a refusal's code (the seed protocol's error code, Digiflazz's rc) */
  code: string;
}

export interface MessageFact {
  id: number;
  /** the text now */
  text: string;
  /** earlier texts, oldest first */
  history: string[];
}

/** a QRIS deposit as kios keeps it, with the credits its key holds in the ledger */
export interface PaymentFact {
  id: number;
  gatewayOrderId: string;
  userId: number;
  amount: number;
  status: string;
  /** ledger transfers under payment:<gateway>:<order id>, and what they credited */
  credits: number;
  credited: number;
}

/** a charge as the gateway keeps it */
export interface ChargeFact {
  orderId: string;
  amount: number;
  /** what was paid, when it differs from amount */
  paidAmount?: number | undefined;
  status: "pending" | "settlement" | "expire" | "cancel" | "deny";
}

/** a supplier balance check as kios stored it (times in ms since the epoch) */
export interface CheckFact {
  id: number;
  /** the supplier whose balance it read (null: the first, the only one kios reads today) */
  supplier: string | null;
  readAt: number;
  /** the reading of the check before (null: a baseline) */
  previousReadAt: number | null;
  status: "baseline" | "ok" | "drift" | "explained";
  drift: number | null;
  inFlightRise: number;
  inFlightFall: number;
  tolerance: number;
}

/** a supplier top-up as kios booked it */
export interface TopupFact {
  id: number;
  amount: number;
  /** the check whose rise it explains */
  checkId: number | null;
  reversed: boolean;
  recordedBy: number | null;
}

/** one attempt of an order at one supplier (order_attempts, docs/suppliers.md) */
export interface AttemptFact {
  orderId: number;
  seq: number;
  supplier: string;
  refId: string;
  /** the route's cost: what kios captures as supplier cost when this attempt succeeds */
  cost: number;
  status: "open" | "rejected" | "failed" | "success";
  /** the supplier's proof that nothing was formed, for a re-routed attempt */
  reroutedFor: string | null;
}

/** one supplier's account balance, as its own books have it */
export interface SupplierBalanceFact {
  name: string;
  /** the protocol it speaks: Digiflazz's re-send forms a transaction (the no-resend check) */
  protocol: "seed" | "digiflazz";
  before: number;
  after: number;
}

/**
 * the answers that prove no transaction was formed, after which kios may try the next route
 * (docs/suppliers.md, the failover table); the campaign's own copy, so the engine's list
 * can't vouch for itself
 */
/**
 * a supplier's final failure for the product's or its own sake (docs/supplier.md, failure
 * reasons): the order may go to the next route after it, the failed attempt closed `failed`
 */
export const FINAL_FAILURE_PROOFS: ReadonlySet<string> = new Set([
  "OUT_OF_STOCK",
  "PRODUCT_DISRUPTED",
  "SUPPLIER_ERROR",
]);

export const REROUTE_PROOFS: ReadonlySet<string> = new Set([
  "INVALID_SIGNATURE",
  "UNAUTHORIZED",
  "INVALID_API_KEY",
  "TIMESTAMP_EXPIRED",
  "INSUFFICIENT_BALANCE",
  "PRODUCT_NOT_FOUND",
  "PRODUCT_INACTIVE",
  "RATE_LIMITED",
  "GONE",
  "SUPPLIER_REFUSED",
  "VALIDATION_ERROR:code",
]);

export interface Facts {
  orders: OrderFact[];
  /** every order's attempts, in order */
  attempts: AttemptFact[];
  payments: PaymentFact[];
  charges: ChargeFact[];
  notifications: NotificationFact[];
  /** user id → wallet balance in kios's ledger */
  wallets: Map<number, number>;
  /** user id → what the campaign credited */
  credits: Map<number, number>;
  /** the balance of shop:supplier_cost (the database was fresh: this is its change) */
  supplierCost: number;
  /** the balance of shop:supplier_prepaid: the supplier top-ups booked */
  supplierPrepaid: number;
  /** what the owner put into the supplier account during the run, and when */
  ownerTopups: { amount: number; at: number }[];
  checks: CheckFact[];
  topups: TopupFact[];
  /**
   * every supplier's balance, from its own books: at the start and after the settle. The
   * first is the one the owner tops up (ownerTopups)
   */
  suppliers: SupplierBalanceFact[];
  /** every supplier's transactions */
  transactions: SupplierTransactionFact[];
  /** every supplier's order and bill-payment calls, from its own books */
  calls: SupplierCallFact[];
  /** user id → the bot's messages in their chat */
  chats: Map<number, MessageFact[]>;
  adminIds: number[];
  /** Cancel and Pay pressed together, and whether kios answered the Cancel */
  cancelThenPay: { userId: number; quoteId: string; cancelAnswered: boolean }[];
  ledger: { ok: boolean; problems: string[] };
  center: CenterFacts;
  texts: TextFacts;
  /** when the books were read (ms since the epoch) */
  now: number;
}

/**
 * kios refunds an order the supplier has no record of only once its signed request time is
 * past the supplier's 5-minute window plus a margin (docs/orders.md): until then "open,
 * with a next check" is right, not a fault
 */
export const NOT_FOUND_WINDOW_MS = SIGNED_REQUEST_WINDOW_MS + NOT_FOUND_MARGIN_MS;
/** the sweeper runs every minute: a check may be this late before it counts as missing */
export const CHECK_SLACK_MS = 90_000;

export const isFinal = (o: OrderFact) => o.status === "success" || o.status === "failed";
