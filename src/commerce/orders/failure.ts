import type { Order } from "./types.ts";

// why an order failed, in kinds a buyer can be told (the chat and the Mini App say them in
// the buyer's language); the supplier's own words stay a note, the details in the logs

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
  /** the supplier's own words for a failed transaction (often English), at most 200 chars */
  note?: string | undefined;
}

export function failureOf(order: Order): Failure {
  const known = order.supplierCode ? KIND_BY_CODE[order.supplierCode] : undefined;
  if (known) return { kind: known };
  // the supplier answered with a failed transaction: its words only as a note
  if (order.supplierCode || order.supplierMessage) {
    const note = order.supplierMessage?.trim().slice(0, 200);
    return { kind: "supplier", note: note || undefined };
  }
  // no supplier answer at all (interrupted before it was sent)
  return { kind: order.failureReason ? "not-processed" : "unknown" };
}
