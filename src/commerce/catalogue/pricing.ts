import type { ProductType } from "../../supplier/types.ts";

// selling price = supplier price + markup, rounded up to the shop's step. The one rule that
// applies is the most specific rule of the buyer's tier; a tier with no rule for the
// product at any level borrows the customer tier's rules. For bills the "price" is the
// admin fee: the markup applies to the fee, never to the bill itself.

export const TIERS = ["customer", "reseller"] as const;
export type Tier = (typeof TIERS)[number];

/** least to most specific */
export const MARKUP_SCOPES = ["all", "type", "category", "brand", "product"] as const;
export type MarkupScope = (typeof MARKUP_SCOPES)[number];

export const DEFAULT_ROUND_STEP = 100;
/** basis points: 10 000 = 100 % */
export const BP = 10_000;

export interface MarkupRule {
  id: number;
  scope: MarkupScope;
  /** "" for scope all; else the type, category, brand or product code as stored */
  scopeValue: string;
  tier: Tier;
  /** 250 = 2.5 % */
  percentBp: number;
  /** rupiah added after the percentage (may be negative) */
  flat: number;
}

/** what the price of a product depends on */
export interface PricingProduct {
  code: string;
  type: ProductType;
  category: string;
  brand: string;
  /** rupiah; for pasca the supplier's admin fee */
  supplierPrice: number;
}

export type RuleLike = Pick<MarkupRule, "scope" | "scopeValue" | "tier" | "percentBp" | "flat"> & {
  id?: number;
};

function scopeTarget(scope: MarkupScope, product: PricingProduct): string {
  switch (scope) {
    case "all":
      return "";
    case "type":
      return product.type;
    case "category":
      return product.category;
    case "brand":
      return product.brand;
    case "product":
      return product.code;
  }
}

/** the rule that prices this product for this tier, or null (no markup) */
export function pickRule<R extends RuleLike>(
  rules: readonly R[],
  product: PricingProduct,
  tier: Tier,
): R | null {
  const best = (t: Tier): R | null => {
    // from most specific down; scope values match exactly (rules store the catalogue's spelling)
    for (let s = MARKUP_SCOPES.length - 1; s >= 0; s--) {
      const scope = MARKUP_SCOPES[s]!;
      const target = scopeTarget(scope, product);
      let found: R | null = null;
      for (const r of rules) {
        if (r.tier !== t || r.scope !== scope || r.scopeValue !== target) continue;
        // the unique index allows one; if a caller passes duplicates, the newest wins
        if (!found || (r.id ?? 0) > (found.id ?? 0)) found = r;
      }
      if (found) return found;
    }
    return null;
  };
  return best(tier) ?? (tier === "customer" ? null : best("customer"));
}

/** ceil((cost × (1 + bp) + flat) / step) × step, exactly, in integer arithmetic */
export function markedUp(cost: number, percentBp: number, flat: number, step: number): number {
  const numerator = BigInt(cost) * BigInt(BP + percentBp) + BigInt(flat) * BigInt(BP);
  const unit = BigInt(step) * BigInt(BP);
  let q = numerator / unit;
  if (numerator % unit !== 0n && numerator > 0n) q += 1n;
  return Number(q * BigInt(step));
}

/**
 * what `tier` pays for `product`, or null when it must not be sold (the price would fall
 * below cost, e.g. through a negative flat markup). No rule: 0 % + 0, still rounded up.
 */
export function sellingPrice(
  rules: readonly RuleLike[],
  product: PricingProduct,
  tier: Tier,
  step: number = DEFAULT_ROUND_STEP,
): number | null {
  if (!Number.isSafeInteger(step) || step < 1) throw new RangeError(`bad rounding step ${step}`);
  if (!Number.isSafeInteger(product.supplierPrice) || product.supplierPrice < 0) return null;
  const rule = pickRule(rules, product, tier);
  const price = markedUp(product.supplierPrice, rule?.percentBp ?? 0, rule?.flat ?? 0, step);
  return price >= product.supplierPrice ? price : null;
}
