import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createQuote } from "../../../src/commerce/orders/quotes.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// every row of DESIGN.md's sandbox outcome table, end to end through the engine

describe(`order outcomes through the engine (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
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

  async function notificationsOf(orderId: number) {
    return h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `order:${orderId}:final`));
  }

  async function expectSettledOnce(o: Order, user: number, start: number, price: number) {
    const [stored] = await h.deps.db.select().from(orders).where(eq(orders.id, o.id));
    const balance = await walletBalance(h.deps.db, user);
    expect(balance).toBe(stored!.status === "success" ? start - price : start);
    expect(await notificationsOf(o.id)).toHaveLength(1);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
    return stored!;
  }

  it("901: success at once, SN stored, charged once", async () => {
    const { order, user, price, startBalance } = await buy("0901");
    expect(order.status).toBe("success");
    expect(order.sn).toBeTruthy();
    await expectSettledOnce(order, user, startBalance, price);
    const [n] = await notificationsOf(order.id);
    expect(n?.payload).toEqual({ type: "order_final", orderId: order.id, late: false });
  });

  it("902: failed at once, refunded with a reason", async () => {
    const { order, user, price, startBalance } = await buy("0902");
    expect(order.status).toBe("failed");
    expect(order.failureReason).toBeTruthy();
    await expectSettledOnce(order, user, startBalance, price);
  });

  it("903: pending, then success (settled by status after the callback's news)", async () => {
    const { order, user, price, startBalance } = await buy("0903");
    expect(order.status).toBe("pending");
    expect(await walletBalance(h.deps.db, user)).toBe(startBalance - price); // held
    const final = await settleAndResolve(order);
    expect(final.status).toBe("success");
    await expectSettledOnce(final, user, startBalance, price);
    const [n] = await notificationsOf(order.id);
    expect(n?.payload).toMatchObject({ late: true });
  });

  it("904: pending, then failed and refunded", async () => {
    const { order, user, price, startBalance } = await buy("0904");
    expect(order.status).toBe("pending");
    const final = await settleAndResolve(order);
    expect(final.status).toBe("failed");
    await expectSettledOnce(final, user, startBalance, price);
  });

  it("905: pending, no callback ever; polling settles it", async () => {
    const { order, user, price, startBalance } = await buy("0905");
    const final = await settleAndResolve(order);
    expect(final.status).toBe("success");
    await expectSettledOnce(final, user, startBalance, price);
  });

  it("906: the reply times out; the order is unknown, not failed, and status resolves it", async () => {
    const { order, user, price, startBalance } = await buy("0906");
    expect(order.status).toBe("unknown");
    expect(await walletBalance(h.deps.db, user)).toBe(startBalance - price); // still held
    const final = await settleAndResolve(order);
    expect(["success", "failed"]).toContain(final.status);
    await expectSettledOnce(final, user, startBalance, price);
  });

  it("907: a 500 after the transaction was made: unknown, then resolved by status", async () => {
    const { order, user, price, startBalance } = await buy("0907");
    expect(order.status).toBe("unknown");
    const final = await settleAndResolve(order);
    expect(["success", "failed"]).toContain(final.status);
    await expectSettledOnce(final, user, startBalance, price);
  });

  it("908: duplicate and stale news change nothing after the final state", async () => {
    const { order, user, price, startBalance } = await buy("0908");
    const final = await settleAndResolve(order, 6);
    expect(final.status).toBe("success");
    await expectSettledOnce(final, user, startBalance, price);
  });

  it("any other ending: pending, then success after the settle delay", async () => {
    const { order, user, price, startBalance } = await buy("1234");
    expect(order.status).toBe("pending");
    const final = await settleAndResolve(order);
    expect(final.status).toBe("success");
    await expectSettledOnce(final, user, startBalance, price);
  });
});
