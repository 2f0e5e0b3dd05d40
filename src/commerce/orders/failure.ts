import type { Order } from "./types.ts";

// why an order failed, in kinds a buyer can be told (the chat and the Mini App say them in
// the buyer's language); the supplier's own words (often English) are for admins only

type FailureKind =
  | "destination"
  | "product"
  | "bill"
  | "not-processed"
  | "service"
  | "supplier"
  | "unknown";

/** kios's own failure codes, by kind */
const KIND_BY_CODE: Record<string, FailureKind> = {
  INVALID_CUSTOMER_NO: "destination",
  PRODUCT_NOT_FOUND: "product",
  PRODUCT_INACTIVE: "product",
  INQUIRY_EXPIRED: "bill",
  INQUIRY_NOT_FOUND: "bill",
  INQUIRY_MISMATCH: "bill",
  TRANSACTION_NOT_FOUND: "not-processed",
  INSUFFICIENT_BALANCE: "service",
  INVALID_SIGNATURE: "service",
  UNAUTHORIZED: "service",
  INVALID_API_KEY: "service",
  TIMESTAMP_EXPIRED: "service",
  RATE_LIMITED: "service",
  VALIDATION_ERROR: "service",
  GONE: "service",
};

export interface Failure {
  kind: FailureKind;
}

/** why the order failed, as its buyer is told: a kind only, never the supplier's words */
export function failureOf(order: Order): Failure {
  const known = order.supplierCode ? KIND_BY_CODE[order.supplierCode] : undefined;
  if (known) return { kind: known };
  // the supplier answered with a failed transaction
  if (order.supplierCode || order.supplierMessage) return { kind: "supplier" };
  // no supplier answer at all (interrupted before it was sent)
  return { kind: order.failureReason ? "not-processed" : "unknown" };
}

/** the supplier's own words for a failed order (often English), at most 200 chars: admins' */
export function supplierNoteOf(order: Order): string | undefined {
  return order.supplierMessage?.trim().slice(0, 200) || undefined;
}
