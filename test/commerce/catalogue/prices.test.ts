import { asc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import { pricedProducts } from "../../../src/commerce/catalogue/priced-sql.ts";
import { loadPricing, priceFor, pricesFor } from "../../../src/commerce/catalogue/prices.ts";
import {
  type PricingProduct,
  sellingPrice,
  type Tier,
} from "../../../src/commerce/catalogue/pricing.ts";
import { setRoundStep } from "../../../src/commerce/catalogue/round-step.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { markupRules, products } from "../../../src/db/schema.ts";
import { rowsOf } from "../../../src/db/sql-rows.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier, product } from "../../helpers/fake-supplier.ts";
import { rulesArb, stepArb } from "./arbitraries.ts";

// everyday prices, and large ones (up to Rp10 billion) where inexact arithmetic would show
const costArb = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.tuple(fc.nat(100_000), fc.nat(99_999)).map(([hi, lo]) => hi * 100_000 + lo),
);

// the products arbitraries.ts's rules aim at
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

describe(`prices from the database (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    await syncCatalogue(db, createFakeSupplier(CATALOGUE));
  });
  afterAll(() => t.destroy());

  it("prices a product by code with the shop's rules and step", async () => {
    await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 250, flat: 200 });
    expect(await priceFor(db, "TSEL10", "customer")).toBe(10_700);
    await setRoundStep(db, 1);
    expect(await priceFor(db, "TSEL10", "customer")).toBe(10_604);
    await setRoundStep(db, 100);
  });

  it("has no price for unknown, inactive or unlisted products", async () => {
    expect(await priceFor(db, "NOPE", "customer")).toBeNull();
    await db.update(products).set({ active: false }).where(eq(products.code, "TSEL20"));
    expect(await priceFor(db, "TSEL20", "customer")).toBeNull();
    await db
      .update(products)
      .set({ active: true, listed: false })
      .where(eq(products.code, "TSEL20"));
    expect(await priceFor(db, "TSEL20", "customer")).toBeNull();
    await db.update(products).set({ listed: true }).where(eq(products.code, "TSEL20"));
    expect(await priceFor(db, "TSEL20", "customer")).not.toBeNull();
  });

  it("prices a bill's admin fee as given (e.g. from the inquiry)", async () => {
    await setMarkupRule(db, {
      scope: "type",
      scopeValue: "pasca",
      tier: "customer",
      percentBp: 0,
      flat: 500,
    });
    const bill: PricingProduct = {
      code: "PLNPOST",
      type: "pasca",
      category: "PLN PASCABAYAR",
      brand: "PLN",
      supplierPrice: 5_000, // two bill sheets: twice the admin
    };
    expect(await priceFor(db, bill, "customer")).toBe(5_500);
    expect(await priceFor(db, "PLNPOST", "customer")).toBe(3_000);
  });

  it("prices many products at once", async () => {
    const rows = await db.select().from(products).orderBy(asc(products.code));
    const context = await loadPricing(db);
    const prices = await pricesFor(db, rows, "reseller");
    expect([...prices.keys()]).toEqual(rows.map((r) => r.code));
    for (const row of rows) {
      expect(prices.get(row.code)).toBe(sellingPrice(context.rules, row, "reseller", context.step));
    }
  });

  it("gives the same prices in SQL as sellingPrice() does, for any rules and step", async () => {
    const rows = await db.select().from(products);
    await fc.assert(
      fc.asyncProperty(
        rulesArb,
        stepArb,
        fc.constantFrom<Tier>("customer", "reseller"),
        fc.array(costArb, { minLength: 5, maxLength: 5 }),
        async (rules, step, tier, costs) => {
          await db.delete(markupRules);
          if (rules.length > 0) await db.insert(markupRules).values(rules);
          const priced = rows.map((r, i) => ({ ...r, supplierPrice: costs[i]! }));
          for (const p of priced) {
            await db
              .update(products)
              .set({ supplierPrice: p.supplierPrice })
              .where(eq(products.code, p.code));
          }
          const stored = await db.select().from(markupRules);
          const result = rowsOf(
            await db.execute(pricedProducts({ tier, rules: stored, step, where: sql`true` })),
          );
          const fromSql = new Map(result.map((r) => [String(r.code), Number(r.price)]));
          for (const p of priced) {
            expect(fromSql.get(p.code) ?? null).toBe(sellingPrice(stored, p, tier, step));
          }
          // cheapest first
          const order = result.map((r) => Number(r.price));
          expect(order).toEqual([...order].sort((a, b) => a - b));
        },
      ),
      { numRuns: 60 },
    );
  });
});
