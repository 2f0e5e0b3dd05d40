import { eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { supplierBalanceChecks, supplierTopups } from "../../db/schema.ts";
import { assertAmount, bookSupplierTopup, MAX_OPERATION_AMOUNT } from "../wallet/ledger.ts";
import { latestBalanceCheck } from "./balance-check.ts";

// money the owner puts into the supplier account. Each top-up is a row (its window) and a
// ledger transfer keyed by the row, booked in one transaction.

type SupplierTopup = typeof supplierTopups.$inferSelect;

export type TopupResult =
  | { ok: true; topup: SupplierTopup; explainedCheckId: number | null }
  | { ok: false; reason: "not_a_rise" | "already_explained" | "check_not_found" };

/**
 * records a top-up an admin made. When the latest balance check found a rise of exactly
 * this amount that nothing explained (the money arrived before it was recorded), the
 * top-up is dated to that check and explains it; otherwise it takes effect now.
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
  },
): Promise<TopupResult> {
  assertAmount(t.amount, "amount", MAX_OPERATION_AMOUNT);
  const [repeated] = await db.select().from(supplierTopups).where(eq(supplierTopups.key, t.key));
  if (repeated) return { ok: true, topup: repeated, explainedCheckId: repeated.checkId };
  const last = await latestBalanceCheck(db);
  if (last?.status === "drift" && last.drift === t.amount) {
    const explained = await confirmRiseAsTopup(db, {
      key: t.key,
      checkId: last.id,
      note: t.note,
      recordedBy: t.recordedBy,
    });
    if (explained.ok) return explained;
  }
  return db.transaction(async (tx) => {
    const [topup] = await tx
      .insert(supplierTopups)
      .values({
        key: t.key,
        amount: t.amount,
        note: t.note ?? "",
        effectiveAt: t.now,
        recordedBy: t.recordedBy ?? null,
      })
      .onConflictDoNothing({ target: supplierTopups.key })
      .returning();
    if (!topup) {
      // the same command, recorded meanwhile by a concurrent delivery
      const [same] = await tx.select().from(supplierTopups).where(eq(supplierTopups.key, t.key));
      if (!same) throw new Error("the top-up was not stored");
      return { ok: true as const, topup: same, explainedCheckId: same.checkId };
    }
    await bookSupplierTopup(tx, {
      topupId: topup.id,
      amount: topup.amount,
      memo: topup.note,
      actorId: t.recordedBy,
    });
    return { ok: true as const, topup, explainedCheckId: null };
  });
}

/**
 * an admin confirms that a check's unexplained rise was a top-up: recorded as one, dated
 * to the check, once (a second tap finds it explained)
 */
export async function confirmRiseAsTopup(
  db: Database,
  c: {
    checkId: number;
    /** default "check:<id>" */
    key?: string;
    note?: string | undefined;
    recordedBy?: number | undefined;
  },
): Promise<TopupResult> {
  return db.transaction(async (tx) => {
    const [check] = await tx
      .select()
      .from(supplierBalanceChecks)
      .where(eq(supplierBalanceChecks.id, c.checkId))
      .for("update");
    if (!check) return { ok: false as const, reason: "check_not_found" as const };
    if (check.status === "explained") {
      return { ok: false as const, reason: "already_explained" as const };
    }
    if (check.status !== "drift" || check.drift === null || check.drift <= 0) {
      return { ok: false as const, reason: "not_a_rise" as const };
    }
    const [topup] = await tx
      .insert(supplierTopups)
      .values({
        key: c.key ?? `check:${check.id}`,
        amount: check.drift,
        note: c.note ?? "",
        effectiveAt: check.readAt,
        recordedBy: c.recordedBy ?? null,
        checkId: check.id,
      })
      .onConflictDoNothing()
      .returning();
    if (!topup) return { ok: false as const, reason: "already_explained" as const };
    await bookSupplierTopup(tx, {
      topupId: topup.id,
      amount: topup.amount,
      memo: topup.note || `confirmed from balance check ${check.id}`,
      actorId: c.recordedBy,
    });
    await tx
      .update(supplierBalanceChecks)
      .set({ status: "explained", topups: sql`${supplierBalanceChecks.topups} + ${topup.amount}` })
      .where(eq(supplierBalanceChecks.id, check.id));
    return { ok: true as const, topup, explainedCheckId: check.id };
  });
}
