import { and, count, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { supplierBalanceChecks, supplierTopups } from "../../db/schema.ts";
import {
  assertAmount,
  bookSupplierTopup,
  MAX_OPERATION_AMOUNT,
  reverseSupplierTopupTransfer,
} from "../wallet/ledger.ts";
import { type BalanceCheck, latestBalanceCheck } from "./balance-check.ts";
import { bookKey, bookOf, inBook, type SupplierBook } from "./books.ts";
import { exactReading, inFlightPart, withinBand } from "./in-flight.ts";
import { lockReconciliation } from "./lock.ts";

// money the owner puts into the supplier account. Each top-up is a row (its window) and a
// ledger transfer keyed by the row, booked in one transaction. A rise a check found is
// explained once, by the check's button or by /supplier_topup, whichever comes first: every
// path takes the reconciliation lock and looks at what is booked before it books.
// Each supplier's top-ups are its own (books.ts): booked to its prepaid account, counted in
// its checks, explaining its rises, under its own lock.

export type SupplierTopup = typeof supplierTopups.$inferSelect;

export type TopupResult =
  | { ok: true; topup: SupplierTopup; explainedCheckId: number | null }
  /** the top-up that is already booked: who recorded it and when */
  | { ok: false; reason: "already_booked"; topup: SupplierTopup }
  | { ok: false; reason: "not_a_rise" | "check_not_found" };

const live = isNull(supplierTopups.reversedAt);

export async function findSupplierTopup(
  exec: Executor,
  id: number,
): Promise<SupplierTopup | undefined> {
  const [topup] = await exec.select().from(supplierTopups).where(eq(supplierTopups.id, id));
  return topup;
}

/** the top-up (not reversed) that explains a check, if one does */
async function explanationOf(tx: Executor, checkId: number): Promise<SupplierTopup | undefined> {
  const [topup] = await tx
    .select()
    .from(supplierTopups)
    .where(and(eq(supplierTopups.checkId, checkId), live));
  return topup;
}

/**
 * the latest check that found a rise, explained or not: the rise an admin's top-up is most
 * likely about, even when checks ran since (they start after it, and do not see it again)
 */
async function latestRise(tx: Executor, book: SupplierBook): Promise<BalanceCheck | undefined> {
  const [check] = await tx
    .select()
    .from(supplierBalanceChecks)
    .where(
      and(
        inBook(supplierBalanceChecks.supplier, book),
        inArray(supplierBalanceChecks.status, ["drift", "explained"]),
        gt(supplierBalanceChecks.drift, 0),
      ),
    )
    .orderBy(desc(supplierBalanceChecks.id))
    .limit(1);
  return check;
}

/**
 * a top-up of this amount already booked: the one that explains the latest rise, or one
 * recorded since the latest check. A second admin recording the same money finds it here.
 */
async function sameTopup(
  tx: Executor,
  book: SupplierBook,
  rise: BalanceCheck | undefined,
  amount: number,
): Promise<SupplierTopup | undefined> {
  if (rise?.status === "explained") {
    const explained = await explanationOf(tx, rise.id);
    if (explained?.amount === amount) return explained;
  }
  const last = await latestBalanceCheck(tx, book);
  const [since] = await tx
    .select()
    .from(supplierTopups)
    .where(
      and(
        inBook(supplierTopups.supplier, book),
        eq(supplierTopups.amount, amount),
        live,
        last ? gt(supplierTopups.effectiveAt, last.readAt) : undefined,
      ),
    )
    .orderBy(desc(supplierTopups.id))
    .limit(1);
  return since;
}

/** books a top-up dated to a check, explaining its rise (the caller holds the lock) */
async function explainCheck(
  tx: Executor,
  book: SupplierBook,
  check: BalanceCheck,
  e: { key: string; amount: number; note?: string | undefined; recordedBy?: number | undefined },
): Promise<TopupResult> {
  const [topup] = await tx
    .insert(supplierTopups)
    .values({
      key: e.key,
      supplier: bookKey(book),
      amount: e.amount,
      note: e.note ?? "",
      effectiveAt: check.readAt,
      recordedBy: e.recordedBy ?? null,
      checkId: check.id,
    })
    .onConflictDoNothing()
    .returning();
  if (!topup) throw new Error(`top-up ${e.key} meets another booking`);
  await bookSupplierTopup(tx, {
    topupId: topup.id,
    amount: topup.amount,
    memo: topup.note || `explains balance check ${check.id}`,
    actorId: e.recordedBy,
    supplier: topup.supplier,
  });
  const latest = await latestBalanceCheck(tx, book);
  await tx
    .update(supplierBalanceChecks)
    .set({
      status: "explained",
      topups: sql`${supplierBalanceChecks.topups} + ${topup.amount}`,
      // what in-flight orders still explain goes on to the next check; a later check
      // already started from this one as it was
      carried:
        latest?.id === check.id
          ? inFlightPart((check.drift ?? 0) - topup.amount, check)
          : undefined,
    })
    .where(eq(supplierBalanceChecks.id, check.id));
  return { ok: true, topup, explainedCheckId: check.id };
}

/** an unexplained rise, as far as a top-up of this amount accounts for it */
function explains(check: BalanceCheck | undefined, amount: number): check is BalanceCheck {
  return (
    check?.status === "drift" &&
    check.drift !== null &&
    check.drift > 0 &&
    withinBand(check.drift - amount, check)
  );
}

/**
 * records a top-up an admin made. When the latest rise a check found is unexplained and
 * this amount accounts for it (the money arrived before it was recorded), the top-up is
 * dated to that check and explains it; otherwise it takes effect now. When a top-up of the
 * same amount is already booked (it explains that rise, or was recorded since the latest
 * check), nothing is booked and the caller is told which, unless `another` says this is a
 * second one.
 */
export async function recordSupplierTopup(
  db: Database,
  t: {
    /** the command's business key: recorded once however often it arrives */
    key: string;
    amount: number;
    note?: string;
    recordedBy?: number | undefined;
    now: Date;
    /** the admin confirmed it is another top-up of the same amount */
    another?: boolean;
    /** into whose account (default: the first supplier's) */
    book?: SupplierBook;
  },
): Promise<TopupResult> {
  assertAmount(t.amount, "amount", MAX_OPERATION_AMOUNT);
  const book = t.book ?? bookOf(undefined);
  return db.transaction(async (tx) => {
    await lockReconciliation(tx, book);
    const [repeated] = await tx.select().from(supplierTopups).where(eq(supplierTopups.key, t.key));
    if (repeated) return { ok: true, topup: repeated, explainedCheckId: repeated.checkId };
    if (!t.another) {
      const rise = await latestRise(tx, book);
      const same = await sameTopup(tx, book, rise, t.amount);
      if (same) return { ok: false, reason: "already_booked", topup: same };
      if (explains(rise, t.amount)) return explainCheck(tx, book, rise, t);
    }
    const [topup] = await tx
      .insert(supplierTopups)
      .values({
        key: t.key,
        supplier: bookKey(book),
        amount: t.amount,
        note: t.note ?? "",
        effectiveAt: t.now,
        recordedBy: t.recordedBy ?? null,
      })
      .returning();
    if (!topup) throw new Error("the top-up was not stored");
    await bookSupplierTopup(tx, {
      topupId: topup.id,
      amount: topup.amount,
      memo: topup.note,
      actorId: t.recordedBy,
      supplier: topup.supplier,
    });
    return { ok: true, topup, explainedCheckId: null };
  });
}

/**
 * an admin confirms that a check's unexplained rise was a top-up: recorded as one, dated
 * to the check, once (a second tap, or a /supplier_topup that came first, is told who
 * booked it). Only for a rise nothing in flight could explain: its amount is exact.
 */
export async function confirmRiseAsTopup(
  db: Database,
  c: {
    checkId: number;
    note?: string | undefined;
    recordedBy?: number | undefined;
    /** the first supplier's name: a check with a null supplier is its */
    firstSupplier?: string | undefined;
  },
): Promise<TopupResult> {
  return db.transaction(async (tx) => {
    // the check names its supplier, and never changes it: its lock is taken before it is read
    const [named] = await tx
      .select({ supplier: supplierBalanceChecks.supplier })
      .from(supplierBalanceChecks)
      .where(eq(supplierBalanceChecks.id, c.checkId));
    if (!named) return { ok: false, reason: "check_not_found" };
    const book = bookOf(c.firstSupplier, named.supplier);
    await lockReconciliation(tx, book);
    const [check] = await tx
      .select()
      .from(supplierBalanceChecks)
      .where(eq(supplierBalanceChecks.id, c.checkId));
    if (!check) return { ok: false, reason: "check_not_found" };
    if (check.status === "explained") {
      const topup = await explanationOf(tx, check.id);
      if (topup) return { ok: false, reason: "already_booked", topup };
    }
    if (check.status !== "drift" || check.drift === null || check.drift <= 0) {
      return { ok: false, reason: "not_a_rise" };
    }
    if (!exactReading(check)) return { ok: false, reason: "not_a_rise" };
    // a rise explained before and reversed since keeps its first key
    const [reversed] = await tx
      .select({ n: count() })
      .from(supplierTopups)
      .where(eq(supplierTopups.checkId, check.id));
    const n = reversed?.n ?? 0;
    return explainCheck(tx, book, check, {
      key: n === 0 ? `check:${check.id}` : `check:${check.id}:${n}`,
      amount: check.drift,
      note: c.note,
      recordedBy: c.recordedBy,
    });
  });
}

export type ReversalResult =
  | { ok: true; topup: SupplierTopup }
  | { ok: false; reason: "already_reversed"; topup: SupplierTopup }
  | { ok: false; reason: "not_found" };

/**
 * undoes a top-up booked in error: a second ledger transfer, keyed to the top-up, moves the
 * money back (both stay in the ledger), and reconciliation stops counting it. A rise it
 * explained is unexplained again.
 */
export async function reverseSupplierTopup(
  db: Database,
  r: {
    topupId: number;
    reversedBy?: number | undefined;
    note?: string;
    now: Date;
    /** the first supplier's name: a top-up with a null supplier is its */
    firstSupplier?: string | undefined;
  },
): Promise<ReversalResult> {
  return db.transaction(async (tx) => {
    // a top-up's supplier never changes: its lock is taken before the row is read again
    const named = await findSupplierTopup(tx, r.topupId);
    if (!named) return { ok: false, reason: "not_found" };
    const book = bookOf(r.firstSupplier, named.supplier);
    await lockReconciliation(tx, book);
    const [topup] = await tx.select().from(supplierTopups).where(eq(supplierTopups.id, r.topupId));
    if (!topup) return { ok: false, reason: "not_found" };
    if (topup.reversedAt) return { ok: false, reason: "already_reversed", topup };
    const [reversed] = await tx
      .update(supplierTopups)
      .set({ reversedAt: r.now, reversedBy: r.reversedBy ?? null })
      .where(eq(supplierTopups.id, topup.id))
      .returning();
    if (!reversed) throw new Error(`top-up ${topup.id} vanished`);
    await reverseSupplierTopupTransfer(tx, {
      topupId: topup.id,
      amount: topup.amount,
      memo: r.note || `reverses supplier top-up ${topup.id}`,
      actorId: r.reversedBy,
      supplier: topup.supplier,
    });
    if (topup.checkId !== null) await unexplain(tx, book, topup);
    return { ok: true, topup: reversed };
  });
}

/** the check a reversed top-up explained finds its rise unexplained again */
async function unexplain(tx: Executor, book: SupplierBook, topup: SupplierTopup): Promise<void> {
  const [check] = await tx
    .select()
    .from(supplierBalanceChecks)
    .where(eq(supplierBalanceChecks.id, topup.checkId ?? -1));
  if (check?.status !== "explained") return;
  const latest = await latestBalanceCheck(tx, book);
  await tx
    .update(supplierBalanceChecks)
    .set({
      status: "drift",
      topups: sql`${supplierBalanceChecks.topups} - ${topup.amount}`,
      // a later check already started from this one as it was
      carried: latest?.id === check.id ? inFlightPart(check.drift ?? 0, check) : undefined,
    })
    .where(eq(supplierBalanceChecks.id, check.id));
}
