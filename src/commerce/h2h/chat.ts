import { and, eq, gte, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { h2hKeys, h2hOrders, orders } from "../../db/schema.ts";
import { startOfDayWib } from "../orders/queries.ts";

// what the chat shows of H2H orders (docs/h2h.md#chat): a reseller's server may send
// thousands, so each result comes to the chat only when the key asks for it.

/**
 * true when this order came from a reseller's server whose results stay out of the chat: over
 * H2H with a key that does not ask for them, or through the OtomaX door (its server has the
 * reply and the report; a center key has no such switch). The statement that settles an
 * order queues no result for these (orders/transitions.ts); this is the renderer's own check
 */
export async function h2hResultMuted(db: Executor, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ chatResults: h2hKeys.chatResults, centerKeyId: h2hOrders.centerKeyId })
    .from(orders)
    .innerJoin(h2hOrders, eq(h2hOrders.quoteId, orders.confirmKey))
    .leftJoin(h2hKeys, eq(h2hKeys.id, h2hOrders.keyId))
    .where(eq(orders.id, orderId));
  if (!row) return false;
  return row.centerKeyId !== null || row.chatResults === false;
}

/** what the reseller's H2H orders of today (WIB) cost them, failed ones left out */
export async function todayH2hSpend(db: Executor, userId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${orders.price}), 0)`.mapWith(Number) })
    .from(h2hOrders)
    .innerJoin(orders, eq(orders.confirmKey, h2hOrders.quoteId))
    .where(
      and(
        eq(h2hOrders.userId, userId),
        eq(orders.testing, false),
        gte(orders.createdAt, startOfDayWib(now)),
        ne(orders.status, "failed"),
      ),
    );
  return row?.total ?? 0;
}
