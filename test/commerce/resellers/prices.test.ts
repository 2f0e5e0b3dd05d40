import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainedPrice, levelCap } from "../../../src/commerce/catalogue/chain.ts";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import { pricedProducts } from "../../../src/commerce/catalogue/priced-sql.ts";
import { buyerPrice, loadPricing, pricingOf } from "../../../src/commerce/catalogue/prices.ts";
import { productByCode, productForBuyer } from "../../../src/commerce/catalogue/queries.ts";
import { setRoundStep } from "../../../src/commerce/catalogue/round-step.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import { setChainLimits, setResellerMarkup } from "../../../src/commerce/resellers/markups.ts";
import { moveUser } from "../../../src/commerce/resellers/tree.ts";
import { setTier } from "../../../src/commerce/users.ts";
import type { Database } from "../../../src/db/client.ts";
import { markupRules, products, resellerMarkups } from "../../../src/db/schema.ts";
import { rowsOf } from "../../../src/db/sql-rows.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier, product } from "../../helpers/fake-supplier.ts";
import { productArb, rulesArb, stepArb } from "../catalogue/arbitraries.ts";

// prices down a reseller tree: the top pays the shop's reseller price, each level below
// adds its upline's markup. Property: in SQL as in TypeScript, no level pays less than the
// level above, and the shop's price plus the uplines' margins is exactly the buyer's price.

const CATALOGUE = {
  prepaid: [
    product({ code: "TSEL10", brand: "TELKOMSEL", category: "Pulsa", price: 10_150 }),
    product({ code: "TSEL20", brand: "TELKOMSEL", category: "Pulsa", price: 20_050 }),
    product({ code: "GOPAY50", brand: "GOPAY", category: "E-Money", price: 51_000 }),
  ],
  game: [
    product({
      code: "ML86",
      brand: "MOBILE LEGENDS",
      category: "Games",
      type: "game",
      price: 24_000,
    }),
  ],
  pasca: [
    product({
      code: "PLNPOST",
      brand: "PLN",
      category: "PLN PASCABAYAR",
      type: "pasca",
      price: 2_500,
    }),
  ],
};

/** a chain of users: TOP (a reseller) ← L1 ← L2 ← … ← L5 */
const CHAIN = [9_001, 9_002, 9_003, 9_004, 9_005, 9_006];

