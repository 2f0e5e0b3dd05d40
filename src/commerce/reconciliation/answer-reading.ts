import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import type { Logger } from "../../logger.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { bookOf, inBook, type SupplierBook } from "./books.ts";
import { tryLockReconciliation } from "./lock.ts";
import { type BalanceCheck, latestBalanceCheck, storeReading } from "./reading.ts";

// A supplier that says its balance in every transaction answer (Digiflazz's
// buyer_last_saldo, in its answers, re-sends and webhooks) gives kios a reading of that
// balance with each: stored as a reconciliation check of that supplier like a balance
// call's (docs/suppliers.md#balance-readings-from-answers), so /balance, the checks, the
// balance guard's estimate and the low-balance alert follow it.
//
// Its time is not in the answer. The supplier read it somewhere between the attempt's
// first send (nothing it says about that transaction is older) and the answer's arrival (a
// re-send may return the stored transaction with the balance of back then), so that is
// the check's window. Answers arrive out of order, so a reading is stored only when it is
// certainly newer than the supplier's latest check: its window opens after that check's
// answer arrived. Anything less certain is dropped (the next reading, or the hourly
// balance call, serves): an older reading never becomes the latest.

export interface AnswerBalance {
  /** whose answer: the attempt's supplier by name (null: the first) */
  supplier: string | null;
  refId: string;
  balance: number;
  /** when the answer arrived */
  at: Date;
}

export interface AnswerReadingDeps {
  db: Database;
  /** the first supplier's name (default "main") */
  firstSupplier?: string | undefined;
  adminIds?: readonly number[] | undefined;
  recon?: { tolerance: number; lowBalance: number } | undefined;
}

/** why a reading was not stored, for the log */
type Skipped = "busy" | "no_attempt" | "testing" | "not_newer" | "topup_inside";

/**
 * stores the balance an answer carried as a reading of its supplier's balance, or says why
 * not. One statement per step, inside one transaction under the supplier's reconciliation
 * lock, taken only if free (a balance check or a top-up booking holds it: skipped).
 */
export async function recordAnswerBalance(
  deps: AnswerReadingDeps,
  a: AnswerBalance,
): Promise<{ check: BalanceCheck } | { skipped: Skipped }> {
  const book: SupplierBook = bookOf(deps.firstSupplier, a.supplier);
  return deps.db.transaction(async (tx) => {
    if (!(await tryLockReconciliation(tx, book))) return { skipped: "busy" as const };
    // the attempt it answers, at that supplier: its first send opens the window, and a
    // top-up recorded inside the window could fall on either side of the reading
    const [attempt] = rowsOf<{ sent_from: string | Date; testing: boolean; topups: boolean }>(
      await tx.execute(sql`
        select greatest(a.created_at, o.submitted_at) as sent_from, o.testing,
          exists (select 1 from supplier_topups t
            where ${inBook("t.supplier", book)} and t.reversed_at is null
              and t.effective_at > greatest(a.created_at, o.submitted_at)
              and t.effective_at <= ${a.at.toISOString()}::timestamptz) as topups
        from order_attempts a join orders o on o.id = a.order_id
        where a.supplier = ${book.name}::text and a.ref_id = ${a.refId}
        limit 1`),
    );
    if (!attempt) return { skipped: "no_attempt" as const };
    // a test order moves no money; what its answer says of the balance is not trusted
    if (attempt.testing) return { skipped: "testing" as const };
    if (attempt.topups) return { skipped: "topup_inside" as const };
    const sentFrom = new Date(attempt.sent_from);
    const previous = await latestBalanceCheck(tx, book);
    if (sentFrom.getTime() > a.at.getTime()) return { skipped: "not_newer" as const };
    if (previous && previous.readAt.getTime() > sentFrom.getTime()) {
      return { skipped: "not_newer" as const };
    }
    const check = await storeReading(
      tx,
      {
        book,
        tolerance: deps.recon?.tolerance ?? 0,
        lowBalance: deps.recon?.lowBalance ?? 0,
        adminIds: deps.adminIds ?? [],
        lowOnCrossing: true,
      },
      { balance: a.balance, requestedAt: sentFrom, readAt: a.at, source: "answer", refId: a.refId },
      previous,
    );
    return { check };
  });
}

/**
 * the order path's hook: records the balance an answer carried, if any. Never throws: a
 * reading is a by-product of the answer and must not change how its order goes
 */
export async function noteAnswerBalance(
  deps: Pick<OrderEngine, "db" | "firstSupplier" | "adminIds" | "recon" | "jobs" | "clock"> & {
    logger: Logger;
  },
  supplier: string | null,
  refId: string,
  balance: number | undefined,
): Promise<void> {
  if (balance === undefined) return;
  try {
    const stored = await recordAnswerBalance(deps, {
      supplier,
      refId,
      balance,
      at: new Date(deps.clock.now()),
    });
    if (!("check" in stored)) {
      deps.logger.debug({ refId, skipped: stored.skipped }, "answer's balance not recorded");
    } else if (stored.check.status === "drift" || balance < (deps.recon?.lowBalance ?? 0)) {
      // an admin is told
      await deps.jobs?.kickNotifications();
    }
  } catch (err) {
    deps.logger.warn({ err, refId }, "recording an answer's balance failed");
  }
}
