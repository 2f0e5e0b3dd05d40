import { midtransSignature } from "@kios/kit";
import type { Charge } from "./types.ts";

// Midtrans's shapes: amounts are strings with two decimals, times are Jakarta's
// ("2026-11-24 10:15:00", UTC+7), and every body carries its own status_code.

export const grossOf = (rupiah: number) => `${rupiah}.00`;

export function jakartaTime(ms: number): string {
  return new Date(ms + 7 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

/** the status_code Midtrans gives each transaction_status */
const STATUS_CODES: Record<Charge["status"], string> = {
  pending: "201",
  settlement: "200",
  deny: "202",
  cancel: "200",
  expire: "407",
};

const MESSAGES: Record<Charge["status"], string> = {
  pending: "Success, transaction is found",
  settlement: "Success, transaction is found",
  deny: "Success, transaction is found",
  cancel: "Success, transaction is found",
  expire: "Success, transaction is found",
};

function statusCodeOf(c: Charge): string {
  return STATUS_CODES[c.status];
}

/** the charge as GET /v2/<order_id>/status shows it */
export function statusBody(c: Charge, merchantId: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    status_code: statusCodeOf(c),
    status_message: MESSAGES[c.status],
    transaction_id: c.transactionId,
    order_id: c.orderId,
    merchant_id: merchantId,
    gross_amount: grossOf(
      c.status === "settlement" ? (c.paidAmount ?? c.grossAmount) : c.grossAmount,
    ),
    currency: "IDR",
    payment_type: "qris",
    transaction_time: jakartaTime(c.createdAt),
    transaction_status: c.status,
    fraud_status: "accept",
    acquirer: c.acquirer,
    expiry_time: jakartaTime(c.expiresAt),
  };
  if (c.settledAt !== undefined) body.settlement_time = jakartaTime(c.settledAt);
  return body;
}

/** the HTTP notification: the status body, signed */
export function notificationBody(
  c: Charge,
  merchantId: string,
  serverKey: string,
): Record<string, unknown> {
  const body = statusBody(c, merchantId);
  body.signature_key = midtransSignature(
    c.orderId,
    String(body.status_code),
    String(body.gross_amount),
    serverKey,
  );
  return body;
}

export const errorBody = (statusCode: string, message: string, extra: object = {}) => ({
  status_code: statusCode,
  status_message: message,
  ...extra,
});
