// a payment gateway, as kios's wallet sees it: ask for a payment of an amount under an order
// id kios owns, learn its state, verify what the gateway says over HTTP, cancel. Midtrans is
// the first; Xendit or Tripay would be a second file beside it, nothing else changes.

/** where a payment stands at the gateway; "paid" is the only state that credits */
export type PaymentState =
  | "pending"
  | "paid"
  | "expired"
  | "cancelled"
  | "denied"
  | "failed"
  /** money went back (a refund or chargeback) after the payment was paid */
  | "refunded"
  /** the gateway has no payment under this order id */
  | "not_found";

export interface GatewayPaymentStatus {
  orderId: string;
  state: PaymentState;
  /** the amount the gateway says was (or is to be) paid, whole rupiah */
  amount?: number | undefined;
  /** the gateway's own id of the payment */
  transactionId?: string | undefined;
  /** the gateway's status word, as it said it */
  raw: string;
}

/** the QR a buyer scans, as the gateway gave it */
export type PaymentQr =
  /** the QRIS payload: any QRIS app pays it; kios draws the QR from it */
  | { qrString: string }
  /** the gateway's own picture of the QR (a PNG), when its answer carries no payload */
  | { png: Buffer };

export type CreatedPayment = {
  orderId: string;
  transactionId: string;
  expiresAt: Date;
} & PaymentQr;

export interface CreatePaymentRequest {
  orderId: string;
  amount: number;
  expiresInMinutes: number;
}

/** what a notification claims, once its signature checked out */
export interface VerifiedGatewayReport {
  orderId: string;
  state: PaymentState;
  amount?: number | undefined;
}

export class GatewayError extends Error {
  override name = "GatewayError";
  constructor(
    message: string,
    /**
     * true when the request may have been applied (timeout, 5xx, a transport error): a
     * charge so answered is looked up by its order id, never assumed absent
     */
    readonly uncertain: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface PaymentGateway {
  readonly name: string;
  /**
   * the longest createPayment takes before it gives up (its timeouts): until then a payment
   * whose charge is under way is left to it
   */
  readonly chargeTimeoutMs: number;
  /**
   * asks for a QRIS payment; throws GatewayError. An answer without a QR kios can show is
   * an uncertain error: the payment may exist, so it is looked up and cancelled
   */
  createPayment(request: CreatePaymentRequest): Promise<CreatedPayment>;
  /** the gateway's own word on a payment; throws GatewayError */
  status(orderId: string): Promise<GatewayPaymentStatus>;
  /**
   * checks a notification's signature in constant time; undefined when it is forged or not
   * a notification. It is evidence, not truth: the caller then asks `status`.
   */
  verifyReport(body: unknown): VerifiedGatewayReport | undefined;
  /** cancels a payment not yet paid; returns the status after; throws GatewayError */
  cancel(orderId: string): Promise<GatewayPaymentStatus>;
}
