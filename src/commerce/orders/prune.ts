import { and, lt, notExists, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders, quotes } from "../../db/schema.ts";

/**
 * forgets confirmation cards that expired before `before` and never became orders: a
 * press on such an old card is answered as a stale button. Orders keep their own copy.
 */
export async function pruneQuotes(exec: Executor, before: Date): Promise<number> {
  const gone = await exec
    .delete(quotes)
    .where(
      and(
        lt(quotes.expiresAt, before),
        notExists(
          exec.select({ one: sql`1` }).from(orders).where(sql`${orders.confirmKey} = ${quotes.id}`),
        ),
      ),
    )
    .returning({ id: quotes.id });
  return gone.length;
}
