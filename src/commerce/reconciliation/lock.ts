import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import type { SupplierBook } from "./books.ts";

// one reconciliation step at a time, across processes: a balance check storing its window,
// a top-up booked or explaining a rise, a reversal. Each reads the latest check and what
// was booked against it, so two of them must never interleave (a rise explained twice).
// Each supplier's books are apart (their own checks and top-ups): one lock per supplier, so
// a slow supplier's check never holds up another's.

/** the lock's class (the first key of the two-key advisory lock); the second is the supplier's */
const RECONCILIATION_LOCK = 724011820;

/** held until the transaction ends */
export async function lockReconciliation(tx: Executor, book: SupplierBook): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${RECONCILIATION_LOCK}::int, hashtext(${book.name}::text))`,
  );
}

/**
 * the same lock, if free now: a reading from an answer is never worth waiting for (the
 * order path must not queue behind a check), so it is skipped while a step holds it
 */
export async function tryLockReconciliation(tx: Executor, book: SupplierBook): Promise<boolean> {
  const result = await tx.execute(
    sql`select pg_try_advisory_xact_lock(${RECONCILIATION_LOCK}::int, hashtext(${book.name}::text)) as got`,
  );
  return rowsOf<{ got: boolean }>(result)[0]?.got === true;
}
