import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeRoute, routesOfCode } from "../../../src/commerce/catalogue/routes.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { testDriver } from "../../helpers/db.ts";
import { bootTwoSuppliers, type TwoSuppliers } from "../../helpers/two-suppliers.ts";

// an admin orders a product's routes and switches them (`/routes`, `kios routes`); an
// order takes the first route that may be tried. docs/suppliers.md#routes

describe(`ordering routes (${testDriver})`, () => {
  let h: TwoSuppliers;
  beforeAll(async () => {
    h = await bootTwoSuppliers();
  });
  afterAll(() => h.stop());

  const order = () =>
    routesOfCode(h.deps.db, "TSEL10", "main").then((r) => r!.map((x) => x.supplier));
  const change = (action: "up" | "down" | "enable" | "disable", supplier: string) =>
    changeRoute(h.deps.db, {
      productCode: "TSEL10",
      firstSupplier: "main",
      change: { action, supplier },
    });

  async function buy() {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    const r = await confirmQuote(h.engine, { quoteId: q.id, userId: user });
    if (!r.ok) throw new Error(r.reason);
    return r.order;
  }

  it("moves the backup above the first supplier: the next order goes there first", async () => {
    expect(await order()).toEqual(["main", "backup"]);
    const moved = await change("up", "backup");
    expect(moved.ok && moved.routes.map((r) => [r.supplier, r.position])).toEqual([
      ["backup", 0],
      ["main", 1],
    ]);
    const bought = await buy();
    expect(bought).toMatchObject({ status: "success", supplier: "backup", routeCode: "BTSEL10" });
    expect(h.sandbox.requests()).toHaveLength(0);
  });

  it("refuses a move past the end, and a supplier without a route", async () => {
    expect(await change("up", "backup")).toEqual({ ok: false, reason: "at_edge" });
    expect(await change("down", "nobody")).toEqual({ ok: false, reason: "no_route" });
    expect(
      await changeRoute(h.deps.db, {
        productCode: "NOPE",
        firstSupplier: "main",
        change: { action: "up", supplier: "main" },
      }),
    ).toEqual({ ok: false, reason: "no_product" });
  });

  it("skips a disabled route, and takes it again once enabled", async () => {
    await change("disable", "backup");
    expect((await buy()).supplier).toBeNull();
    await change("enable", "backup");
    expect((await buy()).supplier).toBe("backup");
  });
});
