import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { changeRoute } from "../../../src/commerce/catalogue/routes.ts";
import {
  minMarginOf,
  routeCostCeiling,
  setMinMargin,
} from "../../../src/commerce/orders/min-margin.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { attemptsOfOrders } from "../../../src/commerce/orders/queries.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { isFinal, type Order } from "../../../src/commerce/orders/types.ts";
import { setResellerMarkup } from "../../../src/commerce/resellers/markups.ts";
import { moveUser } from "../../../src/commerce/resellers/tree.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { accounts, entries, orders, products, transfers } from "../../../src/db/schema.ts";
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

// design rule 21: the minimum margin is the shop's own. A downline's price
// carries every upline's margin on top of the shop's price, and a route is tried only when its cost, the
// uplines' margins and the minimum margin all fit in what the buyer pays, on the first
// route and on every re-route: the shop never pays its resellers' margins from its own pocket

describe(`the shop's own margin under a reseller tree (${testDriver})`, BOOTS_IN_EACH_TEST, () => {
  let h: TwoSuppliers | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  /**
   * a downline two levels under the top of a tree (the top adds 300, its reseller 500), and
   * the shop's own price for TSEL10 (what the top pays)
   */
  async function tree(backupOutcomes?: Record<string, string>) {
    h = await bootTwoSuppliers(backupOutcomes ? { backupOutcomes } : {});
    const top = await h.newUser(0, "reseller");
    const reseller = await h.newUser(0, "reseller");
    expect((await moveUser(h.deps.db, { userId: reseller, uplineId: top })).ok).toBe(true);
    await setResellerMarkup(h.deps.db, top, { scope: "all", percentBp: 0, flat: 300 });
    await setResellerMarkup(h.deps.db, reseller, { scope: "all", percentBp: 0, flat: 500 });
    const buyer = await h.newUser(100_000);
    expect((await moveUser(h.deps.db, { userId: buyer, uplineId: reseller })).ok).toBe(true);
    const shopPrice = (await h.quote(top, "081234560901")).price;
    return { top, reseller, buyer, shopPrice };
  }

  async function backupCosts(cost: number) {
    h!.backupSandbox.setPrice("BTSEL10", cost);
    await linkSupplierCatalogue(h!.deps.db, { name: "backup", supplier: h!.backup });
  }

  /**
   * the order once final: a reply lost to a busy machine (the client's timeout) leaves it
   * unknown, and the status check settles it as it would in production
   */
  async function final(order: Order): Promise<Order> {
    let now = order;
    for (let i = 0; i < 5 && !isFinal(now.status); i++) {
      now = (await resolveOrder(h!.engine, now.id)) ?? now;
    }
    return now;
  }

  /** the shop:revenue legs of every capture: the shop's own margin on each order */
  async function shopMargins(): Promise<number[]> {
    const rows = await h!.deps.db
      .select({ amount: entries.amount })
      .from(entries)
      .innerJoin(transfers, eq(transfers.id, entries.transferId))
      .innerJoin(accounts, eq(accounts.id, entries.accountId))
      .where(and(eq(transfers.kind, "capture"), eq(accounts.key, "shop:revenue")));
    return rows.map((r) => Number(r.amount));
  }

  it("routeCostCeiling: the buyer's price less every upline's margin and the minimum margin", () => {
    const margins = [
      { userId: 1, amount: 300 },
      { userId: 2, amount: 500 },
    ];
    expect(routeCostCeiling({ price: 11_000, margins, minMargin: 0 })).toBe(10_200);
    expect(routeCostCeiling({ price: 11_000, margins, minMargin: 150 })).toBe(10_050);
    expect(routeCostCeiling({ price: 11_000, margins: [], minMargin: 150 })).toBe(10_850);
  });

  it("does not re-route a downline's order to a backup dearer than the shop's own price", async () => {
    const { buyer, top, reseller, shopPrice } = await tree({ "941": "901" });
    // above what the shop charges the top, below what the downline pays with the markups
    await backupCosts(shopPrice + 100);
    const q = await h!.quote(buyer, "081234560941");
    expect(q.price).toBe(shopPrice + 800);
    const r = await confirmQuote(h!.engine, { quoteId: q.id, userId: buyer });
    if (!r.ok) throw new Error(r.reason);
    // out of stock at the main, and no route left that the shop can afford: the failure
    // is the result, refunded, and no one earns a margin the shop would pay
    expect((await final(r.order)).status).toBe("failed");
    expect(h!.backupSandbox.requests()).toHaveLength(0);
    expect(await walletBalance(h!.deps.db, buyer)).toBe(100_000);
    expect(await walletBalance(h!.deps.db, top)).toBe(0);
    expect(await walletBalance(h!.deps.db, reseller)).toBe(0);
    expect(await shopMargins()).toEqual([]);
    expect((await verifyLedger(h!.database.handle)).ok).toBe(true);
  });

  it("re-routes a downline's order to a backup that leaves the shop exactly the minimum", async () => {
    const { buyer, shopPrice } = await tree({ "941": "901" });
    await setMinMargin(h!.deps.db, 100);
    await backupCosts(shopPrice - 100);
    const q = await h!.quote(buyer, "081234560941");
    const r = await confirmQuote(h!.engine, { quoteId: q.id, userId: buyer });
    if (!r.ok) throw new Error(r.reason);
    expect(await final(r.order)).toMatchObject({ status: "success", supplier: "backup" });
    expect(await shopMargins()).toEqual([100]);
    expect((await verifyLedger(h!.database.handle)).ok).toBe(true);
  });

  it("refuses a downline's Pay before anything is held when only a route the shop can't afford is left", async () => {
    const { buyer, shopPrice } = await tree();
    await backupCosts(shopPrice + 100);
    // the card was drawn while the main sold it; then an admin switched the main's route off
    const q = await h!.quote(buyer, "081234560901");
    await changeRoute(h!.deps.db, {
      productCode: "TSEL10",
      firstSupplier: "main",
      change: { action: "disable", supplier: "main" },
    });
    // the route left costs more than the shop keeps of the card's price: quoted again (at a
    // price marked up over that route), never paid from the shop's pocket
    const r = await confirmQuote(h!.engine, { quoteId: q.id, userId: buyer });
    expect(r).toMatchObject({ ok: false, reason: "quote_expired" });
    // one within the shop's share, but not with the minimum margin on top: not tried, and
    // with no other route the sale is refused
    await backupCosts(shopPrice - 50);
    await setMinMargin(h!.deps.db, 100);
    const again = await h!.quote(buyer, "081234560901");
    const refused = await confirmQuote(h!.engine, { quoteId: again.id, userId: buyer });
    expect(refused).toMatchObject({ ok: false, reason: "product_unavailable" });
    expect(await walletBalance(h!.deps.db, buyer)).toBe(100_000);
    expect(h!.sandbox.requests()).toHaveLength(0);
    expect(h!.backupSandbox.requests()).toHaveLength(0);
    expect(await h!.deps.db.select().from(orders)).toEqual([]);
  });
});
