import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { h2hKeys, h2hOrders, orders } from "../../db/schema.ts";

// what the chat shows of H2H orders (docs/h2h.md#chat): a reseller's server may send
// thousands, so each result comes to the chat only when the key asks for it.

/** true when this order came over H2H and its key does not want results in the chat */
export async function h2hResultMuted(db: Executor, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ chatResults: h2hKeys.chatResults })
    .from(orders)
    .innerJoin(h2hOrders, eq(h2hOrders.quoteId, orders.confirmKey))
    .innerJoin(h2hKeys, eq(h2hKeys.id, h2hOrders.keyId))
    .where(eq(orders.id, orderId));
  return row !== undefined && !row.chatResults;
}
