import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import type { Supplier } from "../../supplier/types.ts";

/** what the order engine needs; the bot, CLI, jobs and tests all build one of these. */
export interface OrderDeps {
  db: Database;
  supplier: Supplier;
  clock: Clock;
  logger: Logger;
  /** SUPPLIER_TESTING: every order goes to the supplier with testing=true and moves no money */
  testing: boolean;
  /** admins told about orders that stay open too long */
  adminIds?: readonly number[];
  /** background work the engine asks for; absent in a bare test, the sweeper still runs */
  jobs?: OrderJobs;
}

export interface OrderJobs {
  /** check this order's status with the supplier after a delay */
  scheduleCheck(orderId: number, afterMs: number): Promise<void>;
  /** deliver queued notifications now */
  kickNotifications(): Promise<void>;
}

/** when to check an open order again: quickly at first, then at most once a minute */
export function nextCheckDelay(checks: number, ageMs: number): number {
  if (ageMs > STUCK_AFTER_MS) return 10 * 60_000;
  return Math.min(5_000 * 2 ** checks, 60_000);
}

/** an order open longer than this is flagged for the admins and checked less often */
export const STUCK_AFTER_MS = 30 * 60_000;

/**
 * a submitted order the supplier has no record of is failed (and refunded) only after this
 * long and this many "not found" answers: a supplier that queues work may not show a
 * transaction at once, and refunding one it then completes would lose the shop money
 */
export const NOT_FOUND_GRACE_MS = 10 * 60_000;
export const NOT_FOUND_MIN_CHECKS = 3;

/** a created order older than this was left by a crash before it was sent */
export const CREATED_ABANDONED_MS = 60_000;
