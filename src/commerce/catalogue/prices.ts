import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { listMarkupRules } from "./markup-rules.ts";
import { type MarkupRule, type PricingProduct, sellingPrice, type Tier } from "./pricing.ts";
import { getRoundStep } from "./round-step.ts";

/** everything a price depends on besides the product: read once, apply to many */
export interface PricingContext {
  rules: MarkupRule[];
  step: number;
}

export async function loadPricing(db: Executor): Promise<PricingContext> {
  const [rules, step] = await Promise.all([listMarkupRules(db), getRoundStep(db)]);
  return { rules, step };
}

/**
 * what `tier` pays for a product, or null when it is not for sale: unknown code, inactive
 * or unlisted (when given a code), or a price below cost. A product object is priced as
 * given (e.g. a bill's admin fee from its inquiry), whatever its catalogue state.
 */
export async function priceFor(
  db: Executor,
  product: string | PricingProduct,
  tier: Tier,
  context?: PricingContext,
): Promise<number | null> {
  let target: PricingProduct;
  if (typeof product === "string") {
    const [row] = await db
      .select({
        code: products.code,
        type: products.type,
        category: products.category,
        brand: products.brand,
        supplierPrice: products.supplierPrice,
      })
      .from(products)
      .where(and(eq(products.code, product), eq(products.active, true), eq(products.listed, true)));
    if (!row) return null;
    target = row;
  } else {
    target = product;
  }
  const { rules, step } = context ?? (await loadPricing(db));
  return sellingPrice(rules, target, tier, step);
}

/** the prices of many products for one tier, by code (null: not for sale) */
export async function pricesFor(
  db: Executor,
  items: readonly PricingProduct[],
  tier: Tier,
  context?: PricingContext,
): Promise<Map<string, number | null>> {
  const { rules, step } = context ?? (await loadPricing(db));
  return new Map(items.map((p) => [p.code, sellingPrice(rules, p, tier, step)]));
}
