import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import { productByCode, productsByOperator } from "../../../src/commerce/catalogue/queries.ts";
import { routesOfCode } from "../../../src/commerce/catalogue/routes.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { productRoutes, products, unlinkedSupplierProducts } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier, type FakeSupplier, product } from "../../helpers/fake-supplier.ts";

// one catalogue from every supplier (docs/suppliers.md#linking): a backup's product that
// links to no kios product becomes one of its own, on sale at the buyer's price; one that
// matches two waits for an admin; and when the first supplier lists it later, its listing
// becomes a route of that product, not a second product.

describe(`one catalogue from two suppliers (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  let main: FakeSupplier;
  let backup: FakeSupplier;
  const sync = () => syncCatalogue(db, main, { firstSupplier: "main" });
  const link = () =>
    linkSupplierCatalogue(db, { name: "backup", supplier: backup, firstSupplier: "main" });
  const routes = async (code: string) =>
    ((await routesOfCode(db, code, "main")) ?? []).map((r) => [r.supplier, r.supplierCode, r.cost]);

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    main = createFakeSupplier({
      prepaid: [
        product({ code: "TSEL10", name: "Telkomsel 10.000", brand: "TELKOMSEL", price: 10_200 }),
        // two kios products alike: a backup's product matching both waits for an admin
        product({ code: "AX10", name: "Axis 10.000", brand: "AXIS", price: 10_300 }),
        product({ code: "AX10P", name: "AXIS 10000", brand: "Axis", price: 10_350 }),
      ],
    });
    backup = createFakeSupplier({
      prepaid: [
        // the same product under another supplier's words
        product({
          code: "tsel-10k",
          name: "TSEL 10K",
          brand: "Tsel",
          category: "PULSA",
          price: 10_100,
        }),
        // only the backup sells it
        product({ code: "xl5", name: "XL 5rb", brand: "XL", category: "pulsa", price: 5_350 }),
        product({ code: "AXIS10", name: "AXIS 10K", brand: "AXIS", price: 10_250 }),
      ],
    });
    await sync();
    await setMarkupRule(db, {
      scope: "category",
      scopeValue: "Pulsa",
      tier: "customer",
      percentBp: 0,
      flat: 1_000,
    });
  });
  afterAll(() => t.destroy());

  it("links the same product named another way as a route of the kios product", async () => {
    const summary = await link();
    expect(summary).toMatchObject({ linked: 1, created: 1, ambiguous: 1 });
    expect(await routes("TSEL10")).toEqual([
      ["main", "TSEL10", 10_200],
      ["backup", "tsel-10k", 10_100],
    ]);
  });

  it("puts a product only the backup sells on sale, priced by the markup rules", async () => {
    const [row] = await db.select().from(products).where(eq(products.code, "XL5"));
    expect(row).toMatchObject({
      originSupplier: "backup",
      operator: "xl",
      category: "Pulsa",
      supplierPrice: 5_350,
      listed: true,
      routable: true,
      routeCost: 5_350,
    });
    // sold by its code upper case (a quick order's), bought by the supplier's own spelling
    expect(await routes("XL5")).toEqual([["backup", "xl5", 5_350]]);
    // 5,350 + Rp1,000, rounded up to the step of 100
    const listed = await productsByOperator(db, "xl", "Pulsa", { tier: "customer" });
    expect(listed.items.map((i) => [i.code, i.price])).toEqual([["XL5", 6_400]]);
    expect((await productByCode(db, "XL5", { tier: "customer" }))?.price).toBe(6_400);
  });

  it("leaves a product two kios products match for an admin, and makes no product of it", async () => {
    const [waiting] = await db
      .select()
      .from(unlinkedSupplierProducts)
      .where(eq(unlinkedSupplierProducts.supplierCode, "AXIS10"));
    expect(waiting?.candidates.sort()).toEqual(["AX10", "AX10P"]);
    expect(await db.select().from(products).where(eq(products.code, "AXIS10"))).toEqual([]);
    expect(
      await db.select().from(productRoutes).where(eq(productRoutes.supplierCode, "AXIS10")),
    ).toEqual([]);
  });

  it("keeps the backup's product, its price followed, on the next link", async () => {
    backup.lists.prepaid.find((p) => p.code === "xl5")!.price = 5_450;
    const summary = await link();
    expect(summary).toMatchObject({ linked: 0, created: 0, kept: 2 });
    expect((await productByCode(db, "XL5", { tier: "customer" }))?.price).toBe(6_500);
    expect(
      await db.select().from(products).where(eq(products.originSupplier, "backup")),
    ).toHaveLength(1);
  });

  it("links the first supplier's later listing of it to that product instead of a second one", async () => {
    main.lists.prepaid.push(
      product({ code: "XL5000", name: "XL 5.000", brand: "XL", category: "Pulsa", price: 5_300 }),
    );
    const summary = await sync();
    expect(summary).toMatchObject({ added: 0, routed: 1, skipped: 0 });
    expect(await db.select().from(products).where(eq(products.code, "XL5000"))).toEqual([]);
    expect(await routes("XL5")).toEqual([
      ["backup", "xl5", 5_450],
      ["main", "XL5000", 5_300],
    ]);
    // a later sync keeps that route, and follows its price
    main.lists.prepaid.find((p) => p.code === "XL5000")!.price = 5_280;
    expect(await sync()).toMatchObject({ added: 0, routed: 0 });
    expect(await routes("XL5")).toEqual([
      ["backup", "xl5", 5_450],
      ["main", "XL5000", 5_280],
    ]);
    expect(await db.select().from(products).where(eq(products.code, "XL5000"))).toEqual([]);
  });

  it("takes the product off sale when its supplier no longer lists it, and keeps it", async () => {
    const gone = backup.lists.prepaid.findIndex((p) => p.code === "xl5");
    const [xl] = backup.lists.prepaid.splice(gone, 1);
    await link();
    const [row] = await db.select().from(products).where(eq(products.code, "XL5"));
    expect(row).toMatchObject({ listed: false, routable: true, routeCost: 5_280 });
    // sold through the first supplier's route it has now
    expect((await productByCode(db, "XL5", { tier: "customer" }))?.price).toBe(6_300);
    backup.lists.prepaid.push(xl!);
    await link();
    expect(
      await db.select().from(products).where(eq(products.originSupplier, "backup")),
    ).toHaveLength(1);
  });

  it("links a backup's product to a kios product the first supplier stopped listing, not a second one", async () => {
    main.lists.prepaid.push(
      product({ code: "TRI5", name: "Tri 5.000", brand: "TRI", price: 5_200 }),
    );
    await sync();
    main.lists.prepaid = main.lists.prepaid.filter((p) => p.code !== "TRI5");
    await sync();
    backup.lists.prepaid.push(
      product({ code: "b-tri5", name: "THREE 5K", brand: "Three", price: 5_150 }),
    );
    expect(await link()).toMatchObject({ linked: 1, created: 0 });
    expect(await db.select().from(products).where(eq(products.code, "B-TRI5"))).toEqual([]);
    expect(await routes("TRI5")).toEqual([
      ["main", "TRI5", 5_200],
      ["backup", "b-tri5", 5_150],
    ]);
    // on sale again, through the backup
    expect((await productByCode(db, "TRI5", { tier: "customer" }))?.price).toBe(6_200);
  });
});
