import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders, type UplineMargin, users } from "../../db/schema.ts";

// a margin is earned by a reseller: an upline demoted since the order was quoted (or while
// it was pending) earns nothing more from that moment (design rule 19). Their part stays
// with the shop, and the order keeps the margins its capture paid, so `kios ledger verify`
// still finds price = cost + the shop's margin + the uplines' margins.

/** the order's margins owed at its capture, now: those of uplines who are still resellers */
export async function marginsEarned(
  tx: Executor,
  order: { id: number; margins: readonly UplineMargin[] },
): Promise<readonly UplineMargin[]> {
  if (order.margins.length === 0) return order.margins;
  const still = await tx
    .select({ id: users.telegramId })
    .from(users)
    .where(
      and(
        inArray(
          users.telegramId,
          order.margins.map((m) => m.userId),
        ),
        eq(users.tier, "reseller"),
      ),
    );
  const resellers = new Set(still.map((r) => r.id));
  const kept = order.margins.filter((m) => resellers.has(m.userId));
  if (kept.length === order.margins.length) return order.margins;
  await tx.update(orders).set({ margins: kept }).where(eq(orders.id, order.id));
  return kept;
}
