import { and, eq, inArray } from "drizzle-orm";
import { orders } from "../../db/schema.ts";
import type { OrderEngine } from "./engine.ts";
import { resolveOrder } from "./resolve.ts";
import { finaliseOrder } from "./transitions.ts";
import { isFinal, type Order } from "./types.ts";

export type Decision = "refund" | "wait";

export type DecisionResult =
  | { ok: true; order: Order }
  /** settled meanwhile, or the supplier now knows the order: nothing was decided */
  | { ok: false; reason: "settled" | "supplier_knows" | "not_found"; order?: Order };

/**
 * an admin's decision on an order the supplier has no record of, where nothing bounds when
 * it may still make it (the key interface): refund it, or keep waiting. The supplier is
 * asked once more first; whoever decided, and when, is recorded on the order.
 */
export async function decideOrder(
  deps: OrderEngine,
  d: { orderId: number; adminId: number; decision: Decision },
): Promise<DecisionResult> {
  const before = await resolveOrder(deps, d.orderId);
  if (!before) return { ok: false, reason: "not_found" };
  if (isFinal(before.status)) return { ok: false, reason: "settled", order: before };
  const now = new Date(deps.clock.now());
  if (d.decision === "wait") {
    const [order] = await deps.db
      .update(orders)
      .set({ decision: "wait", decidedBy: d.adminId, decidedAt: now, updatedAt: now })
      .where(
        and(eq(orders.id, d.orderId), inArray(orders.status, ["submitted", "unknown", "pending"])),
      )
      .returning();
    return order ? { ok: true, order } : { ok: false, reason: "settled" };
  }
  // the status check above leaves an order the supplier answered for as pending
  if (before.status === "pending") return { ok: false, reason: "supplier_knows", order: before };
  const order = await deps.db.transaction(async (tx) => {
    const moved = await finaliseOrder(
      tx,
      before,
      {
        status: "failed",
        reason: `refunded by admin ${d.adminId}: the supplier has no record of it`,
        supplierCode: "TRANSACTION_NOT_FOUND",
      },
      now,
      true,
      { from: [before.status], onFinal: deps.onOrderFinal },
    );
    if (!moved) return undefined;
    const [decided] = await tx
      .update(orders)
      .set({ decision: "refund", decidedBy: d.adminId, decidedAt: now })
      .where(eq(orders.id, moved.id))
      .returning();
    return decided;
  });
  await deps.jobs?.kickNotifications();
  return order ? { ok: true, order } : { ok: false, reason: "settled" };
}
