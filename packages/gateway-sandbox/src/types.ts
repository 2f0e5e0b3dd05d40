import type { Clock } from "@kios/kit";
import type { Logger } from "pino";

/** Midtrans's transaction_status words this sandbox uses */
export type ChargeStatus = "pending" | "settlement" | "expire" | "cancel" | "deny";

export interface Charge {
  orderId: string;
  transactionId: string;
  /** what the charge asked for, whole rupiah */
  grossAmount: number;
  /** what the buyer paid, when it differs (a test's mismatch) */
  paidAmount?: number;
  status: ChargeStatus;
  qrString: string;
  acquirer: string;
  createdAt: number;
  expiresAt: number;
  settledAt?: number;
}

export interface GatewayFaults {
  /** status changes but no notification goes out: only the status poll sees it */
  dropNotifications: boolean;
  /** every notification is sent twice */
  duplicateNotifications: boolean;
  /** every notification waits this long first */
  lateNotificationMs: number;
  /** notifications carry a wrong signature_key */
  forgeNotifications: boolean;
  /** this share of status requests answers HTTP 500 */
  statusErrorRate: number;
  /** this share of charge requests answers HTTP 500 (the charge is not made) */
  chargeErrorRate: number;
  /** this share of charge requests is made but its answer is lost (HTTP 504 after it) */
  chargeLostAnswerRate: number;
  /** added to every answer */
  latencyMs: number;
  /**
   * the QR a charge's answer carries: "both" (qr_string and the generate-qr-code link),
   * "image" (the link only, as Midtrans's QRIS reference shows it) or "none"
   */
  chargeQr: "both" | "image" | "none";
  /** a charge is made at once, but its answer waits this long (a slow charge) */
  chargeAnswerDelayMs: number;
}

export interface GatewaySandboxOptions {
  /** the merchant's server key the sandbox accepts (HTTP Basic user) */
  serverKey?: string;
  /** where notifications go; none: nothing is sent (setNotificationUrl later) */
  notificationUrl?: string;
  clock?: Clock;
  logger?: Logger;
  seed?: number;
  faults?: Partial<GatewayFaults>;
  /** a charge without custom_expiry can be paid this long */
  defaultExpiryMinutes?: number;
  /** retries of a notification that got no 2xx */
  notificationRetryDelaysMs?: readonly number[];
}

/** a notification as sent, for tests to look at */
export interface SentNotification {
  orderId: string;
  body: Record<string, unknown>;
  /** the HTTP status it got (0: no answer) */
  status: number;
}
