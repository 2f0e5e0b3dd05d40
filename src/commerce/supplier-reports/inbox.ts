import { sha256Hex } from "@kios/kit";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orderAttempts, supplierReports } from "../../db/schema.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { getOrder, getOrderByRef } from "../orders/queries.ts";
import { resolveOrder } from "../orders/resolve.ts";
import { firstSupplierName } from "../orders/routing.ts";

/** stores a verified supplier report once; duplicate when this exact body was already received. */
export async function storeSupplierReport(
  exec: Executor,
  r: { rawBody: string; supplier?: string | undefined; refId: string; reportedStatus: string },
): Promise<{ id: number; duplicate: boolean }> {
  const bodyHash = sha256Hex(r.rawBody);
  const [row] = await exec
    .insert(supplierReports)
    .values({
      bodyHash,
      supplier: r.supplier ?? null,
      refId: r.refId,
      reportedStatus: r.reportedStatus,
      rawBody: r.rawBody,
    })
    .onConflictDoNothing({ target: supplierReports.bodyHash })
    .returning({ id: supplierReports.id });
  if (row) return { id: row.id, duplicate: false };
  const [existing] = await exec
    .select({ id: supplierReports.id })
    .from(supplierReports)
    .where(eq(supplierReports.bodyHash, bodyHash));
  return { id: existing!.id, duplicate: true };
}

/**
 * acts on a stored supplier report (design rule 6: evidence, not truth): the order it names is
 * checked with the supplier's /v1/status before anything moves.
 */
export async function processSupplierReport(deps: OrderEngine, reportId: number): Promise<string> {
  const [report] = await deps.db
    .select()
    .from(supplierReports)
    .where(eq(supplierReports.id, reportId));
  if (!report || report.processedAt) return report?.outcome ?? "missing";
  const order = await orderOfReport(deps, report);
  let outcome: string;
  if (!order) {
    outcome = "unknown_ref_id";
  } else {
    const after = await resolveOrder(deps, order.id, { checkSettled: true });
    outcome = after ? `order ${after.status}` : "order missing";
  }
  await deps.db
    .update(supplierReports)
    .set({ processedAt: sql`now()`, outcome })
    .where(eq(supplierReports.id, reportId));
  return outcome;
}

/**
 * the order a report is about: by the attempt its supplier knows that ref_id for; a report
 * on the first supplier's path may also name an order from before attempts were kept
 */
async function orderOfReport(
  deps: OrderEngine,
  report: { supplier: string | null; refId: string },
) {
  const supplier = report.supplier ?? firstSupplierName(deps);
  const [attempt] = await deps.db
    .select({ orderId: orderAttempts.orderId })
    .from(orderAttempts)
    .where(and(eq(orderAttempts.supplier, supplier), eq(orderAttempts.refId, report.refId)));
  if (attempt) return getOrder(deps.db, attempt.orderId);
  if (supplier !== firstSupplierName(deps)) return undefined;
  const order = await getOrderByRef(deps.db, report.refId);
  // an order kios sent elsewhere under this ref_id is not this supplier's
  return order && (order.supplier ?? firstSupplierName(deps)) === supplier ? order : undefined;
}

/** the ref_id each of these reports names */
export async function supplierReportRefs(
  exec: Executor,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await exec
    .select({ id: supplierReports.id, refId: supplierReports.refId })
    .from(supplierReports)
    .where(inArray(supplierReports.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.refId]));
}

/** ids of reports received since `since` and not processed yet, oldest first */
export async function unprocessedSupplierReports(exec: Executor, since: Date): Promise<number[]> {
  const rows = await exec
    .select({ id: supplierReports.id })
    .from(supplierReports)
    .where(and(isNull(supplierReports.processedAt), gt(supplierReports.receivedAt, since)))
    .orderBy(supplierReports.id);
  return rows.map((r) => r.id);
}
