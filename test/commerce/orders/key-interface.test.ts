import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createBillQuote, createQuote } from "../../../src/commerce/orders/quotes.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders, products } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// the commerce core, unchanged, buying through the key-based interface: the catalogue
// sync, every row of DESIGN.md's outcome table, and a bill from inquiry to payment.

describe(`the order engine over SUPPLIER_INTERFACE=key (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    // settled only by settleNow(), so "processing" can be seen before it; a timeout roomy
    // enough for a loaded machine, and 906's slow reply well past it
    h = await bootCommerce({
      supplierInterface: "key",
      timeoutMs: 2_500,
      sandbox: { settleDelayMs: 600_000, slowReplyMs: 5_000 },
    });
  });
  afterAll(() => h.stop());

  async function buy(ending: string, startBalance = 100_000) {
    const user = await h.newUser(startBalance);
    const quote = await createQuote(h.deps, {
      userId: user,
      chatId: user,
      productCode: "TSEL10",
      destination: `0812345${ending}`,
    });
    if (!quote.ok) throw new Error(`quote refused: ${quote.reason}`);
    const result = await confirmQuote(h.deps, { quoteId: quote.quote.id, userId: user });
    if (!result.ok) throw new Error(`confirm refused: ${result.reason}`);
    return { user, price: quote.quote.price, order: result.order, startBalance };
  }

  /** lets the sandbox settle what is pending, then polls like the resolver job does */
  async function settleAndResolve(order: Order, rounds = 3): Promise<Order> {
    await h.sandbox.settleNow();
    let current = order;
    for (let i = 0; i < rounds; i++) current = (await resolveOrder(h.deps, order.id)) ?? current;
    return current;
  }

  async function expectSettledOnce(o: Order, user: number, start: number, price: number) {
    const [stored] = await h.deps.db.select().from(orders).where(eq(orders.id, o.id));
    expect(await walletBalance(h.deps.db, user)).toBe(
      stored!.status === "success" ? start - price : start,
    );
    const notes = await h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `order:${o.id}:final`));
    expect(notes).toHaveLength(1);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
    // the supplier charged once, or refunded
    const charged = h.sandbox.transactions().find((t) => t.refId === o.refId)?.charged;
    expect(charged).toBe(stored!.status === "success" ? stored!.cost : 0);
    return stored!;
  }

  it("the catalogue synced through GET /v1/products, operators and categories intact", async () => {
    const rows = await h.deps.db.select().from(products).where(eq(products.code, "TSEL10"));
    expect(rows[0]).toMatchObject({ category: "Pulsa", brand: "TELKOMSEL", operator: "telkomsel" });
    expect(h.supplier.interface).toBe("key");
  });

  it("901: success at once, SN stored, charged once", async () => {
    const { order, user, price, startBalance } = await buy("0901");
    expect(order.status).toBe("success");
    expect(order.sn).toBeTruthy();
    expect(order.supplierCode).toBe("00");
    await expectSettledOnce(order, user, startBalance, price);
  });

  it("902: failed at once, refunded with a reason", async () => {
    const { order, user, price, startBalance } = await buy("0902");
    expect(order.status).toBe("failed");
    expect(order.failureReason).toBeTruthy();
    expect(order.supplierCode).toBe("02");
    await expectSettledOnce(order, user, startBalance, price);
  });

  for (const [ending, final] of [
    ["0903", "success"],
    ["0904", "failed"],
    ["0905", "success"],
    ["0908", "success"],
    ["1234", "success"],
  ] as const) {
    it(`${ending.slice(1)}: pending (processing at the supplier), then ${final} by status`, async () => {
      const { order, user, price, startBalance } = await buy(ending);
      expect(order.status).toBe("pending");
      expect(await walletBalance(h.deps.db, user)).toBe(startBalance - price); // held
      // a lookup before settling reads "processing", which is still pending to kios
      expect(await resolveOrder(h.deps, order.id)).toMatchObject({ status: "pending" });
      const settled = await settleAndResolve(order, ending === "0908" ? 6 : 3);
      expect(settled.status).toBe(final);
      await expectSettledOnce(settled, user, startBalance, price);
    });
  }

  it("906: the reply times out; unknown, not failed, and status resolves it", async () => {
    const { order, user, price, startBalance } = await buy("0906");
    expect(order.status).toBe("unknown");
    expect(await walletBalance(h.deps.db, user)).toBe(startBalance - price);
    const final = await settleAndResolve(order);
    expect(final.status).toBe("success");
    await expectSettledOnce(final, user, startBalance, price);
  });

  it("907: a 500 after the transaction was made: unknown, then resolved by status", async () => {
    const { order, user, price, startBalance } = await buy("0907");
    expect(order.status).toBe("unknown");
    expect(order.supplierCode).toBe("SERVER_ERROR");
    const final = await settleAndResolve(order);
    expect(final.status).toBe("success");
    await expectSettledOnce(final, user, startBalance, price);
  });

  it("a bill: inquiry (POST /v1/inquiry) → pay (POST /v1/transaction with its ref_id) → success", async () => {
    const user = await h.newUser(2_000_000);
    const q = await createBillQuote(h.deps, {
      userId: user,
      chatId: user,
      productCode: "PLNPOST",
      customerNo: "530000000012",
    });
    if (!q.ok) throw new Error(q.reason);
    expect(q.quote.bill?.customerName).toBeTruthy();
    expect(q.quote.bill?.details?.lembarTagihan).toBe(2);
    expect(q.quote.expiresAt.getTime() - h.clock.now()).toBeLessThanOrEqual(5 * 60_000);
    h.clock.advance(4 * 60_000);
    const result = await confirmQuote(h.deps, { quoteId: q.quote.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    expect(result.order.refId).toBe(q.quote.bill!.refId);
    expect(result.order.status).toBe("pending");
    const final = await settleAndResolve(result.order);
    expect(final.status).toBe("success");
    expect(final.sn).toBeTruthy();
    expect(await walletBalance(h.deps.db, user)).toBe(2_000_000 - q.quote.price);
    const paid = h.sandbox.transactions().find((t) => t.refId === result.order.refId);
    expect(paid).toMatchObject({ kind: "bill", cmd: "pay-pasca", status: "success" });
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("a bill with nothing due is refused at inquiry (rc 40 → no_bill)", async () => {
    const user = await h.newUser(100_000);
    const q = await createBillQuote(h.deps, {
      userId: user,
      chatId: user,
      productCode: "PLNPOST",
      customerNo: "530000000019",
    });
    expect(q).toMatchObject({ ok: false, reason: "no_bill" });
  });
});
