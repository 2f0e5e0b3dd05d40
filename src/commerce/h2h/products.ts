import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import type { ProductType } from "../../supplier/types.ts";
import { closureOf } from "../catalogue/availability.ts";
import { loadPricing, pricesFor } from "../catalogue/prices.ts";
import { onSale, saleCostOf } from "../catalogue/sale.ts";
import { findUser } from "../users.ts";
import { walletBalance } from "../wallet/ledger.ts";

// what a reseller's server reads: their wallet and the catalogue at their price.

export interface H2hProduct {
  code: string;
  name: string;
  category: string;
  brand: string;
  type: ProductType;
  /** the reseller's price (pasca: the admin fee they pay on top of the bill) */
  price: number;
  active: boolean;
  desc: string;
  startCutOff: string | null;
  endCutOff: string | null;
}

/**
 * every listed product of a kind the reseller's tier may buy, at the price /order charges:
 * their uplines' markups included, a bill's admin fee as an inquiry prices it (the same
 * loadPricing + buyerPrice the quote uses, as the chat's and the Mini App's lists do)
 */
export async function productsForReseller(
  db: Executor,
  userId: number,
  type: ProductType,
  nowMs: number,
): Promise<H2hProduct[]> {
  const tier = (await findUser(db, userId))?.tier ?? "customer";
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.type, type), eq(products.listed, true)))
    .orderBy(asc(products.code));
  const prices = await pricesFor(
    db,
    rows.map((p) => ({ ...p, supplierPrice: saleCostOf(p) })),
    tier,
    await loadPricing(db, userId),
  );
  const out: H2hProduct[] = [];
  for (const p of rows) {
    const price = prices.get(p.code);
    if (price === null || price === undefined) continue;
    out.push({
      code: p.code,
      name: p.name,
      category: p.category,
      brand: p.brand,
      type: p.type,
      price,
      // closed (its daily cut-off, a pause): /order would refuse it now
      active: onSale(p) && closureOf(p, nowMs) === undefined,
      desc: p.description,
      startCutOff: p.startCutOff,
      endCutOff: p.endCutOff,
    });
  }
  return out;
}

/**
 * one product (its code in any case) at the price /order charges this reseller, as listed;
 * undefined: no listed product of that code
 */
export async function productForReseller(
  db: Executor,
  userId: number,
  code: string,
  nowMs: number,
): Promise<H2hProduct | undefined> {
  const [row] = await db
    .select({ type: products.type })
    .from(products)
    .where(
      and(eq(sql`lower(${products.code})`, code.trim().toLowerCase()), eq(products.listed, true)),
    )
    .limit(1);
  if (!row) return undefined;
  const list = await productsForReseller(db, userId, row.type, nowMs);
  return (
    list.find((p) => p.code === code.trim()) ??
    list.find((p) => p.code.toLowerCase() === code.trim().toLowerCase())
  );
}

export function resellerBalance(db: Executor, userId: number): Promise<number> {
  return walletBalance(db, userId);
}
