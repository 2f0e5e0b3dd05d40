import { and, count, eq, gte, max, ne, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders, quotes } from "../../db/schema.ts";
import { startOfDayWib } from "./queries.ts";
import type { BoughtToday, SameDayPurchases } from "./types.ts";

// the repeat rule (docs/orders.md#same-product-same-destination-same-day): a second purchase
// of the same product for the same destination on the same day in WIB is asked about before
// it is sent. A failed order does not count (nothing was bought), nor a test order. The card
// (its quote) keeps how many it asked about; Pay, in the statement that stores the order,
// refuses it when more are stored by then. H2H keeps its own rule: one ref_id, one order.

interface SameDayQuery {
  userId: number;
  productCode: string;
  destination: string;
  now: number;
}

/** the rule's condition: values, or placeholders of a statement built once (db/built-once.ts) */
interface SameDayCondition {
  userId: number | SQL;
  productCode: string | SQL;
  destination: string | SQL;
  /** the start of today in WIB */
  since: Date | SQL;
}

const conditionOf = (q: SameDayQuery): SameDayCondition => ({
  userId: q.userId,
  productCode: q.productCode,
  destination: q.destination,
  since: startOfDayWib(new Date(q.now)),
});

/** the orders the rule counts: the buyer's, of this product for this destination, today */
function sameDayWhere(q: SameDayCondition): SQL | undefined {
  return and(
    eq(orders.userId, q.userId),
    eq(orders.productCode, q.productCode),
    eq(orders.destination, q.destination),
    ne(orders.status, "failed"),
    eq(orders.testing, false),
    gte(orders.createdAt, q.since),
  );
}

/** what this user bought of this product for this destination today (WIB), if anything */
export async function sameDayPurchases(
  db: Executor,
  q: SameDayQuery,
): Promise<SameDayPurchases | undefined> {
  const [row] = await db
    .select({ count: count(), last: max(orders.createdAt) })
    .from(orders)
    .where(sameDayWhere(conditionOf(q)));
  return row?.last ? { count: row.count, last: row.last } : undefined;
}

/**
 * the rule's lock, as a column of Pay's statement that reads the quote (no round trip of its
 * own): one buyer's Pays of one product for one destination, whatever card, chat, app or
 * process they come from, pass one at a time from here to their commit. Only those: other
 * buyers, and the same buyer's other purchases, take other keys (a collision of the 64-bit
 * hash only makes two Pays wait for each other). Held to the transaction's end
 */
export const sameDayLockColumn = sql<unknown>`pg_advisory_xact_lock(hashtextextended(
  'kios:same-day:' || ${quotes.userId}::text || ':' || ${quotes.productCode} || ':' || ${quotes.destination},
  0))`;

/**
 * the rule's count as columns of Pay's statement that stores the order (no round trip of
 * its own). That statement comes after the one that took the rule's lock with the quote
 * (sameDayLockColumn), so its snapshot holds every Pay of this purchase committed before
 * this one, and two cards paid at once are counted one after the other; the order being
 * stored is not in it
 */
export function sameDayColumns(q: SameDayCondition) {
  const today = sql`(select count(*) from ${orders} where ${sameDayWhere(q)})`;
  const last = sql`(select max(${orders.createdAt}) from ${orders} where ${sameDayWhere(q)})`;
  return {
    sameDayCount: sql<number>`${today}`.mapWith(Number),
    sameDayLast: sql<Date | null>`${last}`.mapWith(orders.createdAt),
  };
}

/** where the rule's day starts for a Pay at `now` (its statement's `since`) */
export const sameDaySince = (now: number): Date => startOfDayWib(new Date(now));

/** the refusal of a Pay whose card allowed fewer of today's purchases than are stored */
export function unconfirmedRepeat(
  allowed: number | null,
  found: { sameDayCount: number; sameDayLast: Date | null },
): BoughtToday | undefined {
  if (allowed === null || found.sameDayCount <= allowed || !found.sameDayLast) return undefined;
  return { ok: false, reason: "bought_today", count: found.sameDayCount, at: found.sameDayLast };
}
