import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  markedUp,
  type PricingProduct,
  pickRule,
  type RuleLike,
  sellingPrice,
} from "../../../src/commerce/catalogue/pricing.ts";
import { productArb, rulesArb, stepArb } from "./arbitraries.ts";

const tsel10: PricingProduct = {
  code: "TSEL10",
  type: "prepaid",
  category: "Pulsa",
  brand: "TELKOMSEL",
  supplierPrice: 10_150,
};

const rule = (r: Partial<RuleLike> & Pick<RuleLike, "scope">): RuleLike => ({
  scopeValue: "",
  tier: "customer",
  percentBp: 0,
  flat: 0,
  ...r,
});

describe("sellingPrice", () => {
  it("without rules, rounds the supplier price up to the step (0 % + 0)", () => {
    expect(sellingPrice([], tsel10, "customer")).toBe(10_200);
    expect(sellingPrice([], tsel10, "reseller", 1)).toBe(10_150);
    expect(sellingPrice([], { ...tsel10, supplierPrice: 10_200 }, "customer")).toBe(10_200);
  });

  it("adds the percentage, then the flat amount, then rounds up", () => {
    // 10 150 × 1.025 = 10 403.75; + 200 = 10 603.75 → 10 700
    const rules = [rule({ scope: "all", percentBp: 250, flat: 200 })];
    expect(sellingPrice(rules, tsel10, "customer")).toBe(10_700);
    expect(sellingPrice(rules, tsel10, "customer", 500)).toBe(11_000);
    expect(sellingPrice(rules, tsel10, "customer", 1)).toBe(10_604);
  });

  it("applies only the most specific rule of the tier", () => {
    const rules = [
      rule({ id: 1, scope: "all", percentBp: 1000 }),
      rule({ id: 2, scope: "type", scopeValue: "prepaid", percentBp: 800 }),
      rule({ id: 3, scope: "category", scopeValue: "Pulsa", percentBp: 600 }),
      rule({ id: 4, scope: "brand", scopeValue: "TELKOMSEL", percentBp: 400 }),
      rule({ id: 5, scope: "product", scopeValue: "TSEL10", flat: 50 }),
    ];
    expect(pickRule(rules, tsel10, "customer")?.id).toBe(5);
    expect(sellingPrice(rules, tsel10, "customer", 1)).toBe(10_200);
    expect(pickRule(rules.slice(0, 4), tsel10, "customer")?.id).toBe(4);
    expect(pickRule(rules.slice(0, 3), tsel10, "customer")?.id).toBe(3);
    expect(pickRule(rules.slice(0, 2), tsel10, "customer")?.id).toBe(2);
    expect(pickRule(rules.slice(0, 1), tsel10, "customer")?.id).toBe(1);
    // a rule for another brand doesn't apply
    expect(pickRule([rule({ scope: "brand", scopeValue: "XL" })], tsel10, "customer")).toBeNull();
  });

  it("prices a reseller by reseller rules, or by customer rules when none applies", () => {
    const rules = [
      rule({ id: 1, scope: "all", percentBp: 500 }),
      rule({ id: 2, scope: "brand", scopeValue: "TELKOMSEL", percentBp: 300 }),
      rule({ id: 3, scope: "all", tier: "reseller", percentBp: 100 }),
    ];
    // the reseller's general rule beats the customer's brand rule
    expect(pickRule(rules, tsel10, "reseller")?.id).toBe(3);
    // no reseller rule at any level: the customer's most specific rule
    expect(pickRule(rules.slice(0, 2), tsel10, "reseller")?.id).toBe(2);
    // the customer never borrows the reseller's rules
    expect(pickRule([rules[2]!], tsel10, "customer")).toBeNull();
  });

  it("refuses to sell below cost", () => {
    expect(sellingPrice([rule({ scope: "all", flat: -100 })], tsel10, "customer", 1)).toBeNull();
    // -100 but rounding up brings it back to cost: 10 050 → 10 100 < 10 150
    expect(sellingPrice([rule({ scope: "all", flat: -100 })], tsel10, "customer")).toBeNull();
    // -10 rounds up to 10 200: above cost, so it sells
    expect(sellingPrice([rule({ scope: "all", flat: -10 })], tsel10, "customer")).toBe(10_200);
    expect(sellingPrice([rule({ scope: "all", percentBp: -10_000 })], tsel10, "customer")).toBe(
      null,
    );
  });

  it("prices a bill's admin fee, not the bill", () => {
    const bill: PricingProduct = {
      code: "PLNPOST",
      type: "pasca",
      category: "PLN PASCABAYAR",
      brand: "PLN",
      supplierPrice: 2_500,
    };
    const rules = [rule({ scope: "type", scopeValue: "pasca", flat: 500 })];
    expect(sellingPrice(rules, bill, "customer")).toBe(3_000);
  });

  it("refuses a bad rounding step", () => {
    expect(() => sellingPrice([], tsel10, "customer", 0)).toThrow(RangeError);
    expect(() => sellingPrice([], tsel10, "customer", 2.5)).toThrow(RangeError);
  });

  it("never sells below cost and always lands on the step", () => {
    fc.assert(
      fc.property(
        rulesArb,
        productArb,
        fc.constantFrom("customer", "reseller"),
        stepArb,
        (rules, p, tier, step) => {
          const price = sellingPrice(rules, p, tier, step);
          if (price === null) return;
          expect(price).toBeGreaterThanOrEqual(p.supplierPrice);
          expect(price % step).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("rounds up by less than one step: cost + markup ≤ price < cost + markup + step", () => {
    fc.assert(
      fc.property(
        rulesArb,
        productArb,
        fc.constantFrom("customer", "reseller"),
        stepArb,
        (rules, p, tier, step) => {
          const price = sellingPrice(rules, p, tier, step);
          const r = pickRule(rules, p, tier);
          const exact =
            p.supplierPrice + (p.supplierPrice * (r?.percentBp ?? 0)) / 10_000 + (r?.flat ?? 0);
          if (price === null) {
            // only when rounding up the marked-up price still falls short of cost
            expect(Math.ceil(exact / step) * step).toBeLessThan(p.supplierPrice);
            return;
          }
          expect(price).toBeGreaterThanOrEqual(exact - 1e-6);
          expect(price).toBeLessThan(exact + step);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("uses the most specific matching rule of the tier, else of the customer tier", () => {
    const rank = { all: 0, type: 1, category: 2, brand: 3, product: 4 } as const;
    const matches = (r: RuleLike, p: PricingProduct) =>
      ({
        all: r.scopeValue === "",
        type: r.scopeValue === p.type,
        category: r.scopeValue === p.category,
        brand: r.scopeValue === p.brand,
        product: r.scopeValue === p.code,
      })[r.scope];
    fc.assert(
      fc.property(
        rulesArb,
        productArb,
        fc.constantFrom("customer", "reseller"),
        (rules, p, tier) => {
          const chosen = pickRule(rules, p, tier);
          const own = rules.filter((r) => r.tier === tier && matches(r, p));
          const fallback = rules.filter((r) => r.tier === "customer" && matches(r, p));
          const pool = own.length > 0 ? own : tier === "reseller" ? fallback : [];
          if (pool.length === 0) {
            expect(chosen).toBeNull();
            return;
          }
          const best = Math.max(...pool.map((r) => rank[r.scope]));
          expect(chosen).not.toBeNull();
          expect(pool).toContain(chosen);
          expect(rank[chosen!.scope]).toBe(best);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never lowers the price when the markup grows", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -10_000, max: 100_000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: -10_000, max: 10_000 }),
        stepArb,
        (cost, bp, extra, flat, step) => {
          expect(markedUp(cost, bp + extra, flat, step)).toBeGreaterThanOrEqual(
            markedUp(cost, bp, flat, step),
          );
        },
      ),
    );
  });
});
