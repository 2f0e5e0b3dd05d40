import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { priceFor } from "../../../src/commerce/catalogue/prices.ts";
import { productsByOperator } from "../../../src/commerce/catalogue/queries.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { productRoutes, products } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import { bootTwoSuppliers, type TwoSuppliers } from "../../helpers/two-suppliers.ts";

// a product only a backup sells (docs/suppliers.md#linking) is listed, quoted and bought from
// that backup in one tap, by the backup's own code, with nothing sent to the first supplier

describe(`a product only the backup sells (${testDriver})`, () => {
  let h: TwoSuppliers;
  beforeAll(async () => {
    h = await bootTwoSuppliers();
    // the backup's XL 25 under a name no kios product has: a product of the backup alone
    await h.deps.db.delete(productRoutes).where(eq(productRoutes.supplierCode, "BXL25"));
    const entry = h.backupSandbox.catalogue().find((p) => p.code === "BXL25") as { name: string };
    entry.name = "XL Xtra Combo 25.000";
    h.backupSandbox.setPrice("BXL25", 24_700);
  }, 180_000);
  afterAll(() => h.stop());

  it("becomes a kios product, listed for its operator at the buyer's price, and sells at the backup", async () => {
    const summary = await linkSupplierCatalogue(h.deps.db, {
      name: "backup",
      supplier: h.backup,
      firstSupplier: "main",
    });
    expect(summary.created).toBe(1);
    const [row] = await h.deps.db.select().from(products).where(eq(products.code, "BXL25"));
    expect(row).toMatchObject({ originSupplier: "backup", operator: "xl", routeCost: 24_700 });

    const page = await productsByOperator(h.deps.db, "xl", row!.category, {
      tier: "customer",
      limit: 100,
    });
    const item = page.items.find((i) => i.code === "BXL25");
    expect(item?.price).toBeGreaterThanOrEqual(24_700);
    expect(await priceFor(h.deps.db, "BXL25", "customer")).toBe(item!.price);

    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081712340901", "BXL25");
    expect(q.price).toBe(item!.price);
    const result = await confirmQuote(h.engine, { quoteId: q.id, userId: user });
    expect(result.ok && result.order).toMatchObject({
      status: "success",
      supplier: "backup",
      routeCode: "BXL25",
      cost: 24_700,
    });
    expect(h.sandbox.requests()).toHaveLength(0);
    expect(h.backupSandbox.requests()).toHaveLength(1);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - q.price);
  });
});
