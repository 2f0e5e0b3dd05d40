import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatWib } from "../../src/commerce/h2h/records.ts";
import { setResellerMarkup } from "../../src/commerce/resellers/markups.ts";
import { moveUser } from "../../src/commerce/resellers/tree.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { h2hOrders, orders, products } from "../../src/db/schema.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// /products tells what /order charges and whether /order takes it now (issue 36 items 14
// and 17): a downline reseller's price carries their uplines' markups, a bill's admin fee
// too, and a product inside its daily cut-off is inactive.

const phone = () => `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}901`;

describe(`H2H products (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h.stop());

  it("a reseller with an upline is listed the price /order charges, for an order and for a bill's admin fee", async () => {
    const top = await h.reseller(0);
    const key = await h.reseller(3_000_000);
    expect(await moveUser(h.deps.db, { userId: key.userId, uplineId: top.userId })).toMatchObject({
      ok: true,
    });
    await setResellerMarkup(h.deps.db, top.userId, { scope: "all", percentBp: 500, flat: 100 });
    const client = h.client(key);
    const listed = (await client.products("prepaid")).find((p) => p.code === "TSEL10")!;
    const placed = await client.order({
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: phone(),
      refId: "up-1",
    });
    expect(placed).toMatchObject({ outcome: "accepted" });
    if (placed.outcome !== "accepted") return;
    expect(listed.price).toBe(placed.transaction.price);
    expect(await walletBalance(h.deps.db, key.userId)).toBe(3_000_000 - listed.price);

    const admin = (await client.products("pasca")).find((p) => p.code === "PLNPOST")!;
    const inquiry = await client.inquiry({
      code: "PLNPOST",
      customerNo: "530012345691",
      refId: "up-bill",
    });
    expect(admin.price).toBe(inquiry.admin);
  });

  it("a code sent in another case is the same product at the same price (the claim's read)", async () => {
    const key = await h.reseller(1_000_000);
    const client = h.client(key);
    const listed = (await client.products("prepaid")).find((p) => p.code === "TSEL10")!;
    // (kios's own client holds the answer's code to the one it sent, so it calls the answer
    // TSEL10 a mismatch: what the server did is read from what it stored)
    await client.order({ cmd: "prepaid", code: "tsel10", customerNo: phone(), refId: "case-1" });
    const [stored] = await h.deps.db
      .select({ code: orders.productCode, price: orders.price, status: orders.status })
      .from(h2hOrders)
      .innerJoin(orders, eq(orders.confirmKey, h2hOrders.quoteId))
      .where(and(eq(h2hOrders.userId, key.userId), eq(h2hOrders.refId, "case-1")));
    expect(stored).toEqual({ code: "TSEL10", price: listed.price, status: "success" });
    expect(await walletBalance(h.deps.db, key.userId)).toBe(1_000_000 - listed.price);
  });

  it("a product inside its daily cut-off is listed inactive, as /order refuses it", async () => {
    const key = await h.reseller(100_000);
    const now = h.clock.now();
    const hhmm = (ms: number) => formatWib(ms).slice(11, 16);
    await h.deps.db
      .update(products)
      .set({ startCutOff: hhmm(now - 3_600_000), endCutOff: hhmm(now + 3_600_000) })
      .where(eq(products.code, "TSEL25"));
    try {
      const client = h.client(key);
      const listed = (await client.products("prepaid")).find((p) => p.code === "TSEL25");
      expect(listed).toMatchObject({ active: false });
      expect(
        await client.order({ cmd: "prepaid", code: "TSEL25", customerNo: phone(), refId: "co-1" }),
      ).toMatchObject({ outcome: "rejected", error: { code: "PRODUCT_INACTIVE" } });
    } finally {
      await h.deps.db
        .update(products)
        .set({ startCutOff: null, endCutOff: null })
        .where(eq(products.code, "TSEL25"));
    }
  });
});
