import { afterEach, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { minMarginOf, setMinMargin } from "../../../src/commerce/orders/min-margin.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { attemptsOfOrders } from "../../../src/commerce/orders/queries.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { products } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import {
  BOOTS_IN_EACH_TEST,
  bootTwoSuppliers,
  type TwoSuppliers,
} from "../../helpers/two-suppliers.ts";

// the minimum margin (MIN_MARGIN, or an admin's /minmargin): a route that leaves less than
// it over its cost is never tried, first attempt or re-route (docs/suppliers.md#routes)

describe(`the minimum margin (${testDriver})`, BOOTS_IN_EACH_TEST, () => {
  let h: TwoSuppliers | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  /** the main's TSEL10 leaves `main` over its cost; the backup's is 1.000 cheaper */
  async function setUp(backupOutcomes?: Record<string, string>) {
    h = await bootTwoSuppliers(backupOutcomes ? { backupOutcomes } : {});
    const mainCost = (await h.deps.db.select().from(products)).find(
      (p) => p.code === "TSEL10",
    )!.supplierPrice;
    h.backupSandbox.setPrice("BTSEL10", mainCost - 1_000);
    await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: h.backup });
    const user = await h.newUser(100_000);
    return { user, mainCost };
  }

  async function buy(user: number, destination: string, minMargin: number) {
    const q = await h!.quote(user, destination);
    const engine = { ...h!.engine, minMargin };
    return { quote: q, result: await confirmQuote(engine, { quoteId: q.id, userId: user }) };
  }

  it("skips a route that leaves less than MIN_MARGIN: the first attempt goes to the next", async () => {
    const { user, mainCost } = await setUp();
    const price = (await h!.quote(user, "081234560901")).price;
    const mainMargin = price - mainCost;
    // the main's margin is below the minimum, the backup's (1.000 more) is not
    const { result } = await buy(user, "081234560901", mainMargin + 500);
    if (!result.ok) throw new Error(result.reason);
    expect(result.order).toMatchObject({ status: "success", supplier: "backup" });
    const attempts = (await attemptsOfOrders(h!.deps.db, [result.order.id])).get(result.order.id);
    expect(attempts?.map((a) => a.supplier)).toEqual(["backup"]);
    expect(h!.sandbox.requests()).toHaveLength(0);
  });

  it("refuses the sale when no route leaves the minimum, sending nothing and holding nothing", async () => {
    const { user } = await setUp();
    const { result } = await buy(user, "081234560901", 0);
    expect(result.ok).toBe(true);
    // an admin's setting wins over MIN_MARGIN (the engine's 0)
    await setMinMargin(h!.deps.db, 50_000);
    expect(await minMarginOf(h!.deps.db, { minMargin: 0 })).toBe(50_000);
    const before = await walletBalance(h!.deps.db, user);
    const refused = await buy(user, "081234560901", 0);
    expect(refused.result).toMatchObject({ ok: false, reason: "product_unavailable" });
    expect(await walletBalance(h!.deps.db, user)).toBe(before);
    expect(h!.sandbox.requests()).toHaveLength(1);
    expect(h!.backupSandbox.requests()).toHaveLength(0);
    // reset: MIN_MARGIN again
    await setMinMargin(h!.deps.db, null);
    expect(await minMarginOf(h!.deps.db, { minMargin: 300 })).toBe(300);
    await expect(setMinMargin(h!.deps.db, -1)).rejects.toThrow(RangeError);
    await expect(setMinMargin(h!.deps.db, 1.5)).rejects.toThrow(RangeError);
  });

  it("does not re-route to a route below the minimum: the failure is the result", async () => {
    const { user, mainCost } = await setUp({ "941": "901" });
    const price = (await h!.quote(user, "081234560941")).price;
    // the backup now leaves 1 rupiah less than the main, which leaves exactly the minimum
    h!.backupSandbox.setPrice("BTSEL10", mainCost + 1);
    await linkSupplierCatalogue(h!.deps.db, { name: "backup", supplier: h!.backup });
    const { result } = await buy(user, "081234560941", price - mainCost);
    if (!result.ok) throw new Error(result.reason);
    expect(result.order.status).toBe("failed");
    expect(await walletBalance(h!.deps.db, user)).toBe(100_000);
    expect(h!.backupSandbox.requests()).toHaveLength(0);
  });
});
