import type { Clock } from "@kios/kit";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { orders as ordersTable, supplierBalanceChecks } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import type { Supplier } from "../../supplier/types.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { resolveOrder } from "../orders/resolve.ts";
import { bookOf, type SupplierBook } from "./books.ts";
import { lockReconciliation } from "./lock.ts";
import { type BalanceCheck, latestBalanceCheck, SENT_AT, storeReading } from "./reading.ts";

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

export { type BalanceCheck, latestBalanceCheck } from "./reading.ts";

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
  const book = deps.book ?? bookOf(undefined);
  return deps.db.transaction(async (tx) => {
    // one check of this supplier at a time: the window of each starts where the one before ended
    await lockReconciliation(tx, book);
    const previous = await latestBalanceCheck(tx, book);
    // a reading from an answer stored while this one was on its way, and certainly taken
    // after it (its window opens after this answer arrived), is newer: it stands
    if (previous?.requestedAt && previous.requestedAt.getTime() >= readAt.getTime())
      return previous;
    return storeReading(
      tx,
      {
        book,
        tolerance: deps.tolerance ?? 0,
        lowBalance: deps.lowBalance ?? 0,
        adminIds: deps.adminIds ?? [],
      },
      { balance, requestedAt, readAt, source: "balance" },
      previous,
    );
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
