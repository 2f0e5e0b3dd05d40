import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { resumeProduct } from "../../../src/commerce/catalogue/pauses.ts";
import { routesOfCode } from "../../../src/commerce/catalogue/routes.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { notifications, productRoutes, products } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import {
  BOOTS_IN_EACH_TEST,
  bootTwoSuppliers,
  type TwoSuppliers,
} from "../../helpers/two-suppliers.ts";

// a product failing at one supplier pauses THAT ROUTE (that supplier for that product), not
// the product at every supplier: it stays on sale through its other routes. With no route
// left, the product itself closes, as with one supplier. docs/reconciliation.md

describe(`route pauses (${testDriver})`, BOOTS_IN_EACH_TEST, () => {
  let h: TwoSuppliers | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function boot() {
    h = await bootTwoSuppliers();
    // one failure in one final order pauses (the default needs 3 of 5)
    h.engine = { ...h.engine, productPause: { failures: 1, of: 1, minutes: 30 } };
    return h;
  }

  async function buy(destination: string) {
    const user = await h!.newUser(100_000);
    const q = await h!.quote(user, destination, "TSEL10");
    return confirmQuote(h!.engine, { quoteId: q.id, userId: user });
  }

  const productRow = async () =>
    (await h!.deps.db.select().from(products).where(eq(products.code, "TSEL10")))[0]!;
  const pausedAlerts = () =>
    h!.deps.db
      .select()
      .from(notifications)
      .where(sql`${notifications.payload}->>'type' = 'product_paused'`);

  it("failing at the main pauses the main's route; the next sale goes to the backup", async () => {
    await boot();
    // a final failure at the main (902 fails there at once, and is no proof for a re-route)
    const failed = await buy("081234560902");
    expect(failed.ok && [failed.order.status, failed.order.supplier]).toEqual(["failed", null]);
    // the product stays on sale; the main's route is paused
    expect((await productRow()).pausedUntil).toBeNull();
    const routes = await routesOfCode(h!.deps.db, "TSEL10", "main");
    const main = routes!.find((r) => r.supplier === "main")!;
    const until = main.pausedUntil!.getTime();
    expect(until).toBeGreaterThan(h!.clock.now() + 29 * 60_000);
    expect(until).toBeLessThanOrEqual(h!.clock.now() + 30 * 60_000);
    expect(main.position).toBe(0);
    expect(routes!.find((r) => r.supplier === "backup")?.pausedUntil).toBeNull();
    const alerts = await pausedAlerts();
    expect(alerts.map((a) => a.payload)).toEqual([
      {
        type: "product_paused",
        code: "TSEL10",
        name: (await productRow()).name,
        until,
        reason: "failing",
        supplier: "main",
      },
    ]);

    const mainOrders = h!.sandbox.requests().length;
    const next = await buy("081234560901");
    expect(next.ok && [next.order.status, next.order.supplier]).toEqual(["success", "backup"]);
    // the paused route was not tried at all
    expect(h!.sandbox.requests()).toHaveLength(mainOrders);

    // an admin who knows it works again opens it: the main is tried first again
    expect(await resumeProduct(h!.deps.db, "tsel10", new Date(h!.clock.now()))).toMatchObject({
      code: "TSEL10",
    });
    const again = await buy("081234560901");
    expect(again.ok && [again.order.status, again.order.supplier]).toEqual(["success", null]);
  });

  it("failing at the last route left closes the product itself, as with one supplier", async () => {
    await boot();
    // the backup's route switched off: the main is the only route
    await h!.deps.db
      .update(productRoutes)
      .set({ enabled: false })
      .where(and(eq(productRoutes.productCode, "TSEL10"), eq(productRoutes.supplier, "backup")));
    const failed = await buy("081234560902");
    expect(failed.ok && failed.order.status).toBe("failed");
    const product = await productRow();
    expect(product.pauseReason).toBe("failing");
    // no route row was made for it: the product's own pause holds
    const rows = await h!.deps.db
      .select()
      .from(productRoutes)
      .where(and(eq(productRoutes.productCode, "TSEL10"), eq(productRoutes.supplier, "main")));
    expect(rows).toEqual([]);
    expect((await pausedAlerts()).map((a) => a.payload)).toMatchObject([
      { code: "TSEL10", reason: "failing" },
    ]);
    expect((await pausedAlerts())[0]!.payload).not.toHaveProperty("supplier");
  });

  it("every route paused: a card shown before is refused as closed, nothing held", async () => {
    await boot();
    const user = await h!.newUser(100_000);
    const card = await h!.quote(user, "081234560901", "TSEL10");
    const until = new Date(h!.clock.now() + 10 * 60_000);
    // both routes paused by hand (the main's gets its row)
    await h!.deps.db.insert(productRoutes).values({
      productCode: "TSEL10",
      supplier: "main",
      supplierCode: "TSEL10",
      name: "Telkomsel 10.000",
      cost: 1,
      active: true,
      position: 0,
      pausedUntil: until,
    });
    await h!.deps.db
      .update(productRoutes)
      .set({ pausedUntil: until })
      .where(eq(productRoutes.productCode, "TSEL10"));
    expect(await confirmQuote(h!.engine, { quoteId: card.id, userId: user })).toEqual({
      ok: false,
      reason: "product_closed",
      until: until.getTime(),
    });
    expect(h!.sandbox.requests()).toHaveLength(0);
    expect(h!.backupSandbox.requests()).toHaveLength(0);
  });
});
