import type { PaymentGateway } from "../../gateway/types.ts";
import type { OrderEngine } from "../orders/engine.ts";

/** what gateway deposits need; built once by the app, used by the bot, jobs and the route */
export interface PaymentEngine {
  gateway: PaymentGateway;
  /** the order engine: a paid "deposit and buy" confirms its card through it */
  orders: OrderEngine;
  /** how long a QR can be paid (minutes; default 15) */
  expiryMinutes?: number;
  /** "deposit and buy" asks for the shortfall rounded up to this (rupiah; default 10,000) */
  depositStep?: number;
  jobs?: PaymentJobs;
}

export interface PaymentJobs {
  /** ask the gateway about this payment after a delay */
  scheduleCheck(paymentId: number, afterMs: number): Promise<void>;
  /** ask the gateway now: a notification came */
  checkNow(paymentId: number): Promise<void>;
}

export const DEFAULT_EXPIRY_MINUTES = 15;
const DEFAULT_TOP_UP_STEP = 10_000;

/** "deposit and buy": the shortfall, rounded up to the shop's step (a QR for Rp3.217 is odd to pay) */
export function depositForShortfall(missing: number, step = DEFAULT_TOP_UP_STEP): number {
  return Math.ceil(missing / step) * step;
}

/** when to ask about an open payment again: quickly at first (people pay in seconds), then each minute */
export function nextPaymentCheckDelay(checks: number): number {
  return Math.min(3_000 * 2 ** checks, 60_000);
}

/**
 * how long a payment is left to its charge call: the gateway's own timeouts and a margin for
 * the writes around it. The first check is due 3 s after the row is stored, but a charge may
 * take longer, and a QR on its way to the buyer must not be cancelled
 */
export function chargeWindowMs(gateway: PaymentGateway): number {
  return gateway.chargeTimeoutMs + 15_000;
}

/** a payment still unknown to the gateway this long after its row was written was never created there */
export const NEVER_CREATED_MS = 10 * 60_000;
