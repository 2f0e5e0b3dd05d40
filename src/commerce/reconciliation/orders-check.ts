import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { orders } from "../../db/schema.ts";
import { SupplierError } from "../../supplier/types.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import { reportIfConflicting } from "../orders/conflicts.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { billStatusBody } from "../orders/resend.ts";
import { supplierOf } from "../orders/routing.ts";
import type { Order } from "../orders/types.ts";

// the daily per-order reconciliation: every order finalised in the last day is asked about
// again (status(ref_id), paced under the supplier's rate limit), and those whose supplier
// status disagrees with kios are flagged and listed to the admins. Nothing moves by itself:
// which side is right is an admin's call (docs/reconciliation.md).

export interface OrderCheckSummary {
  checked: number;
  /** orders kios settled one way and the supplier now tells another (or has no record of) */
  disagreeing: { refId: string; kios: string; supplier: string }[];
  /** orders the supplier could not be asked about this time */
  unanswered: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** the supplier's word on a settled order, as a status or "not found" */
async function supplierWord(deps: OrderEngine, order: Order): Promise<string | undefined> {
  const supplier = supplierOf(deps, order.supplier);
  // a settled order's attempt is never sent again where the check re-sends it (resend.ts)
  if (supplier.statusResends && order.kind !== "bill") return undefined;
  const answer = await supplier.status(
    order.refId,
    supplier.statusResends ? billStatusBody(order) : undefined,
  );
  return answer.found ? answer.transaction.status : "not_found";
}

export async function recheckFinalOrders(
  deps: OrderEngine,
  o: {
    /** the window's end (default now) and length (default a day) */
    until?: Date;
    hours?: number;
    /** requests per second to the supplier (default 5: well under its limit) */
    perSecond?: number;
    /** at most this many orders in one run (default 5,000) */
    limit?: number;
  } = {},
): Promise<OrderCheckSummary> {
  const until = o.until ?? new Date(deps.clock.now());
  const since = new Date(until.getTime() - (o.hours ?? 24) * 3600_000);
  const settled = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        inArray(orders.status, ["success", "failed"]),
        eq(orders.testing, false),
        gt(orders.finalAt, since),
        lte(orders.finalAt, until),
      ),
    )
    .orderBy(orders.finalAt)
    .limit(o.limit ?? 5_000);
  const gapMs = 1000 / (o.perSecond ?? 5);
  const summary: OrderCheckSummary = { checked: 0, disagreeing: [], unanswered: 0 };
  for (const order of settled) {
    // a failed order that never reached the supplier is rightly unknown to it
    const neverSent = order.status === "failed" && order.submittedAt === null;
    if (neverSent) continue;
    let word: string | undefined;
    try {
      word = await supplierWord(deps, order);
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      summary.unanswered += 1;
      continue;
    } finally {
      await sleep(gapMs);
    }
    if (word === undefined) continue;
    summary.checked += 1;
    const agrees = word === order.status || (word === "not_found" && order.status === "failed");
    if (agrees) continue;
    summary.disagreeing.push({ refId: order.refId, kios: order.status, supplier: word });
    if (word === "success" || word === "failed") await reportIfConflicting(deps, order, word);
    else {
      // settled by kios, but the supplier has it pending or no record of it: an admin looks
      await deps.db
        .update(orders)
        .set({ flaggedAt: sql`coalesce(${orders.flaggedAt}, ${until.toISOString()}::timestamptz)` })
        .where(eq(orders.id, order.id));
    }
  }
  const day = until.toISOString().slice(0, 10);
  for (const adminId of deps.adminIds ?? []) {
    if (summary.disagreeing.length === 0 && summary.unanswered === 0) break;
    await enqueueNotification(deps.db, {
      key: `recon:orders:${day}:${adminId}`,
      chatId: adminId,
      payload: {
        type: "orders_rechecked",
        checked: summary.checked,
        unanswered: summary.unanswered,
        disagreeing: summary.disagreeing.slice(0, 20),
        more: Math.max(0, summary.disagreeing.length - 20),
      },
    });
  }
  return summary;
}
