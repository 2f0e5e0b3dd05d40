import { createHash } from "node:crypto";

// Midtrans's notification signature, shared by kios's client (which verifies it) and the
// gateway sandbox (which signs).

/** hex SHA-512 of order_id + status_code + gross_amount + server key */
export function midtransSignature(
  orderId: string,
  statusCode: string,
  grossAmount: string,
  serverKey: string,
): string {
  return createHash("sha512")
    .update(orderId + statusCode + grossAmount + serverKey)
    .digest("hex");
}