// a level's rules: the shop's shapes, never negative
const levelRulesArb = rulesArb.map((rules) => {
  const seen = new Set<string>();
  return rules
    .map((r) => ({
      ...r,
      percentBp: Math.abs(r.percentBp) % 3_000,
      flat: Math.abs(r.flat) % 8_000,
    }))
    .filter((r) => {
      const key = `${r.scope}|${r.scopeValue}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
});

describe(`prices down a reseller tree (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    await syncCatalogue(db, createFakeSupplier(CATALOGUE));
    // every level is a reseller: only a reseller's markups apply (design rule 19)
    for (const id of CHAIN) await setTier(db, id, "reseller");
    for (let i = 1; i < CHAIN.length; i++) {
      const moved = await moveUser(db, { userId: CHAIN[i]!, uplineId: CHAIN[i - 1]! });
      expect(moved.ok).toBe(true);
    }
  });
  afterAll(() => t.destroy());

  it("adds each upline's markup, rounded up to the shop's step, within the owner's limits", async () => {
    await setRoundStep(db, 100);
    await setMarkupRule(db, { scope: "all", tier: "reseller", percentBp: 0, flat: 50 });
    await setChainLimits(db, { maxFlat: 5_000, maxBp: 1_000 });
    await setResellerMarkup(db, CHAIN[0]!, { scope: "all", percentBp: 0, flat: 250 });
    await setResellerMarkup(db, CHAIN[1]!, {
      scope: "category",
      scopeValue: "pulsa",
      percentBp: 150,
    });
    // TSEL10: 10 150 + 50 → 10 200 (top); +250 → 10 500 (L1); +1.5 % = 10 657.5 → 10 700 (L2)
    const prices = [];
    for (const id of CHAIN.slice(0, 3)) {
      prices.push((await productByCode(db, "TSEL10", { tier: "customer", buyer: id }))?.price);
    }
    expect(prices).toEqual([10_200, 10_500, 10_700]);
    const context = await loadPricing(db, CHAIN[2]!);
    const item = (await productByCode(db, "TSEL10", { tier: "customer", buyer: CHAIN[2]! }))!;
    expect(buyerPrice(context, item, "customer")).toEqual({
      price: 10_700,
      shopPrice: 10_200,
      margins: [
        { userId: CHAIN[0], amount: 300 },
        { userId: CHAIN[1], amount: 200 },
      ],
    });
  });

  it("refuses a markup above the owner's limits, and holds old ones to new limits", async () => {
    await expect(
      setResellerMarkup(db, CHAIN[0]!, { scope: "all", percentBp: 0, flat: 6_000 }),
    ).rejects.toThrow(/0 to 5000/);
    await expect(
      setResellerMarkup(db, CHAIN[0]!, { scope: "all", percentBp: 1_500 }),
    ).rejects.toThrow(/0 to 10 %/);
    await setResellerMarkup(db, CHAIN[0]!, {
      scope: "product",
      scopeValue: "gopay50",
      percentBp: 0,
      flat: 5_000,
    });
    await setChainLimits(db, { maxFlat: 2_000 });
    // GOPAY50 at 51 050 → 51 100; the top's Rp5.000 is held to the new Rp2.000
    const l1 = await productByCode(db, "GOPAY50", { tier: "customer", buyer: CHAIN[1]! });
    expect(l1?.price).toBe(51_100 + 2_000);
    expect(levelCap(51_100, { maxFlat: 2_000, maxBp: 1_000 }, 100)).toBe(2_000);
    await setChainLimits(db, { maxFlat: 5_000 });
  });

  it("never lets a level pay less than the level above, and margins sum exactly (SQL = TS)", async () => {
    const rows = await db.select().from(products);
    await fc.assert(
      fc.asyncProperty(
        rulesArb,
        fc.array(levelRulesArb, { minLength: CHAIN.length, maxLength: CHAIN.length }),
        stepArb,
        fc.record({
          maxFlat: fc.integer({ min: 0, max: 20_000 }),
          maxBp: fc.integer({ min: 0, max: 5_000 }),
        }),
        fc.array(fc.integer({ min: 0, max: 3_000_000 }), { minLength: 5, maxLength: 5 }),
        async (shopRules, levels, step, limits, costs) => {
          await db.delete(markupRules);
          if (shopRules.length > 0) await db.insert(markupRules).values(shopRules);
          await db.delete(resellerMarkups);
          for (const [i, rules] of levels.entries()) {
            if (rules.length === 0) continue;
            await db.insert(resellerMarkups).values(
              rules.map((r) => ({
                resellerId: CHAIN[i]!,
                scope: r.scope,
                scopeValue: r.scopeValue,
                percentBp: r.percentBp,
                flat: r.flat,
              })),
            );
          }
          await setRoundStep(db, step);
          await setChainLimits(db, limits);
          for (const [i, p] of rows.entries()) {
            await db
              .update(products)
              .set({ supplierPrice: costs[i]! })
              .where(eq(products.code, p.code));
          }
          const priced = rows.map((r, i) => ({ ...r, supplierPrice: costs[i]! }));
          let above: Map<string, number> | undefined;
          for (const [level, buyer] of CHAIN.entries()) {
            // the top is a reseller; the levels below are priced from the top's tier
            const tier = level === 0 ? "reseller" : "customer";
            const context = await loadPricing(db, buyer);
            const fromSql = new Map(
              rowsOf(
                await db.execute(
                  pricedProducts({
                    ...(await pricingOf(db, { tier, buyer, pricing: context })),
                    where: sql`true`,
                  }),
                ),
              ).map((r) => [String(r.code), Number(r.price)]),
            );
            for (const p of priced) {
              const ts = buyerPrice(context, p, tier);
              expect(fromSql.get(p.code) ?? null).toBe(ts?.price ?? null);
              // the one statement a quote reads its product and pricing with agrees
              const one = await productForBuyer(db, p.code, buyer, tier);
              expect(one.item?.price ?? null).toBe(fromSql.get(p.code) ?? null);
              expect(one.chained?.margins ?? null).toEqual(ts?.margins ?? null);
              if (!ts) continue;
              expect(ts.shopPrice + ts.margins.reduce((s, m) => s + m.amount, 0)).toBe(ts.price);
              expect(ts.margins.every((m) => m.amount > 0)).toBe(true);
              if (above) expect(ts.price).toBeGreaterThanOrEqual(above.get(p.code)!);
            }
            above = new Map(priced.map((p) => [p.code, buyerPrice(context, p, tier)?.price ?? 0]));
          }
        },
      ),
      { numRuns: 8, endOnFailure: true },
    );
  }, 180_000);

  it("never lets a level pay less than the level above, margins summing exactly (TS, many runs)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(levelRulesArb, { minLength: 0, maxLength: 6 }),
        stepArb,
        fc.record({
          maxFlat: fc.integer({ min: 0, max: 20_000 }),
          maxBp: fc.integer({ min: 0, max: 5_000 }),
        }),
        productArb,
        (shopCost, levels, step, limits, product) => {
          const shop = Math.ceil(shopCost / step) * step;
          const chain = {
            limits,
            levels: levels.map((rules, i) => ({ resellerId: i + 1, rules })),
          };
          let above = shop;
          for (let depth = 0; depth <= levels.length; depth++) {
            const part = { ...chain, levels: chain.levels.slice(0, depth) };
            const p = chainedPrice(shop, part, product, step);
            expect(p.price).toBeGreaterThanOrEqual(above);
            expect(p.shopPrice + p.margins.reduce((sum, m) => sum + m.amount, 0)).toBe(p.price);
            for (const m of p.margins) {
              expect(m.amount).toBeGreaterThan(0);
              expect(m.amount % step).toBe(0);
            }
            above = p.price;
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("prices a buyer without an upline as before", () => {
    const product = {
      code: "X",
      type: "prepaid" as const,
      category: "Pulsa",
      brand: "B",
      supplierPrice: 1,
    };
    expect(chainedPrice(1_000, undefined, product, 100)).toEqual({
      price: 1_000,
      shopPrice: 1_000,
      margins: [],
    });
  });
});
