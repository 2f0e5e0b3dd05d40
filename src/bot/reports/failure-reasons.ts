import { escapeHtml } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";

// /stats and the daily report count failures by reason: the supplier's answer code when it
// gave one, else kios's own note. The owner reads them in words of the shop's language
// (ORDER_FAILED is an internal code); a code kios does not know is shown as the supplier's.

/** answer codes by their words' key (locale: report-reason-…) */
const CODE_KEYS: Readonly<Record<string, string>> = {
  ORDER_FAILED: "supplier-failed",
  BILL_PAYMENT_FAILED: "supplier-failed",
  INVALID_CUSTOMER_NO: "destination",
  PRODUCT_NOT_FOUND: "product",
  PRODUCT_INACTIVE: "product",
  INSUFFICIENT_BALANCE: "supplier-balance",
  INQUIRY_EXPIRED: "bill-window",
  INQUIRY_NOT_FOUND: "bill-window",
  INQUIRY_MISMATCH: "bill-window",
  TRANSACTION_NOT_FOUND: "no-record",
  INVALID_SIGNATURE: "credentials",
  UNAUTHORIZED: "credentials",
  INVALID_API_KEY: "credentials",
  TIMESTAMP_EXPIRED: "clock",
  RATE_LIMITED: "rate-limited",
  VALIDATION_ERROR: "validation",
  SERVER_ERROR: "supplier-error",
  GONE: "supplier-error",
  unknown: "unknown",
};

/** kios's own notes (orders/resolve.ts, decide.ts) by how they begin */
const NOTE_KEYS: readonly [prefix: string, key: string][] = [
  ["interrupted before it was sent", "not-sent"],
  ["never sent to the supplier", "not-sent"],
  ["the supplier has no record", "no-record"],
  ["refunded by admin", "admin-refund"],
];

/** a failure's reason as the owner reads it, HTML-escaped */
export function failureReasonText(t: Translate, reason: string): string {
  const key = CODE_KEYS[reason] ?? NOTE_KEYS.find(([prefix]) => reason.startsWith(prefix))?.[1];
  if (key) return t(`report-reason-${key}`);
  return t("report-reason-other", { code: escapeHtml(reason) });
}
