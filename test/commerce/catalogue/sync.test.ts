import { Writable } from "node:stream";
import { ManualClock } from "@kios/kit";
import { asc, count, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { OPERATORS } from "../../../src/commerce/catalogue/operators.ts";
import {
  CatalogueSyncError,
  LAST_SYNC_SETTING,
  syncCatalogue,
} from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { priceChanges, products, settings } from "../../../src/db/schema.ts";
import { createLogger } from "../../../src/logger.ts";
import { SupplierError, type SupplierProduct } from "../../../src/supplier/types.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import {
  createFakeSupplier,
  type FakeSupplier,
  generateCatalogue,
  product,
} from "../../helpers/fake-supplier.ts";

const snapshot = (db: Database) =>
  Promise.all([
    db.select().from(products).orderBy(asc(products.code)),
    db.select().from(priceChanges).orderBy(asc(priceChanges.id)),
  ]);

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ destination, pretty: false, level: "info" }), lines };
}

describe(`catalogue sync of 20,000 products (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  let supplier: FakeSupplier;
  const clock = new ManualClock({ start: Date.parse("2026-03-01T00:00:00Z"), frozen: true });

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    supplier = createFakeSupplier(generateCatalogue(20_000, 7));
  });
  afterAll(() => t.destroy());

  it("adds every product on the first sync", async () => {
    const summary = await syncCatalogue(db, supplier, { clock });
    expect(summary).toMatchObject({
      total: 20_000,
      added: 20_000,
      changed: 0,
      unchanged: 0,
      deactivated: 0,
      reactivated: 0,
      unlisted: 0,
      priceChanges: 0,
      skipped: 0,
      suspiciousEmpty: [],
    });
    expect(summary.ms).toBeGreaterThanOrEqual(0);
    const [{ n }] = (await db.select({ n: count() }).from(products)) as [{ n: number }];
    expect(n).toBe(20_000);
    const first = supplier.lists.prepaid[0]!;
    const sample = await db.select().from(products).where(eq(products.code, first.code));
    expect(sample[0]).toMatchObject({
      name: first.name,
      supplierPrice: first.price,
      active: first.active,
      listed: true,
      firstSeenAt: new Date(clock.now()),
      syncedAt: new Date(clock.now()),
    });
  });

  it("stores each list's products with their type, and an operator for mobile ones", async () => {
    const rows = await db
      .select({
        type: products.type,
        category: products.category,
        operator: products.operator,
        n: count(),
      })
      .from(products)
      .groupBy(products.type, products.category, products.operator);
    for (const row of rows) {
      if (row.category === "Pulsa" || row.category === "Data") {
        expect(row.type).toBe("prepaid");
        expect(OPERATORS).toContain(row.operator);
      } else {
        expect(row.operator).toBeNull();
      }
    }
    const byType = Object.fromEntries(
      ["prepaid", "game", "pasca"].map((type) => [
        type,
        rows.filter((r) => r.type === type).reduce((a, r) => a + r.n, 0),
      ]),
    );
    expect(byType).toEqual({
      prepaid: supplier.lists.prepaid.length,
      game: supplier.lists.game.length,
      pasca: supplier.lists.pasca.length,
    });
    // by.U's own products carry their own operator key
    expect(rows.some((r) => r.operator === "byu")).toBe(true);
  });

  it("changes nothing when nothing changed", async () => {
    const before = await snapshot(db);
    clock.advance(60_000);
    const summary = await syncCatalogue(db, supplier, { clock });
    expect(summary).toMatchObject({ total: 20_000, added: 0, changed: 0, unchanged: 20_000 });
    expect(summary.priceChanges + summary.deactivated + summary.reactivated).toBe(0);
    expect(await snapshot(db)).toEqual(before);
  });

  it("updates what changed and records each price change, old → new, when", async () => {
    clock.advance(60_000);
    const lists = supplier.lists;
    const [a, b, c, d, e] = lists.prepaid.filter((p) => p.active);
    const edits = new Map<string, Partial<SupplierProduct>>([
      [a!.code, { price: a!.price + 150 }],
      [b!.code, { price: b!.price - 25 }],
      [c!.code, { name: `${c!.name} (promo)` }],
      [d!.code, { active: false }],
      [e!.code, { price: e!.price + 1, desc: "new text" }],
    ]);
    lists.prepaid = lists.prepaid.map((p) => ({ ...p, ...edits.get(p.code) }));

    const summary = await syncCatalogue(db, supplier, { clock });
    expect(summary).toMatchObject({
      added: 0,
      changed: 5,
      unchanged: 19_995,
      priceChanges: 3,
      deactivated: 1,
      reactivated: 0,
    });
    const changes = await db.select().from(priceChanges).orderBy(asc(priceChanges.productCode));
    const expected = [a!, b!, e!]
      .map((p) => ({
        productCode: p.code,
        oldPrice: p.price,
        newPrice: p.price + (edits.get(p.code)!.price! - p.price),
        changedAt: new Date(clock.now()),
      }))
      .sort((x, y) => x.productCode.localeCompare(y.productCode));
    expect(changes.map(({ id: _, ...rest }) => rest)).toEqual(expected);
    const [row] = await db.select().from(products).where(eq(products.code, a!.code));
    expect(row).toMatchObject({
      supplierPrice: a!.price + 150,
      updatedAt: new Date(clock.now()),
    });
    expect(row!.firstSeenAt.getTime()).toBeLessThan(clock.now());
    const [inactive] = await db.select().from(products).where(eq(products.code, d!.code));
    expect(inactive).toMatchObject({ active: false, listed: true });
  });

  it("unlists products the supplier dropped, without deleting them, and relists them", async () => {
    clock.advance(60_000);
    const dropped = supplier.lists.game.filter((p) => p.active).slice(0, 40);
    const droppedCodes = new Set(dropped.map((p) => p.code));
    supplier.lists.game = supplier.lists.game.filter((p) => !droppedCodes.has(p.code));

    const gone = await syncCatalogue(db, supplier, { clock });
    expect(gone).toMatchObject({ total: 19_960, unlisted: 40, deactivated: 40, changed: 0 });
    const rows = await db
      .select({ listed: products.listed, n: count() })
      .from(products)
      .where(sql`${products.code} in ${[...droppedCodes]}`)
      .groupBy(products.listed);
    expect(rows).toEqual([{ listed: false, n: 40 }]);

    // dropped again: nothing new to unlist
    const again = await syncCatalogue(db, supplier, { clock });
    expect(again).toMatchObject({ unlisted: 0, deactivated: 0, unchanged: 19_960 });

    clock.advance(60_000);
    supplier.lists.game.push(
      ...dropped.map((p, i) => (i === 0 ? { ...p, price: p.price + 5 } : p)),
    );
    const back = await syncCatalogue(db, supplier, { clock });
    expect(back).toMatchObject({
      total: 20_000,
      added: 0,
      changed: 40,
      reactivated: 40,
      priceChanges: 1,
    });
    const [relisted] = await db.select().from(products).where(eq(products.code, dropped[0]!.code));
    expect(relisted).toMatchObject({ listed: true, supplierPrice: dropped[0]!.price + 5 });
  });

  it("counts a product coming back to active as reactivated", async () => {
    const inactive = supplier.lists.prepaid.find((p) => !p.active)!;
    supplier.lists.prepaid = supplier.lists.prepaid.map((p) =>
      p.code === inactive.code ? { ...p, active: true } : p,
    );
    const summary = await syncCatalogue(db, supplier, { clock });
    expect(summary).toMatchObject({ changed: 1, reactivated: 1, deactivated: 0 });
  });

  it("leaves the table untouched when any list fails to come", async () => {
    const before = await snapshot(db);
    // a change in a list that did come must not be applied either
    supplier.lists.prepaid = supplier.lists.prepaid.map((p) => ({ ...p, price: p.price + 1 }));
    supplier.failures.pasca = new SupplierError("TIMEOUT", "the supplier did not answer in time");
    const failing = syncCatalogue(db, supplier, { clock });
    await expect(failing).rejects.toBeInstanceOf(CatalogueSyncError);
    await expect(failing).rejects.toMatchObject({
      cmd: "pasca",
      message: expect.stringContaining("the supplier did not answer in time"),
    });
    expect(await snapshot(db)).toEqual(before);
    supplier.failures = {};
  });

  it("remembers the last sync's summary in settings", async () => {
    const summary = await syncCatalogue(db, supplier, { clock });
    const [row] = await db.select().from(settings).where(eq(settings.key, LAST_SYNC_SETTING));
    expect(row?.value).toMatchObject({
      at: new Date(clock.now()).toISOString(),
      summary: { total: summary.total, changed: summary.changed },
    });
  });
});

describe(`catalogue sync edge cases (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  beforeEach(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
  });
  afterEach(() => t.destroy());

  const small = () =>
    createFakeSupplier({
      prepaid: [
        product({ code: "TSEL10", brand: "TELKOMSEL", category: "PULSA" }),
        product({ code: "ISAT5GB", brand: "Indosat Ooredoo", category: "data" }),
        product({ code: "GOPAY50", brand: "GOPAY", category: "e-money", price: 51_000 }),
      ],
      game: [product({ code: "ML86", brand: "MOBILE LEGENDS", category: "Games", type: "game" })],
      pasca: [
        product({
          code: "PLNPOST",
          brand: "PLN",
          category: "PLN PASCABAYAR",
          type: "pasca",
          price: 2500,
        }),
        product({ code: "HALO", brand: "TELKOMSEL", category: "TELKOM", type: "pasca" }),
      ],
    });

  it("keeps one spelling per known category and maps brands to operators", async () => {
    await syncCatalogue(db, small());
    const rows = await db
      .select({ code: products.code, category: products.category, operator: products.operator })
      .from(products)
      .orderBy(asc(products.code));
    expect(rows).toEqual([
      { code: "GOPAY50", category: "E-Money", operator: null },
      { code: "HALO", category: "TELKOM", operator: null },
      { code: "ISAT5GB", category: "Data", operator: "indosat" },
      { code: "ML86", category: "Games", operator: null },
      { code: "PLNPOST", category: "PLN PASCABAYAR", operator: null },
      { code: "TSEL10", category: "Pulsa", operator: "telkomsel" },
    ]);
  });

  it("takes an empty list for a type it holds as a fault: nothing of that type is unlisted", async () => {
    const supplier = small();
    await syncCatalogue(db, supplier);
    supplier.lists.pasca = [];
    supplier.lists.game = [];
    const { logger, lines } = capturingLogger();
    const summary = await syncCatalogue(db, supplier, { logger });
    expect(summary).toMatchObject({
      total: 3,
      unlisted: 0,
      deactivated: 0,
      suspiciousEmpty: ["game", "pasca"],
    });
    const listed = await db.select({ n: count() }).from(products).where(eq(products.listed, true));
    expect(listed).toEqual([{ n: 6 }]);
    expect(lines.filter((l) => l.level === 40).map((l) => l.cmd)).toEqual(["game", "pasca"]);
  });

  it("accepts an empty list for a type it never held", async () => {
    const supplier = small();
    supplier.lists.game = [];
    const summary = await syncCatalogue(db, supplier);
    expect(summary).toMatchObject({ total: 5, added: 5, suspiciousEmpty: [] });
  });

  it("still unlists a dropped product when its list is not empty", async () => {
    const supplier = small();
    await syncCatalogue(db, supplier);
    supplier.lists.pasca = supplier.lists.pasca.filter((p) => p.code !== "HALO");
    const summary = await syncCatalogue(db, supplier);
    expect(summary).toMatchObject({ unlisted: 1, deactivated: 1, suspiciousEmpty: [] });
  });

  it("leaves out malformed records and repeated codes, and stops selling a malformed product", async () => {
    const supplier = small();
    await syncCatalogue(db, supplier);
    supplier.lists.prepaid = [
      ...supplier.lists.prepaid.map((p) => (p.code === "GOPAY50" ? { ...p, price: -1 } : p)),
      product({ code: "HALF", price: 10.5 }),
      product({ code: "" }),
      { ...product({ code: "NOACTIVE" }), active: "yes" as unknown as boolean },
      product({ code: "TSEL10", price: 1 }), // a repeat: the first TSEL10 wins
    ];
    supplier.lists.game.push(product({ code: "ISAT5GB", type: "game" })); // repeated across lists
    const summary = await syncCatalogue(db, supplier);
    expect(summary).toMatchObject({ total: 5, skipped: 6, unlisted: 1, deactivated: 1 });
    const gopay = await db.select().from(products).where(eq(products.code, "GOPAY50"));
    expect(gopay[0]).toMatchObject({ listed: false, supplierPrice: 51_000 });
    const tsel = await db.select().from(products).where(eq(products.code, "TSEL10"));
    expect(tsel[0]).toMatchObject({ supplierPrice: 10_000 });
    const isat = await db.select().from(products).where(eq(products.code, "ISAT5GB"));
    expect(isat[0]).toMatchObject({ type: "prepaid" });
  });

  it("stores supplier text without control characters, and leaves out a code holding one", async () => {
    // a NUL is refused by PostgreSQL and any control character breaks a price-list picture
    const supplier = createFakeSupplier({
      prepaid: [
        product({
          code: "TSEL10",
          name: "Telkomsel\u0000 10.000\u0007",
          brand: "TELK\u0001OMSEL",
          desc: "Pulsa\nreguler\t10rb",
        }),
        product({ code: "ISAT\u000110", name: "Indosat 10.000" }),
        product({ code: "XL10", name: "XL\r\n10.000" }),
      ],
      game: [],
      pasca: [],
    });
    const summary = await syncCatalogue(db, supplier);
    expect(summary).toMatchObject({ total: 2, skipped: 1 });
    const rows = await db
      .select({
        code: products.code,
        name: products.name,
        brand: products.brand,
        description: products.description,
        operator: products.operator,
      })
      .from(products)
      .orderBy(asc(products.code));
    expect(rows).toEqual([
      {
        code: "TSEL10",
        name: "Telkomsel 10.000",
        brand: "TELKOMSEL",
        description: "Pulsa reguler 10rb",
        operator: "telkomsel",
      },
      {
        code: "XL10",
        name: "XL 10.000",
        brand: "TELKOMSEL",
        description: "",
        operator: "telkomsel",
      },
    ]);
  });

  it("lets two syncs at once finish one after the other", async () => {
    const supplier = createFakeSupplier(generateCatalogue(2_000, 3));
    const [a, b] = await Promise.all([syncCatalogue(db, supplier), syncCatalogue(db, supplier)]);
    expect([a.added, b.added].sort()).toEqual([0, 2_000]);
    expect(a.added + a.unchanged).toBe(2_000);
    expect(b.added + b.unchanged).toBe(2_000);
    const [{ n }] = (await db.select({ n: count() }).from(products)) as [{ n: number }];
    expect(n).toBe(2_000);
  });

  it("works in small chunks as in large ones", async () => {
    const supplier = createFakeSupplier(generateCatalogue(500, 9));
    const first = await syncCatalogue(db, supplier, { chunkSize: 7 });
    expect(first).toMatchObject({ total: 500, added: 500 });
    supplier.lists.prepaid = supplier.lists.prepaid.map((p) => ({ ...p, price: p.price + 100 }));
    const second = await syncCatalogue(db, supplier, { chunkSize: 7 });
    expect(second).toMatchObject({
      changed: supplier.lists.prepaid.length,
      priceChanges: supplier.lists.prepaid.length,
      unchanged: 500 - supplier.lists.prepaid.length,
    });
  });
});
