import { count } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { ORDER_STATUSES, orders } from "../../db/schema.ts";

/** how many orders are in each status (every status present, 0 when none) */
export async function orderCountsByStatus(exec: Executor): Promise<Record<string, number>> {
  const rows = await exec
    .select({ status: orders.status, n: count() })
    .from(orders)
    .groupBy(orders.status);
  const out: Record<string, number> = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0]));
  for (const r of rows) out[r.status] = r.n;
  return out;
}
