import { desc, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { supplierBalanceChecks } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import { alertLowBalance } from "../supplier-balance/low-balance.ts";
import { bookKey, bookOf, inBook, type SupplierBook } from "./books.ts";
import { inFlightPart, withinBand } from "./in-flight.ts";

// one reading of a supplier's balance stored as a reconciliation check (balance-check.ts
// explains the figures): from its balance call (cek-saldo) or from the balance a
// transaction answer carried (answer-reading.ts). Nothing here sends anything, so the
// order path may store a reading without importing the checks that settle orders.

export type BalanceCheck = typeof supplierBalanceChecks.$inferSelect;

interface WindowFigures {
  openCount: number;
  openCost: number;
  openAttemptIds: number[];
  successCount: number;
  successCost: number;
  topups: number;
}

/**
 * what orders settled between the balance request and its answer may have moved on either
 * side of the reading: a success may not have arrived yet (the reading may be higher), a
 * failure may not be refunded yet (the reading may be lower)
 */
async function settledBetween(
  exec: Executor,
  book: SupplierBook,
  requestedAt: Date,
  readAt: Date,
): Promise<{ successCost: number; failureCost: number }> {
  const from = requestedAt.toISOString();
  const to = readAt.toISOString();
  // a rejected attempt is not here: nothing was formed, so nothing to refund either side
  const result = await exec.execute(sql`
    select
      coalesce(sum(coalesce(o.supplier_price, a.cost)) filter (where a.status = 'success'), 0)
        as success_cost,
      coalesce(sum(a.cost) filter (where a.status = 'failed'), 0) as failure_cost
    from order_attempts a join orders o on o.id = a.order_id
    where a.supplier = ${book.name}::text and not o.testing and o.submitted_at is not null
      and a.final_at > ${from}::timestamptz and a.final_at <= ${to}::timestamptz`);
  const row = rowsOf(result)[0] ?? {};
  return { successCost: toNumber(row.success_cost), failureCost: toNumber(row.failure_cost) };
}

/**
 * when an attempt went to its supplier: the order's send for its first attempt (stored with
 * the order, sent just after), the attempt's own time for a re-route (sent as it is opened)
 */
export const SENT_AT = sql.raw("greatest(a.created_at, o.submitted_at)");

/**
 * what kios recorded at the book's supplier for the window from the check before
 * (`previous`, undefined: from the start) to `at`. Its attempts: open at `at` (sent, not
 * final: counted as charged), or successful in the window (at what the supplier said it
 * charged, else the route's cost). A rejected or failed attempt was never charged, or was
 * refunded.
 *
 * An attempt's final time is stamped before its transaction commits (often when its
 * status check began), so the check before may have counted as open an attempt whose final
 * time is older than that check: the window then holds the attempts that check counted open
 * by id, whatever time their final carries, so each is settled once.
 */
async function windowFigures(
  exec: Executor,
  book: SupplierBook,
  previous: Pick<BalanceCheck, "readAt" | "openAttemptIds"> | undefined,
  at: Date,
): Promise<WindowFigures> {
  const from = previous?.readAt.toISOString() ?? null;
  const to = at.toISOString();
  const before = `{${(previous?.openAttemptIds ?? []).join(",")}}`;
  const result = await exec.execute(sql`
    select
      count(*) filter (where open) as open_count,
      coalesce(sum(cost) filter (where open), 0) as open_cost,
      coalesce(array_agg(id order by id) filter (where open), '{}') as open_ids,
      count(*) filter (where succeeded) as success_count,
      coalesce(sum(coalesce(supplier_price, cost)) filter (where succeeded), 0) as success_cost,
      (select coalesce(sum(amount), 0) from supplier_topups
        where ${inBook("supplier", book)}
          and (${from}::timestamptz is null or effective_at > ${from}::timestamptz)
          and effective_at <= ${to}::timestamptz and reversed_at is null) as topups
    from (
      select a.id, a.cost, o.supplier_price,
        (a.final_at is null or a.final_at > ${to}::timestamptz) as open,
        (a.status = 'success' and a.final_at <= ${to}::timestamptz
          and (${from}::timestamptz is null or a.final_at > ${from}::timestamptz
            or a.id = any(${before}::bigint[]))) as succeeded
      from order_attempts a join orders o on o.id = a.order_id
      where a.supplier = ${book.name}::text and not o.testing and o.submitted_at is not null
        and ${SENT_AT} <= ${to}::timestamptz
        and (a.final_at is null or ${from}::timestamptz is null
          or a.final_at > ${from}::timestamptz or a.id = any(${before}::bigint[]))
    ) o`);
  const row = rowsOf(result)[0] ?? {};
  return {
    openCount: toNumber(row.open_count),
    openCost: toNumber(row.open_cost),
    openAttemptIds: idsOf(row.open_ids),
    successCount: toNumber(row.success_count),
    successCost: toNumber(row.success_cost),
    topups: toNumber(row.topups),
  };
}

/** a bigint[] as either driver gives it (an array, or its text form) */
function idsOf(raw: unknown): number[] {
  if (Array.isArray(raw)) return raw.map((id) => Number(id));
  if (typeof raw === "string") {
    const inner = raw.replace(/^\{|\}$/g, "");
    return inner === "" ? [] : inner.split(",").map((id) => Number(id));
  }
  return [];
}

/** the book's latest check (default: the first supplier's) */
export async function latestBalanceCheck(
  exec: Executor,
  book: SupplierBook = bookOf(undefined),
): Promise<BalanceCheck | undefined> {
  const [last] = await exec
    .select()
    .from(supplierBalanceChecks)
    .where(inBook(supplierBalanceChecks.supplier, book))
    .orderBy(desc(supplierBalanceChecks.id))
    .limit(1);
  return last;
}

/** a balance as the supplier gave it, and the window in which it read it */
export interface BalanceReading {
  balance: number;
  /** the earliest the supplier may have read it (the request, or the attempt's first send) */
  requestedAt: Date;
  /** when its answer arrived: the end of the check's window */
  readAt: Date;
  source: "balance" | "answer";
  /** the answer's ref_id (source answer) */
  refId?: string | undefined;
}

export interface StoreReadingOptions {
  book: SupplierBook;
  /** a difference up to this many rupiah is not drift */
  tolerance: number;
  /** alert below this balance */
  lowBalance: number;
  adminIds: readonly number[];
  /**
   * the low-balance alert only when the reading crosses the line (the check before it was
   * at or above it): readings from answers come with every order, and one alert a crossing
   * is enough. A balance call alerts on every reading below it, as before
   */
  lowOnCrossing?: boolean;
}

/**
 * compares the reading's change since `previous` (the book's latest check, read under the
 * book's reconciliation lock, which the caller holds) with kios's records, stores the check
 * and alerts the admins on drift or a low balance
 */
export async function storeReading(
  tx: Executor,
  o: StoreReadingOptions,
  reading: BalanceReading,
  previous: BalanceCheck | undefined,
): Promise<BalanceCheck> {
  const { book } = o;
  const { balance, requestedAt, readAt } = reading;
  const figures = await windowFigures(tx, book, previous, readAt);
  const between = await settledBetween(tx, book, requestedAt, readAt);
  const band = {
    // open orders may be refunded already or not have arrived yet
    inFlightRise: figures.openCost + between.successCost,
    inFlightFall: between.failureCost,
    tolerance: o.tolerance,
  };
  let computed: Pick<
    BalanceCheck,
    "expectedChange" | "actualChange" | "drift" | "status" | "carried"
  > = { expectedChange: null, actualChange: null, drift: null, status: "baseline", carried: 0 };
  if (previous) {
    const expected = figures.topups - figures.successCost - (figures.openCost - previous.openCost);
    const actual = balance - previous.balance;
    let drift = actual - expected + previous.carried;
    if (previous.status === "baseline") {
      // a baseline has no difference to carry: what was in flight at it is settled here,
      // once, the other way round (what its reading lacked shows now as a fall)
      drift -= inFlightPart(drift, {
        inFlightRise: previous.inFlightFall,
        inFlightFall: previous.inFlightRise,
        tolerance: 0,
      });
    }
    computed = {
      expectedChange: expected,
      actualChange: actual,
      drift,
      status: withinBand(drift, band) ? "ok" : "drift",
      carried: inFlightPart(drift, band),
    };
  }
  const [check] = await tx
    .insert(supplierBalanceChecks)
    .values({
      supplier: bookKey(book),
      readAt,
      requestedAt,
      balance,
      source: reading.source,
      refId: reading.refId ?? null,
      previousId: previous?.id ?? null,
      ...band,
      ...figures,
      ...computed,
    })
    .returning();
  if (!check) throw new Error("the balance check was not stored");
  const low =
    balance < o.lowBalance &&
    (!o.lowOnCrossing || previous === undefined || previous.balance >= o.lowBalance);
  for (const adminId of o.adminIds) {
    if (check.status === "drift") {
      await enqueueNotification(tx, {
        key: `recon:${check.id}:drift:${adminId}`,
        chatId: adminId,
        payload: { type: "supplier_drift", checkId: check.id, supplier: book.name },
      });
    }
    if (low) {
      await alertLowBalance(tx, {
        checkId: check.id,
        known: balance,
        adminId,
        supplier: book.name,
      });
    }
  }
  return check;
}
