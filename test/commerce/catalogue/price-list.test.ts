import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import {
  priceList,
  priceListScopes,
  resolvePriceListScope,
  type ScopeCount,
  scopeByKey,
  scopeKey,
} from "../../../src/commerce/catalogue/price-list.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import type { SupplierProduct } from "../../../src/supplier/types.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier, product } from "../../helpers/fake-supplier.ts";

// /harga's list: the products of a brand, a category or both, each with the caller's tier
// price, grouped by category then brand, cheapest first; a text names its scope.

const PREPAID: SupplierProduct[] = [
  product({ code: "TSEL10", name: "Telkomsel 10.000", price: 10_100 }),
  product({ code: "TSEL5", name: "Telkomsel 5.000", price: 5_100 }),
  product({ code: "TSELD1", name: "Telkomsel Data 1GB", category: "Data", price: 12_000 }),
  product({ code: "ISAT10", name: "Indosat 10.000", brand: "INDOSAT", price: 10_300 }),
  product({
    code: "PLN20",
    name: "Token PLN 20.000",
    category: "PLN",
    brand: "PLN",
    price: 20_200,
  }),
  product({ code: "GONE", name: "Telkomsel 1.000", price: 1_100, active: false }),
  product({
    code: "LINK50",
    name: "LinkAja 50.000",
    category: "E-Money",
    brand: "LINKAJA",
    price: 50_500,
    startCutOff: "23:45",
    endCutOff: "00:15",
  }),
];
const PASCA: SupplierProduct[] = [
  product({
    code: "PLNPOST",
    name: "PLN Pascabayar",
    category: "PLN PASCABAYAR",
    brand: "PLN",
    type: "pasca",
    price: 2_500,
  }),
];

describe(`the price list (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  let scopes: ScopeCount[];

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    await syncCatalogue(db, createFakeSupplier({ prepaid: PREPAID, pasca: PASCA }));
    await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 0, flat: 500 });
    await setMarkupRule(db, { scope: "all", tier: "reseller", percentBp: 0, flat: 100 });
    scopes = await priceListScopes(db, { tier: "customer" });
  });
  afterAll(() => t?.destroy());

  it("counts what is for sale by brand and category", () => {
    expect(scopes).toContainEqual({ brand: "TELKOMSEL", category: "Pulsa", count: 2 });
    expect(scopes).toContainEqual({ brand: "PLN", category: "PLN PASCABAYAR", count: 1 });
    // the inactive product is not for sale
    expect(scopes.find((s) => s.brand === "TELKOMSEL" && s.category === "Pulsa")?.count).toBe(2);
  });

  it("reads a brand, a category, or both from what the caller typed", () => {
    expect(resolvePriceListScope(scopes, "telkomsel")).toEqual({ scope: { brand: "TELKOMSEL" } });
    expect(resolvePriceListScope(scopes, " PULSA ")).toEqual({ scope: { category: "Pulsa" } });
    // a category is read before a brand of the same name
    expect(resolvePriceListScope(scopes, "pln")).toEqual({ scope: { category: "PLN" } });
    expect(resolvePriceListScope(scopes, "telkomsel data")).toEqual({
      scope: { brand: "TELKOMSEL", category: "Data" },
    });
    expect(resolvePriceListScope(scopes, "pulsa   Telkomsel")).toEqual({
      scope: { brand: "TELKOMSEL", category: "Pulsa" },
    });
    // a part of a name: one match is taken, several are offered
    expect(resolvePriceListScope(scopes, "link")).toEqual({ scope: { brand: "LINKAJA" } });
    expect(resolvePriceListScope(scopes, "pl")).toEqual({
      suggestions: [{ category: "PLN" }, { category: "PLN PASCABAYAR" }, { brand: "PLN" }],
    });
    expect(resolvePriceListScope(scopes, "xyz")).toBeUndefined();
    expect(resolvePriceListScope(scopes, "indosat data")).toBeUndefined();
  });

  it("finds a scope again by its short key, and only one that is for sale", () => {
    for (const scope of [
      { brand: "TELKOMSEL" },
      { category: "Pulsa" },
      { brand: "PLN", category: "PLN" },
    ]) {
      const key = scopeKey(scope);
      expect(key).toMatch(/^[0-9a-f]{10}$/);
      expect(scopeByKey(scopes, key)).toEqual(scope);
    }
    expect(scopeByKey(scopes, scopeKey({ brand: "NOSUCH" }))).toBeUndefined();
  });

  it("lists a scope with the tier's prices, grouped, cheapest first, in pages", async () => {
    const customer = await priceList(db, { brand: "TELKOMSEL" }, { tier: "customer" });
    expect(customer.total).toBe(3);
    expect(customer.items.map((i) => [i.code, i.price])).toEqual([
      ["TSELD1", 12_500],
      ["TSEL5", 5_600],
      ["TSEL10", 10_600],
    ]);
    const reseller = await priceList(db, { brand: "TELKOMSEL" }, { tier: "reseller" });
    expect(reseller.items.map((i) => i.price)).toEqual([12_100, 5_200, 10_200]);

    const page2 = await priceList(
      db,
      { category: "Pulsa" },
      { tier: "customer", limit: 2, offset: 2 },
    );
    expect(page2.total).toBe(3);
    expect(page2.items.map((i) => i.code)).toEqual(["TSEL10"]);
    const both = await priceList(db, { brand: "PLN", category: "PLN" }, { tier: "customer" });
    expect(both.items.map((i) => i.code)).toEqual(["PLN20"]);
    // a closed product is listed with its hours, for the view to mark
    const link = await priceList(db, { brand: "LINKAJA" }, { tier: "customer" });
    expect(link.items[0]).toMatchObject({
      code: "LINK50",
      startCutOff: "23:45",
      endCutOff: "00:15",
    });
  });
});
