import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { linkByHand, listUnlinked } from "../../../src/commerce/catalogue/manual-links.ts";
import { productRoutes, products, unlinkedSupplierProducts } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import { addTwinOf, bootTwoSuppliers, type TwoSuppliers } from "../../helpers/two-suppliers.ts";

// what the linking leaves to an admin, seen and linked by hand (docs/suppliers.md#linking)

describe(`linking another supplier's product by hand (${testDriver})`, () => {
  let h: TwoSuppliers;
  beforeAll(async () => {
    h = await bootTwoSuppliers();
    // two kios products of XL25's type, brand, category and name: BXL25 matches both
    await addTwinOf(h, "XL25");
    await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: h.backup });
  });
  afterAll(() => h.stop());

  const link = (productCode: string, supplierCode: string, supplier = "backup") =>
    linkByHand(h.deps.db, { productCode, supplier, supplierCode, firstSupplier: "main" });

  it("lists what waits for a link, ambiguous ones first, with the supplier's cost", async () => {
    const { items, total } = await listUnlinked(h.deps.db, { supplier: "backup", limit: 5 });
    expect(total).toBeGreaterThanOrEqual(1);
    const price = h.backupSandbox.catalogue().find((p) => p.code === "BXL25")!.price;
    expect(items[0]).toMatchObject({
      supplierCode: "BXL25",
      candidates: expect.arrayContaining(["XL25", "XL25-TWIN"]),
      cost: price,
      active: true,
    });
    expect((await listUnlinked(h.deps.db, { supplier: "nobody", limit: 5 })).total).toBe(0);
  });

  it("refuses what it can't link, and links one as the last route, kept by the next sync", async () => {
    expect(await link("NOPE", "BXL25")).toEqual({ ok: false, reason: "no_product" });
    expect(await link("XL25", "BTSEL10")).toEqual({ ok: false, reason: "not_unlinked" });
    expect(await link("XL25", "BXL25")).toEqual({ ok: true, position: 1 });
    const [route] = await h.deps.db
      .select()
      .from(productRoutes)
      .where(and(eq(productRoutes.supplier, "backup"), eq(productRoutes.supplierCode, "BXL25")));
    expect(route).toMatchObject({ productCode: "XL25", position: 1, enabled: true, active: true });
    expect(
      (await listUnlinked(h.deps.db, { supplier: "backup", limit: 100 })).items,
    ).not.toContainEqual(expect.objectContaining({ supplierCode: "BXL25" }));
    // the product now sells by its routes (sale.ts)
    const [xl] = await h.deps.db.select().from(products).where(eq(products.code, "XL25"));
    expect(xl).toMatchObject({ routable: true, routeCost: xl!.supplierPrice });
    // twice: it waits no more; the twin can't take it either
    expect(await link("XL25", "BXL25")).toEqual({ ok: false, reason: "not_unlinked" });
    expect(await link("XL25-TWIN", "BXL25")).toEqual({ ok: false, reason: "not_unlinked" });

    // the next sync keeps the link made by hand
    const summary = await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: h.backup });
    expect(summary.ambiguous).toBe(0);
    const [kept] = await h.deps.db
      .select()
      .from(productRoutes)
      .where(and(eq(productRoutes.supplier, "backup"), eq(productRoutes.supplierCode, "BXL25")));
    expect(kept).toMatchObject({ id: route!.id, productCode: "XL25" });
  });

  it("refuses a second route at one supplier, and a bill", async () => {
    // another backup product waiting, linked to a product that has its backup route already
    const [pln] = await h.deps.db.select().from(products).where(eq(products.type, "pasca"));
    await h.deps.db.insert(unlinkedSupplierProducts).values({
      supplier: "backup",
      supplierCode: "BEXTRA",
      name: "Extra",
      brand: "TELKOMSEL",
      category: "Pulsa",
      candidates: [],
      cost: 1_000,
      active: true,
    });
    expect(await link("TSEL10", "BEXTRA")).toEqual({ ok: false, reason: "has_route" });
    expect(await link(pln!.code, "BEXTRA")).toEqual({ ok: false, reason: "bill" });
  });
});
