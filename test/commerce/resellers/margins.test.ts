import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { finaliseOrder } from "../../../src/commerce/orders/transitions.ts";
import { setResellerMarkup } from "../../../src/commerce/resellers/markups.ts";
import { moveUser } from "../../../src/commerce/resellers/tree.ts";
import { captureOrder, walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { orders, transfers } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// design rule 16: each upline's margin is credited with the order's capture, keyed to
// (order, upline), once; a failure credits nothing; `kios ledger verify` checks that the
// buyer's price is the shop's cost + the shop's margin + the uplines' margins

describe(`uplines' margins in the ledger (${testDriver})`, () => {
  let h: CommerceHarness;
  let top: number;
  let reseller: number;
  beforeAll(async () => {
    h = await bootCommerce();
    top = await h.newUser(0, "reseller");
    reseller = await h.newUser(0, "reseller");
    expect((await moveUser(h.deps.db, { userId: reseller, uplineId: top })).ok).toBe(true);
    await setResellerMarkup(h.deps.db, top, { scope: "all", percentBp: 0, flat: 300 });
    await setResellerMarkup(h.deps.db, reseller, { scope: "all", percentBp: 0, flat: 500 });
  });
  afterAll(() => h.stop());

  async function downline(balance = 100_000) {
    const id = await h.newUser(balance);
    expect((await moveUser(h.deps.db, { userId: id, uplineId: reseller })).ok).toBe(true);
    return id;
  }

  it("credits each upline its margin when the order succeeds, in the capture's transaction", async () => {
    const buyer = await downline();
    const before = {
      top: await walletBalance(h.deps.db, top),
      reseller: await walletBalance(h.deps.db, reseller),
    };
    const q = await h.quote(buyer, "081234567901");
    const r = await confirmQuote(h.deps, { quoteId: q.id, userId: buyer });
    if (!r.ok) throw new Error(r.reason);
    expect(r.order.status).toBe("success");
    expect(r.order.margins).toEqual([
      { userId: top, amount: 300 },
      { userId: reseller, amount: 500 },
    ]);
    expect(await walletBalance(h.deps.db, top)).toBe(before.top + 300);
    expect(await walletBalance(h.deps.db, reseller)).toBe(before.reseller + 500);
    expect(await walletBalance(h.deps.db, buyer)).toBe(100_000 - q.price);
    const keys = await h.deps.db
      .select({ key: transfers.key, kind: transfers.kind })
      .from(transfers)
      .where(like(transfers.key, `order:${r.order.id}:%`));
    expect(keys.map((k) => k.key).sort()).toEqual(
      [
        `order:${r.order.id}:hold`,
        `order:${r.order.id}:margin:${reseller}`,
        `order:${r.order.id}:margin:${top}`,
        `order:${r.order.id}:settle`,
      ].sort(),
    );
    // a second capture moves nothing
    await captureOrder(h.deps.db, {
      orderId: r.order.id,
      price: r.order.price,
      cost: r.order.cost,
      margins: r.order.margins,
    });
    expect(await walletBalance(h.deps.db, reseller)).toBe(before.reseller + 500);
    expect(await verifyLedger(h.database.handle)).toMatchObject({ ok: true });
  });

  it("credits nothing when the order fails: the buyer gets the whole price back", async () => {
    const buyer = await downline();
    const before = await walletBalance(h.deps.db, reseller);
    const q = await h.quote(buyer, "081234567902");
    const r = await confirmQuote(h.deps, { quoteId: q.id, userId: buyer });
    if (!r.ok) throw new Error(r.reason);
    expect(r.order.status).toBe("failed");
    expect(await walletBalance(h.deps.db, reseller)).toBe(before);
    expect(await walletBalance(h.deps.db, buyer)).toBe(100_000);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("ledger verify names an order whose margins do not add up", async () => {
    const buyer = await downline();
    const q = await h.quote(buyer, "081234567903");
    const r = await confirmQuote(h.deps, { quoteId: q.id, userId: buyer });
    if (!r.ok) throw new Error(r.reason);
    await h.sandbox.settleNow();
    const settled = await resolveOrder(h.deps, r.order.id);
    expect(settled?.status).toBe("success");
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
    // the order's promise changed behind the ledger's back (a hand-edited row)
    await h.deps.db
      .update(orders)
      .set({ margins: [{ userId: reseller, amount: 1 }] })
      .where(eq(orders.id, r.order.id));
    const report = await verifyLedger(h.database.handle);
    expect(report.ok).toBe(false);
    expect(report.problems.join("\n")).toMatch(new RegExp(`order ${r.order.id} \\(success\\)`));
    await h.deps.db
      .update(orders)
      .set({ margins: r.order.margins })
      .where(eq(orders.id, r.order.id));
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("ledger verify names an order that left the shop a negative margin of its own", async () => {
    const buyer = await downline();
    const q = await h.quote(buyer, "081234567903");
    const r = await confirmQuote(h.deps, { quoteId: q.id, userId: buyer });
    if (!r.ok) throw new Error(r.reason);
    expect(r.order.status).toBe("pending");
    // the supplier reports it charged more than the buyer's price leaves the shop once the
    // uplines are paid: their margins come out of the shop's pocket
    // (design rule 21)
    const shopShare = r.order.price - 800;
    await h.deps.db.transaction((tx) =>
      finaliseOrder(
        tx,
        r.order,
        { status: "success", sn: "SN1", supplierPrice: shopShare + 250 },
        new Date(h.clock.now()),
        true,
      ),
    );
    const report = await verifyLedger(h.database.handle);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      `order ${r.order.id}: the shop's own margin is -250 (price ${r.order.price}, uplines' ` +
        `margins 800, route cost ${r.order.cost}, the supplier charged ${shopShare + 250}): ` +
        "the shop paid it out of its own pocket",
    ]);
  });

  it("settles many downlines' orders at once: each margin exactly once", async () => {
    const n = 12;
    const buyers = await Promise.all(Array.from({ length: n }, () => downline()));
    const before = {
      top: await walletBalance(h.deps.db, top),
      reseller: await walletBalance(h.deps.db, reseller),
    };
    const placed = [];
    for (const buyer of buyers) {
      const q = await h.quote(buyer, "081234567903");
      const r = await confirmQuote(h.deps, { quoteId: q.id, userId: buyer });
      if (!r.ok) throw new Error(r.reason);
      expect(r.order.status).toBe("pending");
      placed.push(r.order);
    }
    await h.sandbox.settleNow();
    // every order resolved by three racers at once
    await Promise.all(placed.flatMap((o) => [1, 2, 3].map(() => resolveOrder(h.deps, o.id))));
    const settled = await h.deps.db.select().from(orders);
    for (const o of placed) expect(settled.find((s) => s.id === o.id)?.status).toBe("success");
    expect(await walletBalance(h.deps.db, top)).toBe(before.top + n * 300);
    expect(await walletBalance(h.deps.db, reseller)).toBe(before.reseller + n * 500);
  });
});
