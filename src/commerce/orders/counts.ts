import { count, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders } from "../../db/schema.ts";
import type { OrderStatus } from "./types.ts";

const OPEN_STATUSES = [
  "created",
  "submitted",
  "unknown",
  "pending",
] as const satisfies OrderStatus[];

/**
 * how many orders are open in each state (every open state present, 0 when none). Read
 * through the partial index of open orders: it costs what is open now, not every order.
 */
export async function openOrderCounts(exec: Executor): Promise<Record<string, number>> {
  const rows = await exec
    .select({ status: orders.status, n: count() })
    .from(orders)
    // the index orders_open's own predicate, written out (not as parameters) so that the
    // planner can match it
    .where(sql`${orders.status} not in ('success', 'failed')`)
    .groupBy(orders.status);
  const out: Record<string, number> = Object.fromEntries(OPEN_STATUSES.map((s) => [s, 0]));
  for (const r of rows) out[r.status] = r.n;
  return out;
}
