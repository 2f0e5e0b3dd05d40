import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import { productByCode } from "../../../src/commerce/catalogue/queries.ts";
import { searchCatalogue, searchTerms } from "../../../src/commerce/catalogue/search.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { rowsOf } from "../../../src/db/sql-rows.ts";
import { createSignatureSupplier } from "../../../src/supplier/index.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

// the Mini App's and inline mode's search over the sandbox's 5,526 products: every word
// typed must be found, the words that start a product's words rank it first, prices are
// the buyer's tier's

describe(`catalogue search (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    sandbox = await startSandbox({ port: 0 });
    const supplier = createSignatureSupplier({
      baseUrl: sandbox.url,
      ...DEFAULT_SANDBOX_CREDENTIALS,
    });
    await syncCatalogue(db, supplier);
    await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 300 });
    await setMarkupRule(db, { scope: "all", tier: "reseller", percentBp: 100 });
  });
  afterAll(async () => {
    await sandbox?.close();
    await t?.destroy();
  });

  const search = (text: string, more: Partial<Parameters<typeof searchCatalogue>[1]> = {}) =>
    searchCatalogue(db, { text, tier: "customer", limit: 20, ...more });

  it("reads typed words as the products write them", () => {
    expect(searchTerms("  Tsel   10.000 ")).toEqual(["tsel", "10000"]);
    expect(searchTerms("tsel 10rb")).toEqual(["tsel", "10000"]);
    expect(searchTerms("TSEL 10K")).toEqual(["tsel", "10000"]);
    expect(searchTerms("dana 1jt")).toEqual(["dana", "1000000"]);
    expect(searchTerms("Rp20.000 pln")).toEqual(["20000", "pln"]);
    expect(searchTerms("10,000")).toEqual(["10000"]);
    expect(searchTerms("a a a")).toEqual(["a"]);
    expect(searchTerms("")).toEqual([]);
    expect(searchTerms("1 2 3 4 5 6 7 8 9 10")).toHaveLength(8);
  });

  it("finds Telkomsel 10.000 from a few letters, before Telkomsel 1.000", async () => {
    const page = await search("tsel 10");
    const codes = page.items.map((i) => i.code);
    expect(codes).toContain("TSEL10");
    expect(codes.indexOf("TSEL10")).toBeLessThan(3);
    // 1.000 holds "10" too, but not as a word's start: it comes after every word match
    const one = codes.indexOf("TSEL1");
    if (one !== -1) expect(one).toBeGreaterThan(codes.indexOf("TSEL10"));
    for (const item of page.items) {
      const text = `${item.code} ${item.brand} ${item.category} ${item.name}`.toLowerCase();
      expect(text.replaceAll(".", "")).toMatch(/tsel|telkomsel/);
    }
  });

  it("matches every word across brand, category, name, nominal, quota and validity", async () => {
    const game = await search("free fire 140");
    expect(game.items[0]?.code).toBe("FF140");
    const data = await search("telkomsel data 10gb 30 hari");
    expect(data.items.map((i) => i.code)).toContain("TSELD10GB30");
    for (const item of data.items) {
      expect(item.category).toBe("Data");
      expect(item.name).toMatch(/10GB.*30 Hari/);
    }
    const byCategory = await search("e-money gopay 50.000");
    expect(byCategory.items.map((i) => i.code)).toContain("GOPAY50");
    const thousands = await search("pln 20.000");
    expect(thousands.items[0]?.code).toBe("PLN20");
    expect((await search("pln 20rb")).items[0]?.code).toBe("PLN20");
  });

  it("puts an exact code first and reads wildcards as letters", async () => {
    expect((await search("ml86")).items[0]?.code).toBe("ML86");
    expect(await search("%")).toEqual({ items: [], total: 0 });
    expect(await search("_")).toEqual({ items: [], total: 0 });
    expect(await search("tsel %")).toEqual({ items: [], total: 0 });
  });

  it("prices at the tier's own price, as a card would", async () => {
    const customer = await search("tsel 10");
    const reseller = await search("tsel 10", { tier: "reseller" });
    const asCustomer = await productByCode(db, "TSEL10", { tier: "customer" });
    const asReseller = await productByCode(db, "TSEL10", { tier: "reseller" });
    expect(customer.items.find((i) => i.code === "TSEL10")?.price).toBe(asCustomer?.price);
    expect(reseller.items.find((i) => i.code === "TSEL10")?.price).toBe(asReseller?.price);
    expect(asReseller!.price).toBeLessThan(asCustomer!.price);
  });

  it("leaves out what is not for sale and keeps to a phone's operator", async () => {
    // always inactive in the sandbox
    expect((await search("ISAT1000")).items.map((i) => i.code)).not.toContain("ISAT1000");
    const telkomsel = await search("10.000", { operators: ["telkomsel"], limit: 100 });
    expect(telkomsel.total).toBeGreaterThan(0);
    for (const item of telkomsel.items) expect([null, "telkomsel"]).toContain(item.operator);
    expect(telkomsel.items.some((i) => i.operator === null)).toBe(true);
    const pulsa = await search("", { operators: ["indosat"], category: "pulsa", limit: 100 });
    expect(pulsa.total).toBeGreaterThan(5);
    for (const item of pulsa.items) {
      expect(item.operator).toBe("indosat");
      expect(item.category).toBe("Pulsa");
    }
    const brand = await search("", { brand: "FREE FIRE", type: "game", limit: 5 });
    expect(brand.items.every((i) => i.brand === "FREE FIRE")).toBe(true);
  });

  it("answers 'contains' from the trigram index", async () => {
    const rows = rowsOf(
      await db.execute(
        sql`explain select code from products p where p.search_text like '%free%' and p.search_text like '%fire%'`,
      ),
    );
    const plan = rows.map((r) => String(Object.values(r)[0])).join("\n");
    expect(plan).toMatch(/products_search_trgm/);
  });
});
