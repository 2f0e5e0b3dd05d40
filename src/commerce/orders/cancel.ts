import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders, quotes } from "../../db/schema.ts";
import type { Order } from "./types.ts";

export type CancelResult =
  | { state: "cancelled" }
  /** too late: the card was already paid, and its order is shown instead */
  | { state: "ordered"; order: Order }
  | { state: "not_found" };

/**
 * Cancel on a confirmation card voids its quote, in one transaction with the look-up of
 * its order (the quote row is locked, as confirmQuote locks it): after it, a Pay of the
 * same card buys nothing; a card already paid is not cancelled.
 */
export async function cancelQuote(
  exec: Executor,
  c: { quoteId: string; userId: number; now: Date },
): Promise<CancelResult> {
  return exec.transaction(async (tx) => {
    const [quote] = await tx
      .select({ id: quotes.id })
      .from(quotes)
      .where(and(eq(quotes.id, c.quoteId), eq(quotes.userId, c.userId)))
      .for("update");
    if (!quote) return { state: "not_found" };
    const [order] = await tx.select().from(orders).where(eq(orders.confirmKey, quote.id));
    if (order) return { state: "ordered", order };
    await tx
      .update(quotes)
      .set({ cancelledAt: c.now })
      .where(and(eq(quotes.id, quote.id), isNull(quotes.cancelledAt)));
    return { state: "cancelled" };
  });
}
