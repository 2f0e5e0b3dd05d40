import { and, desc, eq, gte, ne } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders } from "../../db/schema.ts";
import { startOfDayWib } from "./queries.ts";

// the repeat rule (docs/resellers.md#same-number-same-product-same-day): a second purchase
// of the same product for the same destination on the same day in WIB is asked about before
// it is sent. A failed order does not count (nothing was bought); H2H keeps its own ref_id rule.

/** when this user last bought this product for this destination today (WIB), if they did */
export async function boughtToday(
  db: Executor,
  q: { userId: number; productCode: string; destination: string; now: number },
): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: orders.createdAt })
    .from(orders)
    .where(
      and(
        eq(orders.userId, q.userId),
        eq(orders.productCode, q.productCode),
        eq(orders.destination, q.destination),
        ne(orders.status, "failed"),
        eq(orders.testing, false),
        gte(orders.createdAt, startOfDayWib(new Date(q.now))),
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row?.at;
}
