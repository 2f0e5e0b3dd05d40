import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { priceFor } from "../../../src/commerce/catalogue/prices.ts";
import { productsByOperator } from "../../../src/commerce/catalogue/queries.ts";
import { changeRoute } from "../../../src/commerce/catalogue/routes.ts";
import { syncAndLink } from "../../../src/commerce/catalogue/sync-job.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { products } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import {
  BOOTS_IN_EACH_TEST,
  bootTwoSuppliers,
  type TwoSuppliers,
} from "../../helpers/two-suppliers.ts";

// what kios sells a product by (docs/suppliers.md#what-the-buyer-is-offered): any route can
// sell it, and its price is marked up over the route tried first.

describe(`a product on sale through its routes (${testDriver})`, BOOTS_IN_EACH_TEST, () => {
  let h: TwoSuppliers | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const resync = () =>
    syncAndLink({
      db: h!.deps.db,
      supplier: h!.supplier,
      firstSupplier: "main",
      others: [{ name: "backup", supplier: h!.backup }],
      clock: h!.clock,
      logger: h!.deps.logger,
    });

  async function row(code: string) {
    const [p] = await h!.deps.db.select().from(products).where(eq(products.code, code));
    return p!;
  }

  async function listed(code: string) {
    const page = await productsByOperator(h!.deps.db, "telkomsel", "Pulsa", {
      tier: "customer",
      limit: 100,
    });
    return page.items.find((i) => i.code === code);
  }

  it("offers a product the first supplier switched off, priced over the backup, and sells it there in one tap", async () => {
    h = await bootTwoSuppliers();
    const mainPrice = (await row("TSEL10")).supplierPrice;
    h.backupSandbox.setPrice("BTSEL10", mainPrice + 300);
    h.sandbox.setActive("TSEL10", false);
    await resync();

    const p = await row("TSEL10");
    expect(p.active).toBe(false);
    expect(p.routable).toBe(true);
    expect(p.routeCost).toBe(mainPrice + 300);
    const item = await listed("TSEL10");
    expect(item?.supplierPrice).toBe(mainPrice + 300);
    expect(item!.price).toBeGreaterThanOrEqual(mainPrice + 300);
    expect(await priceFor(h.deps.db, "TSEL10", "customer")).toBe(item!.price);

    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    expect(q.price).toBe(item!.price);
    const result = await confirmQuote(h.engine, { quoteId: q.id, userId: user });
    expect(result.ok && result.order).toMatchObject({
      status: "success",
      supplier: "backup",
      routeCode: "BTSEL10",
      cost: mainPrice + 300,
    });
    // nothing went to the first supplier: its route was not tried at all
    expect(h.sandbox.requests()).toHaveLength(0);
    expect(h.backupSandbox.requests()).toHaveLength(1);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - q.price);
  });

  it("follows the routes' order, switches and the first supplier's return", async () => {
    h = await bootTwoSuppliers();
    const mainPrice = (await row("TSEL10")).supplierPrice;
    h.backupSandbox.setPrice("BTSEL10", mainPrice - 200);
    await resync();
    // the first supplier's route comes first: its price is the one marked up
    expect(await row("TSEL10")).toMatchObject({ routeCost: mainPrice, routable: true });

    // the backup moved up: the product sells by its cost
    await changeRoute(h.deps.db, {
      productCode: "TSEL10",
      firstSupplier: "main",
      change: { action: "up", supplier: "backup" },
    });
    expect(await row("TSEL10")).toMatchObject({ routeCost: mainPrice - 200 });
    expect((await listed("TSEL10"))?.supplierPrice).toBe(mainPrice - 200);

    // the backup switched off: back to the first supplier's
    await changeRoute(h.deps.db, {
      productCode: "TSEL10",
      firstSupplier: "main",
      change: { action: "disable", supplier: "backup" },
    });
    expect(await row("TSEL10")).toMatchObject({ routeCost: mainPrice, routable: true });

    // and the first supplier switches it off too: nothing can sell it, it is not offered
    h.sandbox.setActive("TSEL10", false);
    await resync();
    expect(await row("TSEL10")).toMatchObject({ routable: false });
    expect(await listed("TSEL10")).toBeUndefined();
    expect(await priceFor(h.deps.db, "TSEL10", "customer")).toBeNull();

    // the first supplier sells it again: on sale again at once after its sync
    h.sandbox.setActive("TSEL10", true);
    await resync();
    expect(await row("TSEL10")).toMatchObject({ routeCost: mainPrice, routable: true });
    expect(await listed("TSEL10")).toBeDefined();
  });

  it("refuses Pay when the route it would take now costs more than the quote, before anything is held or sent", async () => {
    h = await bootTwoSuppliers();
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    h.sandbox.setActive("TSEL10", false);
    h.backupSandbox.setPrice("BTSEL10", q.price + 500);
    await resync();
    const result = await confirmQuote(h.engine, { quoteId: q.id, userId: user });
    expect(result).toMatchObject({ ok: false, reason: "quote_expired" });
    expect(h.backupSandbox.requests()).toHaveLength(0);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
  });

  it("leaves products without a route of another supplier, and bills, to their own figures", async () => {
    h = await bootTwoSuppliers();
    const bills = await h.deps.db.select().from(products).where(eq(products.type, "pasca"));
    expect(bills.length).toBeGreaterThan(0);
    expect(bills.every((b) => b.routeCost === null && b.routable === null)).toBe(true);
  });
});
