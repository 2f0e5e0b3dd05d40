import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";

// one reconciliation step at a time, across processes: a balance check storing its window,
// a top-up booked or explaining a rise, a reversal. Each reads the latest check and what
// was booked against it, so two of them must never interleave (a rise explained twice).

const RECONCILIATION_LOCK = 7240118207;

/** held until the transaction ends */
export async function lockReconciliation(tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RECONCILIATION_LOCK}::bigint)`);
}
