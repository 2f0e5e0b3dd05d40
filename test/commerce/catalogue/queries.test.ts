import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalCategory } from "../../../src/commerce/catalogue/categories.ts";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import { type Operator, operatorOfBrand } from "../../../src/commerce/catalogue/operators.ts";
import { pricedProducts } from "../../../src/commerce/catalogue/priced-sql.ts";
import {
  loadPricing,
  type PricingContext,
  priceFor,
} from "../../../src/commerce/catalogue/prices.ts";
import { sellingPrice, type Tier } from "../../../src/commerce/catalogue/pricing.ts";
import {
  type CatalogueItem,
  catalogueFilters,
  listBrands,
  listCategories,
  productByCode,
  productForBuyer,
  productsByBrand,
  productsByCategory,
  productsByOperator,
  searchProducts,
} from "../../../src/commerce/catalogue/queries.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { rowsOf } from "../../../src/db/sql-rows.ts";
import type { SupplierProduct } from "../../../src/supplier/types.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import {
  createFakeSupplier,
  type FakeSupplier,
  generateCatalogue,
} from "../../helpers/fake-supplier.ts";

describe(`catalogue queries on 20,000 products (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  let supplier: FakeSupplier;
  let pricing: PricingContext;
  let notForSale: SupplierProduct;
  let unlisted: SupplierProduct;

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    supplier = createFakeSupplier(generateCatalogue(20_000, 11));
    await syncCatalogue(db, supplier);
    // one product dropped by the supplier: stored, but unlisted
    unlisted = supplier.lists.prepaid.find((p) => p.active && p.brand === "TELKOMSEL")!;
    supplier.lists.prepaid = supplier.lists.prepaid.filter((p) => p !== unlisted);
    await syncCatalogue(db, supplier);
    notForSale = supplier.lists.prepaid.find(
      (p) => p.active && p.brand === "TELKOMSEL" && p.category === "Pulsa",
    )!;
    await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 200 });
    await setMarkupRule(db, {
      scope: "category",
      scopeValue: "Games",
      tier: "customer",
      percentBp: 500,
      flat: 100,
    });
    await setMarkupRule(db, {
      scope: "brand",
      scopeValue: "TELKOMSEL",
      tier: "reseller",
      percentBp: 100,
      flat: -50,
    });
    await setMarkupRule(db, {
      scope: "product",
      scopeValue: notForSale.code,
      tier: "customer",
      percentBp: 0,
      flat: -100_000,
    });
    await setMarkupRule(db, {
      scope: "product",
      scopeValue: notForSale.code,
      tier: "reseller",
      percentBp: 0,
      flat: -100_000,
    });
    await t.handle.executeSql("analyze");
    pricing = await loadPricing(db);
  });
  afterAll(() => t.destroy());

  const all = () => [...supplier.lists.prepaid, ...supplier.lists.game, ...supplier.lists.pasca];

  /** what a list should hold, computed apart from SQL: sellable, priced, cheapest first */
  function expected(filter: (p: SupplierProduct) => boolean, tier: Tier) {
    return all()
      .filter((p) => p.active && filter(p))
      .map((p) => ({
        code: p.code,
        price: sellingPrice(
          pricing.rules,
          { ...p, category: canonicalCategory(p.category), supplierPrice: p.price },
          tier,
          pricing.step,
        ),
      }))
      .filter((x): x is { code: string; price: number } => x.price !== null)
      .sort((a, b) => a.price - b.price || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  }
  const brief = (items: CatalogueItem[]) => items.map(({ code, price }) => ({ code, price }));
  const ofOperator = (ops: Operator[], category: string) => (p: SupplierProduct) =>
    p.type === "prepaid" && p.category === category && ops.includes(operatorOfBrand(p.brand)!);

  it("lists an operator's pulsa, cheapest first, with the buyer's price", async () => {
    const want = expected(ofOperator(["telkomsel"], "Pulsa"), "customer");
    const page = await productsByOperator(db, "telkomsel", "Pulsa", {
      tier: "customer",
      limit: 10,
    });
    expect(page.total).toBe(want.length);
    expect(brief(page.items)).toEqual(want.slice(0, 10));
    for (const item of page.items) {
      expect(item).toMatchObject({ operator: "telkomsel", category: "Pulsa", type: "prepaid" });
      expect(item.price).toBeGreaterThanOrEqual(item.supplierPrice);
      expect(await priceFor(db, item.code, "customer")).toBe(item.price);
    }
  });

  it("leaves out inactive, unlisted and not-for-sale products", async () => {
    const page = await productsByOperator(db, "telkomsel", "pulsa", {
      tier: "customer",
      limit: 100,
      offset: 0,
    });
    const codes = new Set<string>();
    for (let offset = 0; offset < page.total; offset += 100) {
      const p = await productsByOperator(db, "telkomsel", "Pulsa", {
        tier: "customer",
        limit: 100,
        offset,
      });
      for (const item of p.items) codes.add(item.code);
    }
    expect(codes.size).toBe(page.total);
    expect(codes.has(notForSale.code)).toBe(false);
    expect(codes.has(unlisted.code)).toBe(false);
    const inactive = all().filter(
      (p) => !p.active && p.brand === "TELKOMSEL" && p.category === "Pulsa",
    );
    expect(inactive.length).toBeGreaterThan(0);
    for (const p of inactive) expect(codes.has(p.code)).toBe(false);
    expect(await productByCode(db, notForSale.code, { tier: "customer" })).toBeNull();
    expect(await productByCode(db, unlisted.code, { tier: "customer" })).toBeNull();
    expect(await productByCode(db, inactive[0]!.code, { tier: "customer" })).toBeNull();
  });

  it("pages without gaps or repeats, and reports the total past the last page", async () => {
    const want = expected(ofOperator(["axis"], "Data"), "reseller");
    const seen: { code: string; price: number }[] = [];
    for (let offset = 0; offset < want.length; offset += 37) {
      const page = await productsByOperator(db, "axis", "Data", {
        tier: "reseller",
        limit: 37,
        offset,
      });
      expect(page.total).toBe(want.length);
      seen.push(...brief(page.items));
    }
    expect(seen).toEqual(want);
    const past = await productsByOperator(db, "axis", "Data", {
      tier: "reseller",
      offset: want.length + 5,
    });
    expect(past).toEqual({ items: [], total: want.length });
  });

  it("keeps page sizes between 1 and 100", async () => {
    const big = await productsByCategory(db, "Data", { tier: "customer", limit: 5000 });
    expect(big.items).toHaveLength(100);
    const tiny = await productsByCategory(db, "Data", { tier: "customer", limit: 0 });
    expect(tiny.items).toHaveLength(1);
    const standard = await productsByCategory(db, "Data", { tier: "customer" });
    expect(standard.items).toHaveLength(10);
    const nonsense = await productsByCategory(db, "Data", {
      tier: "customer",
      limit: Number.NaN,
      offset: -5,
    });
    expect(nonsense.items).toEqual(standard.items);
  });

  it("prices resellers by their own rules, else by the customer's", async () => {
    const tsel = await productsByOperator(db, "telkomsel", "Data", {
      tier: "reseller",
      limit: 100,
    });
    expect(brief(tsel.items)).toEqual(
      expected(ofOperator(["telkomsel"], "Data"), "reseller").slice(0, 100),
    );
    const xl = await productsByOperator(db, "xl", "Data", { tier: "reseller", limit: 100 });
    const xlCustomer = await productsByOperator(db, "xl", "Data", { tier: "customer", limit: 100 });
    expect(brief(xl.items)).toEqual(brief(xlCustomer.items));
    // the telkomsel reseller rule (1 % − Rp50) undercuts the customer's 2 %
    const cheaper = tsel.items.filter(
      (i) => i.price < (sellingPrice(pricing.rules, i, "customer", pricing.step) ?? 0),
    );
    expect(cheaper.length).toBeGreaterThan(0);
  });

  it("offers by.U products next to telkomsel's to a 0851 number", async () => {
    const both = await productsByOperator(db, ["telkomsel", "byu"], "Data", {
      tier: "customer",
      limit: 100,
    });
    const want = expected(ofOperator(["telkomsel", "byu"], "Data"), "customer");
    expect(both.total).toBe(want.length);
    expect(brief(both.items)).toEqual(want.slice(0, 100));
    expect(new Set(both.items.map((i) => i.operator))).toEqual(new Set(["telkomsel", "byu"]));
    expect(await productsByOperator(db, [], "Data", { tier: "customer" })).toEqual({
      items: [],
      total: 0,
    });
  });

  it("lists a brand's products and a category's products", async () => {
    const ff = await productsByBrand(db, "game", "FREE FIRE", { tier: "customer", limit: 20 });
    const wantFf = expected((p) => p.type === "game" && p.brand === "FREE FIRE", "customer");
    expect(ff.total).toBe(wantFf.length);
    expect(brief(ff.items)).toEqual(wantFf.slice(0, 20));
    const emoney = await productsByCategory(db, "e-money", { tier: "customer", limit: 20 });
    const wantEm = expected((p) => p.category === "E-Money", "customer");
    expect(emoney.total).toBe(wantEm.length);
    expect(brief(emoney.items)).toEqual(wantEm.slice(0, 20));
  });

  it("counts brands and categories with something to sell", async () => {
    const wallets = await listBrands(db, { category: "E-Money" });
    expect(wallets.map((b) => b.brand)).toEqual(["DANA", "GOPAY", "LINKAJA", "OVO", "SHOPEEPAY"]);
    for (const w of wallets) {
      const want = expected((p) => p.category === "E-Money" && p.brand === w.brand, "customer");
      expect(w).toEqual({ brand: w.brand, count: want.length, minPrice: want[0]!.price });
    }
    const games = await listBrands(db, { type: "game" }, { tier: "reseller" });
    expect(games.reduce((a, g) => a + g.count, 0)).toBe(
      expected((p) => p.type === "game", "reseller").length,
    );
    const bills = await listCategories(db, "pasca");
    expect(bills.map((b) => b.category)).toEqual([
      "BPJS KESEHATAN",
      "MULTIFINANCE",
      "PBB",
      "PDAM",
      "PLN PASCABAYAR",
      "TELKOM",
    ]);
    for (const b of bills) {
      expect(b.count).toBe(
        expected((p) => p.type === "pasca" && p.category === b.category, "customer").length,
      );
    }
  });

  it("finds a product by code with its price", async () => {
    const p = supplier.lists.game.find((x) => x.active)!;
    const item = await productByCode(db, ` ${p.code} `, { tier: "customer" });
    expect(item).toMatchObject({
      code: p.code,
      name: p.name,
      supplierPrice: p.price,
      type: "game",
    });
    expect(item!.price).toBe(await priceFor(db, p.code, "customer"));
    expect(await productByCode(db, "NO-SUCH-CODE", { tier: "customer" })).toBeNull();
  });

  it("reads a product with its pricing in one statement, priced as the lists price it", async () => {
    const p = supplier.lists.prepaid.find(
      (x) => x.active && x.brand === "TELKOMSEL" && x !== notForSale,
    )!;
    for (const tier of ["customer", "reseller"] as const) {
      const listed = await productByCode(db, p.code, { tier, pricing });
      const one = await productForBuyer(db, p.code.toLowerCase(), null, tier);
      expect(one.item).toEqual(listed);
      expect(one.item).not.toBeNull();
      expect(one.chained?.price).toBe(listed!.price);
    }
    // what no list shows, neither does it
    for (const code of [notForSale.code, unlisted.code, "NO-SUCH-CODE"]) {
      expect((await productForBuyer(db, code, null)).item).toBeNull();
    }
    const inactive = all().find((x) => !x.active)!;
    expect((await productForBuyer(db, inactive.code, null)).item).toBeNull();
  });

  it("searches names and codes, every word, regardless of case", async () => {
    const page = await searchProducts(db, "Telkomsel DATA 5gb", { tier: "customer", limit: 100 });
    const want = expected(
      (p) =>
        ["telkomsel", "data", "5gb"].every(
          (w) => p.name.toLowerCase().includes(w) || p.code.toLowerCase().includes(w),
        ),
      "customer",
    );
    expect(want.length).toBeGreaterThan(0);
    expect(page.total).toBe(want.length);
    expect(brief(page.items)).toEqual(want.slice(0, 100));
  });

  it("puts an exact code first and treats wildcards literally", async () => {
    const target = supplier.lists.prepaid.find((p) => p.active && /^D\d{3}$/.test(p.code))!;
    const page = await searchProducts(db, target.code.toLowerCase(), {
      tier: "customer",
      limit: 5,
    });
    expect(page.items[0]?.code).toBe(target.code);
    expect(page.total).toBeGreaterThan(1); // D123 also matches D1234, …
    expect(await searchProducts(db, "%", { tier: "customer" })).toEqual({ items: [], total: 0 });
    expect(await searchProducts(db, "_", { tier: "customer" })).toEqual({ items: [], total: 0 });
    expect(await searchProducts(db, "   ", { tier: "customer" })).toEqual({ items: [], total: 0 });
  });

  async function plan(where: SQL): Promise<string> {
    const query = pricedProducts({ ...pricing, tier: "reseller", where, limit: 10 });
    const rows = rowsOf(await db.execute(sql`explain ${query}`));
    return rows.map((r) => String(Object.values(r)[0])).join("\n");
  }

  it("uses the indexes for its lookups", async () => {
    expect(await plan(catalogueFilters.byOperator(["telkomsel"], "Pulsa"))).toMatch(
      /Index.*products_operator_category/,
    );
    expect(await plan(catalogueFilters.byOperator(["telkomsel", "byu"], "Data"))).toMatch(
      /Index.*products_operator_category/,
    );
    expect(await plan(catalogueFilters.byBrand("game", "FREE FIRE"))).toMatch(
      /Index.*products_type_brand/,
    );
    expect(await plan(catalogueFilters.byCategory("PLN PASCABAYAR"))).toMatch(
      /Index.*products_category_brand/,
    );
    expect(await plan(catalogueFilters.byCode("TSEL10"))).toMatch(/Index.*products_pkey/);
  });
});
