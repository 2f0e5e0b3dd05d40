import { sha256Hex } from "@kios/kit";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { supplierReports } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { getOrderByRef } from "../orders/queries.ts";
import { resolveOrder } from "../orders/resolve.ts";
import { firstSupplierName } from "../orders/routing.ts";

/**
 * the report's INSERT, built once per database handle (drizzle's .prepare()): the route
 * runs it for every report, and building the statement's text each time was a tenth of the
 * web process's CPU under a burst of reports
 */
const storeStatements = new WeakMap<Executor, ReturnType<typeof storeStatement>>();
const storeStatement = (exec: Executor) =>
  exec
    .insert(supplierReports)
    .values({
      bodyHash: sql.placeholder("bodyHash"),
      supplier: sql.placeholder("supplier"),
      refId: sql.placeholder("refId"),
      reportedStatus: sql.placeholder("reportedStatus"),
      rawBody: sql.placeholder("rawBody"),
    })
    .onConflictDoNothing({ target: supplierReports.bodyHash })
    .returning({ id: supplierReports.id })
    .prepare("store_supplier_report");

/** stores a verified supplier report once; duplicate when this exact body was already received. */
export async function storeSupplierReport(
  exec: Executor,
  r: { rawBody: string; supplier?: string | undefined; refId: string; reportedStatus: string },
): Promise<{ id: number; duplicate: boolean }> {
  const bodyHash = sha256Hex(r.rawBody);
  let statement = storeStatements.get(exec);
  if (!statement) {
    statement = storeStatement(exec);
    storeStatements.set(exec, statement);
  }
  const [row] = await statement.execute({
    bodyHash,
    supplier: r.supplier ?? null,
    refId: r.refId,
    reportedStatus: r.reportedStatus,
    rawBody: r.rawBody,
  });
  if (row) return { id: row.id, duplicate: false };
  const [existing] = await exec
    .select({ id: supplierReports.id })
    .from(supplierReports)
    .where(eq(supplierReports.bodyHash, bodyHash));
  return { id: existing!.id, duplicate: true };
}

/** a stored report claimed to be acted on */
export interface ClaimedSupplierReport {
  id: number;
  /** the supplier whose path it came by (null: the first's) */
  supplier: string | null;
  refId: string;
  /** what the report says of it (success, failed, pending) */
  reportedStatus: string;
  /** the order of the attempt its supplier knows that ref_id for (null: none found) */
  orderId: number | null;
  /** this claim included */
  attempts: number;
}

/**
 * the order whose attempt at the report's supplier has its ref_id, as a column of the
 * query that reads the report (r): the first supplier's path names a null supplier
 */
const attemptOrderOf = (firstSupplier: string) => sql`(
  select a.order_id from order_attempts a
  where a.supplier = coalesce(r.supplier, ${firstSupplier}::text) and a.ref_id = r.ref_id)`;

const orderIdOf = (v: unknown): number | null =>
  v === null || v === undefined ? null : toNumber(v);

/**
 * claims up to `limit` stored reports not acted on yet for `worker`, oldest first; rows
 * another worker holds (or has locked this instant) are skipped, never waited for
 */
export async function claimSupplierReports(
  exec: Executor,
  o: {
    worker: string;
    limit: number;
    leaseMs: number;
    /** the first supplier's name (its reports come with a null supplier) */
    firstSupplier: string;
  },
): Promise<ClaimedSupplierReport[]> {
  const result = await exec.execute(sql`
    with free as (
      select id from supplier_reports
      where processed_at is null and (claimed_until is null or claimed_until < now())
      order by id
      limit ${o.limit}
      for update skip locked
    )
    update supplier_reports r
    set claimed_by = ${o.worker},
        claimed_until = now() + make_interval(secs => ${o.leaseMs / 1000}),
        attempts = r.attempts + 1
    from free
    where r.id = free.id
    returning r.id, r.supplier, r.ref_id, r.reported_status, r.attempts,
      ${attemptOrderOf(o.firstSupplier)} as order_id`);
  return rowsOf<{
    id: unknown;
    supplier: unknown;
    ref_id: unknown;
    reported_status: unknown;
    attempts: unknown;
    order_id: unknown;
  }>(result)
    .map((r) => ({
      id: toNumber(r.id),
      supplier: r.supplier === null ? null : String(r.supplier),
      refId: String(r.ref_id),
      reportedStatus: String(r.reported_status),
      orderId: orderIdOf(r.order_id),
      attempts: toNumber(r.attempts),
    }))
    .sort((a, b) => a.id - b.id);
}

/** gives a claimed report back, to be tried again after `delayMs` by any worker */
export async function retrySupplierReport(
  exec: Executor,
  o: { worker: string; id: number; delayMs: number; error: string },
): Promise<void> {
  await exec
    .update(supplierReports)
    .set({
      claimedBy: null,
      claimedUntil: sql`now() + make_interval(secs => ${o.delayMs / 1000})`,
      error: o.error,
    })
    .where(
      and(
        eq(supplierReports.id, o.id),
        eq(supplierReports.claimedBy, o.worker),
        isNull(supplierReports.processedAt),
      ),
    );
}

