import fc from "fast-check";
import {
  MARKUP_SCOPES,
  type PricingProduct,
  type RuleLike,
  TIERS,
} from "../../../src/commerce/catalogue/pricing.ts";

// a small world of products and rules, so that rules often hit the products they price

const CODES = ["TSEL10", "TSEL20", "GOPAY50", "ML86", "PLNPOST"] as const;
const BRANDS = ["TELKOMSEL", "GOPAY", "MOBILE LEGENDS", "PLN"] as const;
const CATEGORIES = ["Pulsa", "E-Money", "Games", "PLN PASCABAYAR"] as const;
const TYPES = ["prepaid", "game", "pasca"] as const;

export const productArb: fc.Arbitrary<PricingProduct> = fc.record({
  code: fc.constantFrom(...CODES),
  type: fc.constantFrom(...TYPES),
  category: fc.constantFrom(...CATEGORIES),
  brand: fc.constantFrom(...BRANDS),
  supplierPrice: fc.integer({ min: 0, max: 5_000_000 }),
});

const ruleArb: fc.Arbitrary<RuleLike> = fc
  .record({
    scope: fc.constantFrom(...MARKUP_SCOPES),
    tier: fc.constantFrom(...TIERS),
    percentBp: fc.integer({ min: -10_000, max: 100_000 }),
    flat: fc.integer({ min: -50_000, max: 50_000 }),
    pick: fc.nat(),
  })
  .map(({ scope, tier, percentBp, flat, pick }) => {
    const values = {
      all: [""],
      type: TYPES,
      category: CATEGORIES,
      brand: BRANDS,
      product: CODES,
    }[scope];
    return { scope, tier, percentBp, flat, scopeValue: values[pick % values.length]! };
  });

/** rules as the table can hold them: one per (scope, value, tier), with ids */
export const rulesArb: fc.Arbitrary<RuleLike[]> = fc
  .uniqueArray(ruleArb, {
    maxLength: 12,
    selector: (r) => `${r.scope}|${r.scopeValue}|${r.tier}`,
  })
  .map((rules) => rules.map((r, i) => ({ ...r, id: i + 1 })));

export const stepArb = fc.constantFrom(1, 25, 50, 100, 500, 1000);
