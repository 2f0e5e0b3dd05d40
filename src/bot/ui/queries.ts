import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { products, quotes, users } from "../../db/schema.ts";

// the few reads the bot needs that the commerce modules don't offer (yet)

export interface QuoteSummary {
  id: string;
  kind: "prepaid" | "game" | "bill";
  productCode: string;
  productName: string;
  destination: string;
  price: number;
  expiresAt: Date;
  /** an admin's test quote: its fresh quote must be a test too */
  testing: boolean;
  /** the buyer cancelled the card */
  cancelledAt: Date | null;
}

/** one of this user's quotes (another user's is simply not found) */
export async function findQuote(
  db: Executor,
  quoteId: string,
  userId: number,
): Promise<QuoteSummary | undefined> {
  const [row] = await db
    .select({
      id: quotes.id,
      kind: quotes.kind,
      productCode: quotes.productCode,
      productName: products.name,
      destination: quotes.destination,
      price: quotes.price,
      expiresAt: quotes.expiresAt,
      testing: quotes.testing,
      cancelledAt: quotes.cancelledAt,
    })
    .from(quotes)
    .innerJoin(products, eq(products.code, quotes.productCode))
    .where(and(eq(quotes.id, quoteId), eq(quotes.userId, userId)));
  return row;
}

/** telegram ids of everyone who has not blocked the bot, for broadcasts */
export async function reachableUserIds(db: Executor): Promise<number[]> {
  const rows = await db
    .select({ id: users.telegramId })
    .from(users)
    .where(isNull(users.blockedAt))
    .orderBy(users.telegramId);
  return rows.map((r) => r.id);
}
