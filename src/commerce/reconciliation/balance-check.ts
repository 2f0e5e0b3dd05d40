import type { Clock } from "@kios/kit";
import { and, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { orders as ordersTable, supplierBalanceChecks } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import type { Supplier } from "../../supplier/types.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { resolveOrder } from "../orders/resolve.ts";
import { alertLowBalance } from "../supplier-balance/low-balance.ts";
import { bookKey, bookOf, inBook, type SupplierBook } from "./books.ts";
import { inFlightPart, withinBand } from "./in-flight.ts";
import { lockReconciliation } from "./lock.ts";

// Balance reconciliation (docs/reconciliation.md). The supplier takes an order's price when
// the order arrives and gives it back when the order fails (its document: "failed; balance
// is refunded"). So between two readings of its balance, kios expects the balance to move by
//   top-ups recorded in the window
//   − the cost of orders that became successful in the window
//   − the growth of what is still open (sent, not final: charged, maybe to be refunded)
// and whatever else moved it is drift. Open orders are counted as charged and listed apart.
// The supplier reads its balance somewhere between kios's request and its answer: orders in
// flight then (open, or settled in between) may fall on either side of the reading. They
// bound how far the reading may stray (in-flight.ts); a difference inside that bound is not
// reported but carried to the next check, which reports it unless those orders resolved it.
// Each supplier is checked on its own (books.ts): its readings, its top-ups, and what was
// charged AT IT, read from the order attempts (an attempt it rejected formed no transaction
// there, so an order re-routed from it is counted only where it went).

export type BalanceCheck = typeof supplierBalanceChecks.$inferSelect;

export interface BalanceCheckDeps {
  db: Database;
  supplier: Pick<Supplier, "balance">;
  /** whose balance `supplier` reads (default: the first supplier, "main") */
  book?: SupplierBook | undefined;
  clock: Clock;
  /** a difference up to this many rupiah is not drift (default 0) */
  tolerance?: number;
  /** alert below this balance, before an order finds it short (default 0: only then) */
  lowBalance?: number;
  /** who is told about drift and a low balance */
  adminIds?: readonly number[];
  /**
   * asks the supplier about kios's open orders before the reading (settleOpenOrders): an
   * order the supplier has failed and refunded, but whose news has not reached kios yet,
   * would otherwise look like money appearing
   */
  settleOpen?: () => Promise<void>;
}

interface WindowFigures {
  openCount: number;
  openCost: number;
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
const SENT_AT = sql.raw("greatest(a.created_at, o.submitted_at)");

/**
 * what kios recorded at the book's supplier for the window (after, at]: `after` undefined
 * means from the start. Its attempts: open at `at` (sent, not final: counted as charged), or
 * successful in the window (at what the supplier said it charged, else the route's cost).
 * A rejected or failed attempt was never charged, or was refunded.
 */
async function windowFigures(
  exec: Executor,
  book: SupplierBook,
  after: Date | undefined,
  at: Date,
): Promise<WindowFigures> {
  const from = after?.toISOString() ?? null;
  const to = at.toISOString();
  const result = await exec.execute(sql`
    select
      count(*) filter (where open) as open_count,
      coalesce(sum(cost) filter (where open), 0) as open_cost,
      count(*) filter (where succeeded) as success_count,
      coalesce(sum(coalesce(supplier_price, cost)) filter (where succeeded), 0) as success_cost,
      (select coalesce(sum(amount), 0) from supplier_topups
        where ${inBook("supplier", book)}
          and (${from}::timestamptz is null or effective_at > ${from}::timestamptz)
          and effective_at <= ${to}::timestamptz and reversed_at is null) as topups
    from (
      select a.cost, o.supplier_price,
        (a.final_at is null or a.final_at > ${to}::timestamptz) as open,
        (a.status = 'success' and a.final_at <= ${to}::timestamptz
          and (${from}::timestamptz is null or a.final_at > ${from}::timestamptz)) as succeeded
      from order_attempts a join orders o on o.id = a.order_id
      where a.supplier = ${book.name}::text and not o.testing and o.submitted_at is not null
        and ${SENT_AT} <= ${to}::timestamptz
        and (a.final_at is null or ${from}::timestamptz is null
          or a.final_at > ${from}::timestamptz)
    ) o`);
  const row = rowsOf(result)[0] ?? {};
  return {
    openCount: toNumber(row.open_count),
    openCost: toNumber(row.open_cost),
    successCount: toNumber(row.success_count),
    successCost: toNumber(row.success_cost),
    topups: toNumber(row.topups),
  };
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

export async function findBalanceCheck(
  exec: Executor,
  id: number,
): Promise<BalanceCheck | undefined> {
  const [check] = await exec
    .select()
    .from(supplierBalanceChecks)
    .where(eq(supplierBalanceChecks.id, id));
  return check;
}

/**
 * reads the supplier balance, compares its change since the last check with kios's
 * records, stores the check and alerts the admins on drift or a low balance.
 */
export async function checkSupplierBalance(deps: BalanceCheckDeps): Promise<BalanceCheck> {
  await deps.settleOpen?.();
  const requestedAt = new Date(deps.clock.now());
  const { balance } = await deps.supplier.balance();
  // the window ends when the answer arrived: what kios sent before it is counted as charged,
  // and what was in flight since the request bounds how far that may be off
  const readAt = new Date(deps.clock.now());
  const tolerance = deps.tolerance ?? 0;
  const book = deps.book ?? bookOf(undefined);
  return deps.db.transaction(async (tx) => {
    // one check of this supplier at a time: the window of each starts where the one before ended
    await lockReconciliation(tx, book);
    const previous = await latestBalanceCheck(tx, book);
    const figures = await windowFigures(tx, book, previous?.readAt, readAt);
    const between = await settledBetween(tx, book, requestedAt, readAt);
    const band = {
      // open orders may be refunded already or not have arrived yet
      inFlightRise: figures.openCost + between.successCost,
      inFlightFall: between.failureCost,
      tolerance,
    };
    let computed: Pick<
      BalanceCheck,
      "expectedChange" | "actualChange" | "drift" | "status" | "carried"
    > = { expectedChange: null, actualChange: null, drift: null, status: "baseline", carried: 0 };
    if (previous) {
      const expected =
        figures.topups - figures.successCost - (figures.openCost - previous.openCost);
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
        previousId: previous?.id ?? null,
        ...band,
        ...figures,
        ...computed,
      })
      .returning();
    if (!check) throw new Error("the balance check was not stored");
    for (const adminId of deps.adminIds ?? []) {
      if (check.status === "drift") {
        await enqueueNotification(tx, {
          key: `recon:${check.id}:drift:${adminId}`,
          chatId: adminId,
          payload: { type: "supplier_drift", checkId: check.id, supplier: book.name },
        });
      }
      if (balance < (deps.lowBalance ?? 0)) {
        await alertLowBalance(tx, {
          checkId: check.id,
          known: balance,
          adminId,
          supplier: book.name,
        });
      }
    }
    return check;
  });
}

/** the most open orders one check asks the supplier about before reading its balance */
const SETTLE_BEFORE_CHECK = 200;

/**
 * brings kios's open orders up to date with the supplier (a status check each, through the
 * usual path, a few at a time) so that a check's "open" are orders still open at the supplier
 */
export async function settleOpenOrders(
  orders: OrderEngine,
  concurrency = 5,
  /** only the orders whose current attempt is at this supplier (default: all) */
  book?: SupplierBook,
): Promise<void> {
  const atBook = !book
    ? undefined
    : book.first
      ? or(isNull(ordersTable.supplier), eq(ordersTable.supplier, book.name))
      : eq(ordersTable.supplier, book.name);
  const open = await orders.db
    .select({ id: ordersTable.id })
    .from(ordersTable)
    .where(
      and(
        inArray(ordersTable.status, ["submitted", "pending", "unknown"]),
        eq(ordersTable.testing, false),
        atBook,
      ),
    )
    .orderBy(ordersTable.id)
    .limit(SETTLE_BEFORE_CHECK);
  let next = 0;
  const lane = async () => {
    while (next < open.length) {
      const { id } = open[next++]!;
      try {
        await resolveOrder(orders, id);
      } catch (err) {
        // an order the supplier can't answer about now stays open: counted as charged
        orders.logger.warn({ err, orderId: id }, "status check before a balance check failed");
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

export interface WindowOrder {
  refId: string;
  productCode: string;
  cost: number;
  status: string;
}

/** the orders behind a check's figures (successful in its window, or open at its end) */
export async function ordersOfCheck(
  exec: Executor,
  check: BalanceCheck,
  /** the first supplier's name: a check stored with a null supplier is its */
  firstName = bookOf(undefined).name,
  limit = 10,
): Promise<WindowOrder[]> {
  const previous = check.previousId ? await findBalanceCheck(exec, check.previousId) : undefined;
  const from = previous?.readAt.toISOString() ?? null;
  const to = check.readAt.toISOString();
  // the check's supplier by name, as its attempts store it
  const name = check.supplier ?? firstName;
  const result = await exec.execute(sql`
    select a.ref_id, o.product_code,
      case when a.status = 'success' then coalesce(o.supplier_price, a.cost) else a.cost end
        as cost,
      case when a.final_at is null or a.final_at > ${to}::timestamptz then 'open'
        else a.status end as status
    from order_attempts a join orders o on o.id = a.order_id
    where a.supplier = ${name}::text and not o.testing and o.submitted_at is not null
      and ${SENT_AT} <= ${to}::timestamptz
      and (a.final_at is null or a.final_at > ${to}::timestamptz
        or (a.status = 'success'
          and (${from}::timestamptz is null or a.final_at > ${from}::timestamptz)))
    order by ${SENT_AT} desc
    limit ${limit}`);
  return rowsOf(result).map((r) => ({
    refId: String(r.ref_id),
    productCode: String(r.product_code),
    cost: toNumber(r.cost),
    status: String(r.status),
  }));
}
