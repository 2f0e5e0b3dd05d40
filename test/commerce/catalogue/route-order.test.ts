import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { routeOrderOf, setRouteOrder } from "../../../src/commerce/catalogue/route-order.ts";
import { changeRoute, routesOfCode } from "../../../src/commerce/catalogue/routes.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { products } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier, type FakeSupplier, product } from "../../helpers/fake-supplier.ts";

// routes by cost, if the owner wants (docs/suppliers.md#routes-by-cost): off, the order
// admins made is kept whatever the costs do; on, every sync puts the cheapest route first,
// and the product is sold by that route's cost.

describe(`routes by cost (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  let main: FakeSupplier;
  let backup: FakeSupplier;
  const syncBoth = async () => {
    await syncCatalogue(db, main, { firstSupplier: "main" });
    await linkSupplierCatalogue(db, { name: "backup", supplier: backup, firstSupplier: "main" });
  };
  const order = async (code: string) =>
    ((await routesOfCode(db, code, "main")) ?? []).map((r) => `${r.supplier}:${r.cost}`);
  const saleCost = async (code: string) =>
    (await db.select().from(products).where(eq(products.code, code)))[0]?.routeCost;
  const setCost = (s: FakeSupplier, code: string, price: number) => {
    s.lists.prepaid.find((p) => p.code === code)!.price = price;
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    main = createFakeSupplier({
      prepaid: [
        product({ code: "TSEL10", name: "Telkomsel 10.000", price: 10_200 }),
        product({ code: "TSEL20", name: "Telkomsel 20.000", price: 20_100 }),
      ],
    });
    backup = createFakeSupplier({
      prepaid: [
        product({ code: "BT10", name: "TSEL 10K", brand: "TSEL", price: 10_400 }),
        product({ code: "BT20", name: "TSEL 20K", brand: "TSEL", price: 20_300 }),
      ],
    });
    await syncBoth();
  });
  afterAll(() => t.destroy());

  it("keeps the manual order when costs change while the setting is off", async () => {
    expect(await routeOrderOf(db)).toBe("manual");
    // an admin put the backup first for TSEL20
    const moved = await changeRoute(db, {
      productCode: "TSEL20",
      firstSupplier: "main",
      change: { action: "up", supplier: "backup" },
    });
    expect(moved.ok).toBe(true);
    setCost(backup, "BT10", 9_900);
    setCost(main, "TSEL20", 19_800);
    await syncBoth();
    expect(await order("TSEL10")).toEqual(["main:10200", "backup:9900"]);
    expect(await order("TSEL20")).toEqual(["backup:20300", "main:19800"]);
    expect(await saleCost("TSEL10")).toBe(10_200);
  });

  it("puts the cheapest route first at once when the owner switches to cost", async () => {
    const { moved } = await setRouteOrder(db, "cost", "main");
    expect(moved).toBeGreaterThan(0);
    expect(await order("TSEL10")).toEqual(["backup:9900", "main:10200"]);
    expect(await order("TSEL20")).toEqual(["main:19800", "backup:20300"]);
    // the buyer's price follows the route tried first
    expect(await saleCost("TSEL10")).toBe(9_900);
  });

  it("re-orders at every sync as costs change", async () => {
    setCost(main, "TSEL10", 9_700);
    setCost(backup, "BT20", 19_500);
    await syncBoth();
    expect(await order("TSEL10")).toEqual(["main:9700", "backup:9900"]);
    expect(await order("TSEL20")).toEqual(["backup:19500", "main:19800"]);
    expect(await saleCost("TSEL20")).toBe(19_500);
  });

  it("tries a route that can sell before a cheaper one that can't", async () => {
    backup.lists.prepaid.find((p) => p.code === "BT20")!.active = false;
    await syncBoth();
    expect(await order("TSEL20")).toEqual(["main:19800", "backup:19500"]);
    backup.lists.prepaid.find((p) => p.code === "BT20")!.active = true;
    await syncBoth();
    expect(await order("TSEL20")).toEqual(["backup:19500", "main:19800"]);
  });

  it("refuses a move by hand while routes follow cost, and allows it after switching back", async () => {
    const up = { action: "up", supplier: "main" } as const;
    expect(
      await changeRoute(db, { productCode: "TSEL20", firstSupplier: "main", change: up }),
    ).toEqual({ ok: false, reason: "by_cost" });
    // switching off a route stays an admin's right
    const off = await changeRoute(db, {
      productCode: "TSEL20",
      firstSupplier: "main",
      change: { action: "disable", supplier: "backup" },
    });
    expect(off.ok).toBe(true);
    await setRouteOrder(db, "manual", "main");
    expect(
      (await changeRoute(db, { productCode: "TSEL20", firstSupplier: "main", change: up })).ok,
    ).toBe(true);
    setCost(main, "TSEL20", 25_000);
    await syncBoth();
    expect(await order("TSEL20")).toEqual(["main:25000", "backup:19500"]);
  });
});