/** renews the claims of reports still being acted on */
export async function extendSupplierReportClaims(
  exec: Executor,
  o: { worker: string; ids: readonly number[]; leaseMs: number },
): Promise<void> {
  if (o.ids.length === 0) return;
  await exec
    .update(supplierReports)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${o.leaseMs / 1000})` })
    .where(
      and(
        inArray(supplierReports.id, [...o.ids]),
        eq(supplierReports.claimedBy, o.worker),
        isNull(supplierReports.processedAt),
      ),
    );
}

/** the workers that hold live claims on reports now */
export async function supplierReportClaimHolders(exec: Executor): Promise<string[]> {
  const rows = await exec
    .selectDistinct({ worker: supplierReports.claimedBy })
    .from(supplierReports)
    .where(
      sql`${supplierReports.processedAt} is null and ${supplierReports.claimedBy} is not null
          and ${supplierReports.claimedUntil} > now()`,
    );
  return rows.flatMap((r) => (r.worker === null ? [] : [r.worker]));
}

/** frees the claims of workers that are gone, so their reports are acted on at once */
export async function freeSupplierReportClaimsOf(
  exec: Executor,
  workers: readonly string[],
): Promise<number> {
  if (workers.length === 0) return 0;
  const rows = await exec
    .update(supplierReports)
    .set({ claimedBy: null, claimedUntil: null })
    .where(
      and(inArray(supplierReports.claimedBy, [...workers]), isNull(supplierReports.processedAt)),
    )
    .returning({ id: supplierReports.id });
  return rows.length;
}

/**
 * acts on a stored supplier report (design rule 6: evidence, not truth): the order it names is
 * checked with the supplier's /v1/status before anything moves. Acting twice on one report
 * moves nothing twice: the order's settlement is once, whoever asks.
 */
export async function processSupplierReport(
  deps: OrderEngine,
  reportId: number,
  claimed?: Pick<ClaimedSupplierReport, "supplier" | "refId" | "reportedStatus" | "orderId">,
): Promise<string> {
  let report = claimed;
  if (!report) {
    // not claimed by a drain (a test, the CLI): read it, and leave one acted on alone
    const [row] = rowsOf<{
      supplier: unknown;
      ref_id: unknown;
      reported_status: unknown;
      processed_at: unknown;
      outcome: unknown;
      order_id: unknown;
    }>(
      await deps.db.execute(sql`
        select r.supplier, r.ref_id, r.reported_status, r.processed_at, r.outcome,
          ${attemptOrderOf(firstSupplierName(deps))} as order_id
        from supplier_reports r where r.id = ${reportId}`),
    );
    if (!row || row.processed_at !== null) return row ? String(row.outcome) : "missing";
    report = {
      supplier: row.supplier === null ? null : String(row.supplier),
      refId: String(row.ref_id),
      reportedStatus: String(row.reported_status),
      orderId: orderIdOf(row.order_id),
    };
  }
  const orderId = report.orderId ?? (await orderBeforeAttempts(deps, report));
  if (orderId === undefined) {
    await closeSupplierReport(deps.db, reportId, "unknown_ref_id");
    return "unknown_ref_id";
  }
  // the status check reads the order with its lock; a report that settles its order is
  // closed in the settlement's own transaction
  let closed: string | undefined;
  const after = await resolveOrder(deps, orderId, {
    checkSettled: true,
    news: { refId: report.refId, status: report.reportedStatus },
    onSettled: async (tx, order) => {
      closed = `order ${order.status}`;
      await closeSupplierReport(tx, reportId, closed);
    },
  });
  if (closed !== undefined) return closed;
  const outcome = after ? `order ${after.status}` : "order missing";
  await closeSupplierReport(deps.db, reportId, outcome);
  return outcome;
}

/**
 * a report on the first supplier's path whose ref_id no attempt has: an order from before
 * attempts were kept, stored under that ref_id
 */
async function orderBeforeAttempts(
  deps: OrderEngine,
  report: { supplier: string | null; refId: string },
): Promise<number | undefined> {
  const supplier = report.supplier ?? firstSupplierName(deps);
  if (supplier !== firstSupplierName(deps)) return undefined;
  const order = await getOrderByRef(deps.db, report.refId);
  // an order kios sent elsewhere under this ref_id is not this supplier's
  return order && (order.supplier ?? firstSupplierName(deps)) === supplier ? order.id : undefined;
}

/** marks a report acted on, with what came of it */
export async function closeSupplierReport(
  exec: Executor,
  reportId: number,
  outcome: string,
): Promise<void> {
  await exec
    .update(supplierReports)
    .set({ processedAt: sql`now()`, outcome, claimedUntil: null, error: null })
    .where(and(eq(supplierReports.id, reportId), isNull(supplierReports.processedAt)));
}
