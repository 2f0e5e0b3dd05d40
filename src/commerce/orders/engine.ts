import type { Clock } from "@kios/kit";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import type { Supplier } from "../../supplier/types.ts";
import type { PausePolicy } from "../catalogue/pauses.ts";
import type { Order } from "./types.ts";

/** what the order engine needs; the bot, CLI, jobs and tests all build one of these. */
export interface OrderEngine {
  db: Database;
  /** the first supplier (SUPPLIER_*): bills, inquiries and the orders of its routes */
  supplier: Supplier;
  /** the other suppliers by name, for the routes at them (docs/suppliers.md); absent: none */
  suppliers?: ReadonlyMap<string, Supplier> | undefined;
  /** the first supplier's name (SUPPLIER_NAME; default "main") */
  firstSupplier?: string | undefined;
  /** a route is not tried when it leaves less than this over its cost (rupiah; default 0) */
  minMargin?: number | undefined;
  clock: Clock;
  logger: Logger;
  /** SUPPLIER_TESTING: every order goes to the supplier with testing=true and moves no money */
  testing: boolean;
  /** admins told about orders that stay open too long */
  adminIds?: readonly number[];
  /** background work the engine asks for; absent in a bare test, the sweeper still runs */
  jobs?: OrderJobs;
  /** an open order older than this is flagged and announced to admins (default 30 min) */
  stuckAfterMs?: number;
  /** Pay is refused when less than this remains of a bill's inquiry window (default 20 s) */
  billPayMarginMs?: number;
  /** told of every order that became final (the app's latency metric) */
  onOrderFinal?: (order: Order) => void;
  /** told of every order sent to the supplier, once (the app's order counter) */
  onOrderSubmitted?: (order: Order) => void;
  /** when failing products are closed for a while (default DEFAULT_PAUSE_POLICY) */
  productPause?: PausePolicy;
  /** supplier balance checks: the drift tolerated, and the balance that alerts (rupiah) */
  recon?: { tolerance: number; lowBalance: number };
  /**
   * told (with the engine at hand: a caller may have given it other settings) of the supplier balance an answer carried (Digiflazz's buyer_last_saldo), to be
   * stored as a reading by reconciliation (which depends on orders, not the other way);
   * never throws. Absent: not recorded
   */
  onAnswerBalance?: (
    engine: OrderEngine,
    supplier: string | null,
    refId: string,
    balance: number,
  ) => Promise<void>;
}

export const BILL_PAY_MARGIN_MS = 20_000;

export interface OrderJobs {
  /** check this order's status with the supplier after a delay */
  scheduleCheck(orderId: number, afterMs: number): Promise<void>;
  /** deliver queued notifications now */
  kickNotifications(): Promise<void>;
}

/** when to check an open order again: quickly at first, then at most once a minute */
export function nextCheckDelay(checks: number, ageMs: number, stuckAfterMs = STUCK_AFTER_MS) {
  if (ageMs > stuckAfterMs) return 10 * 60_000;
  return Math.min(5_000 * 2 ** checks, 60_000);
}

/** an order open longer than this is flagged for the admins and checked less often */
export const STUCK_AFTER_MS = 30 * 60_000;

/**
 * the signature interface's window: the supplier refuses a request whose signed timestamp
 * is more than 5 minutes off its clock. A request not found once its own signed time is
 * this far behind can never be accepted any more (plus a margin for the clocks' skew and
 * a request still in flight).
 */
export const SIGNED_REQUEST_WINDOW_MS = 5 * 60_000;
export const NOT_FOUND_MARGIN_MS = 2 * 60_000;
/** and at least this many "not found" answers, so one bad answer refunds nothing */
export const NOT_FOUND_MIN_CHECKS = 3;
/**
 * the key interface has no such window: an order it has no record of after this long is
 * put to an admin (refund or keep waiting), never refunded by kios alone
 */
export const NOT_FOUND_ASK_ADMIN_MS = 10 * 60_000;

/** a created order older than this was left by a crash before it was sent */
export const CREATED_ABANDONED_MS = 60_000;
