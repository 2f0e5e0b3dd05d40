import { eq, sql } from "drizzle-orm";
import { orders } from "../../db/schema.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import type { OrderEngine } from "./engine.ts";
import { isFinal, type Order } from "./types.ts";

/**
 * the supplier's final word differs from how kios settled the order, e.g. a Success after
 * kios refunded: money the shop paid and the buyer kept. Nothing moves by itself (the
 * ledger is settled once); the order is flagged and every admin told, once per order.
 */
export async function reportIfConflicting(
  deps: OrderEngine,
  order: Order,
  supplierStatus: "success" | "failed",
): Promise<boolean> {
  if (!isFinal(order.status) || order.status === supplierStatus) return false;
  deps.logger.error(
    { orderId: order.id, refId: order.refId, kios: order.status, supplier: supplierStatus },
    "the supplier's final state contradicts the settled order",
  );
  await deps.db.transaction(async (tx) => {
    await tx
      .update(orders)
      .set({ flaggedAt: sql`coalesce(${orders.flaggedAt}, now())` })
      .where(eq(orders.id, order.id));
    for (const adminId of deps.adminIds ?? []) {
      await enqueueNotification(tx, {
        key: `order:${order.id}:conflict:${adminId}`,
        chatId: adminId,
        payload: { type: "order_conflict", orderId: order.id, supplierStatus },
      });
    }
  });
  await deps.jobs?.kickNotifications();
  return true;
}
