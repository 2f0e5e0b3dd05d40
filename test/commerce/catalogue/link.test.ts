import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { routesOf } from "../../../src/commerce/catalogue/routes.ts";
import { productRoutes, products, unlinkedSupplierProducts } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import { addTwinOf, bootTwoSuppliers, type TwoSuppliers } from "../../helpers/two-suppliers.ts";

// another supplier's products become routes of kios products: same type, brand, category
// and normalised name; two candidates are never guessed. docs/suppliers.md#linking

describe(`linking a second supplier's catalogue (${testDriver})`, () => {
  let h: TwoSuppliers;
  beforeAll(async () => {
    h = await bootTwoSuppliers();
  });
  afterAll(() => h.stop());

  const routeOf = async (supplierCode: string) => {
    const [row] = await h.deps.db
      .select()
      .from(productRoutes)
      .where(
        and(eq(productRoutes.supplier, "backup"), eq(productRoutes.supplierCode, supplierCode)),
      );
    return row;
  };

  it("links each backup product to the kios product of the same name, after the first's route", async () => {
    const route = await routeOf("BTSEL10");
    expect(route).toMatchObject({ productCode: "TSEL10", position: 1, enabled: true });
    const [product] = await h.deps.db.select().from(products).where(eq(products.code, "TSEL10"));
    const routes = await routesOf(h.deps.db, product!, "main");
    expect(routes.map((r) => [r.supplier, r.supplierCode, r.implicit])).toEqual([
      ["main", "TSEL10", true],
      ["backup", "BTSEL10", false],
    ]);
  });

  it("keeps a link across syncs, its price and status refreshed, even when its name changes", async () => {
    const before = await routeOf("BISAT10");
    h.backupSandbox.setPrice("BISAT10", 11_111);
    const entry = h.backupSandbox.catalogue().find((p) => p.code === "BISAT10") as { name: string };
    entry.name = "Indosat Sepuluh Ribu";
    const summary = await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: h.backup });
    expect(summary.linked).toBe(0);
    const after = await routeOf("BISAT10");
    expect(after).toMatchObject({
      id: before!.id,
      productCode: "ISAT10",
      cost: 11_111,
      name: "Indosat Sepuluh Ribu",
    });
  });

  it("lists a product two kios products match for an admin, and links neither", async () => {
    // a second kios product with XL25's type, brand, category and name
    await addTwinOf(h, "XL25");
    await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: h.backup });
    expect(await routeOf("BXL25")).toBeUndefined();
    const [listed] = await h.deps.db
      .select()
      .from(unlinkedSupplierProducts)
      .where(eq(unlinkedSupplierProducts.supplierCode, "BXL25"));
    expect(listed?.candidates.sort()).toEqual(["XL25", "XL25-TWIN"]);
  });
});
