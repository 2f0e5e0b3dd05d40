import { eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { receiptSettings } from "../db/schema.ts";

// a reseller's receipts: their own shop name and selling price printed on them (their buyers
// see the reseller's shop, not kios's), and whether each one comes by itself.

export interface ReceiptSettings {
  shopName: string | null;
  markup: number;
  auto: boolean;
}

const NO_RECEIPT_SETTINGS: ReceiptSettings = { shopName: null, markup: 0, auto: false };
export const MAX_RECEIPT_MARKUP = 10_000_000;
export const MAX_RECEIPT_NAME = 40;

export async function receiptSettingsOf(db: Executor, userId: number): Promise<ReceiptSettings> {
  const [row] = await db.select().from(receiptSettings).where(eq(receiptSettings.userId, userId));
  return row ? { shopName: row.shopName, markup: row.markup, auto: row.auto } : NO_RECEIPT_SETTINGS;
}

/** changes some of a user's settings, keeping the others */
export async function setReceiptSettings(
  db: Executor,
  userId: number,
  change: Partial<ReceiptSettings>,
): Promise<ReceiptSettings> {
  const [row] = await db
    .insert(receiptSettings)
    .values({ userId, ...NO_RECEIPT_SETTINGS, ...change })
    .onConflictDoUpdate({
      target: receiptSettings.userId,
      set: { ...change, updatedAt: sql`now()` },
    })
    .returning();
  return { shopName: row!.shopName, markup: row!.markup, auto: row!.auto };
}
