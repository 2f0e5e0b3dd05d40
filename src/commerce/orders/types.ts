import type { orders } from "../../db/schema.ts";
import type { BillDetails } from "../../supplier/types.ts";

// the order engine's public shapes: the bot, the CLI, jobs and tests all speak these.

export type Order = typeof orders.$inferSelect;
export type OrderStatus = Order["status"];
export type OrderKind = Order["kind"];

export const isFinal = (s: OrderStatus) => s === "success" || s === "failed";

/** a price shown on a confirmation card, valid until expiresAt */
export interface Quote {
  id: string;
  kind: OrderKind;
  productCode: string;
  productName: string;
  destination: string;
  price: number;
  testing: boolean;
  expiresAt: Date;
  /** the buyer's wallet now, and after paying (may be negative: then they cannot pay) */
  balance: number;
  balanceAfter: number;
  /** bills only: what the inquiry found */
  bill?: BillQuote | undefined;
  /** what the buyer bought of it for this destination today, asked about on the card (repeat.ts) */
  sameDay?: SameDayPurchases | undefined;
}

export interface BillQuote {
  inquiryId: number;
  refId: string;
  customerName: string;
  /** the bill before fees, as the supplier reported it */
  tagihan: number;
  /** the admin fee the buyer pays (supplier fee plus the shop's markup) */
  admin: number;
  details: BillDetails | undefined;
}

export type QuoteRefusal =
  | { ok: false; reason: "product_unavailable" }
  /** in its cut-off window or paused: it opens again at `until` (Unix ms) */
  | ProductClosed
  | { ok: false; reason: "not_for_sale" }
  | { ok: false; reason: "invalid_destination" }
  | { ok: false; reason: "no_bill"; message: string }
  | { ok: false; reason: "supplier_error"; message: string }
  | BillAlreadyPaid;

/** a refusal as a notification's payload keeps it (JSON: a time as Unix ms) */
export type StoredQuoteRefusal =
  | Exclude<QuoteRefusal, BillAlreadyPaid>
  | (Omit<BillAlreadyPaid, "at"> & { at: number });

/** the buyer's purchases of one product for one destination today (WIB), the latest's time */
export interface SameDayPurchases {
  count: number;
  last: Date;
}

/** a Pay the same-day repeat rule refuses: more were bought today than its card asked about */
export interface BoughtToday {
  ok: false;
  reason: "bought_today";
  /** bought today before this Pay */
  count: number;
  /** the latest of them */
  at: Date;
}

/** one bill, one payment: this bill has a payment that is open or done */
export interface BillAlreadyPaid {
  ok: false;
  reason: "bill_already_paid";
  /** open: being paid now; success: paid at `at` */
  state: "open" | "success";
  at: Date;
  /**
   * the payment, when it is the asker's own (a second tap, a second card of the same bill):
   * shown to them as it stands instead of the refusal. Another buyer's is never named
   */
  ownOrderId?: number | undefined;
}

interface ProductClosed {
  ok: false;
  reason: "product_closed";
  until: number;
}

export type QuoteResult = { ok: true; quote: Quote } | QuoteRefusal;

type ConfirmRefusal =
  | { ok: false; reason: "quote_not_found" }
  | {
      ok: false;
      reason: "quote_expired";
      kind: OrderKind;
      productCode: string;
      destination: string;
    }
  | { ok: false; reason: "insufficient_balance"; balance: number; price: number; missing: number }
  | { ok: false; reason: "product_unavailable" }
  | ProductClosed
  /** the supplier balance can't cover it (guard): nothing held, admins told, try later */
  | { ok: false; reason: "supplier_unavailable" }
  /** the buyer pressed Cancel on this card: Pay buys nothing */
  | { ok: false; reason: "quote_cancelled" }
  /** the same-day repeat rule: bought again since the card was shown, and the card didn't ask */
  | BoughtToday
  | BillAlreadyPaid;

/**
 * confirming a quote: the order as it stands after the supplier answered (success, failed,
 * pending or unknown). `duplicate` is true when this confirmation had already made the
 * order (a double tap): nothing new happened.
 */
export type ConfirmResult = { ok: true; order: Order; duplicate: boolean } | ConfirmRefusal;
