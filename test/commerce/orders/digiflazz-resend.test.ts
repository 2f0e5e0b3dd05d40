import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { getOrder } from "../../../src/commerce/orders/queries.ts";
import { claimResend } from "../../../src/commerce/orders/resend.ts";
import { resolveOrder, sweepOpenOrders } from "../../../src/commerce/orders/resolve.ts";
import { recheckFinalOrders } from "../../../src/commerce/reconciliation/orders-check.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { notifications, orderAttempts } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import { bootMainAndDigiflazz, type MainAndDigiflazz } from "../../helpers/digiflazz.ts";

// the status check that can buy (docs/suppliers.md#the-re-send-rule): at Digiflazz an
// attempt is re-sent only as its order's current open attempt, exactly as first sent, a
// minute apart at least, never after 90 days; a refused ref_id is never sent again

describe(`Digiflazz as the second supplier (${testDriver})`, { timeout: 90_000 }, () => {
  let h: MainAndDigiflazz | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function buy(destination: string) {
    const user = await h!.newUser(100_000);
    const q = await h!.quote(user, destination, "TSEL10");
    const result = await confirmQuote(h!.engine, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    return { user, order: result.order };
  }

  const attemptsOf = (orderId: number) =>
    h!.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, orderId))
      .orderBy(asc(orderAttempts.seq));

  it("buys at Digiflazz what the first refuses, with max_price, and re-sends only the stored body a minute apart", async () => {
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    const { order } = await buy("081234567803");
    expect(order).toMatchObject({ status: "pending", supplier: "backup", routeCode: "tsel10" });
    const [first] = h.sentFor(order.refId);
    // the ceiling: the price less the minimum margin (0 here)
    expect(first).toMatchObject({ buyer_sku_code: "tsel10", max_price: order.price });
    // 5 s later the status check leans on the webhook: nothing is sent
    h.clock.advance(5_000);
    await resolveOrder(h.engine, order.id);
    expect(h.sentFor(order.refId)).toHaveLength(1);
    h.clock.advance(60_000);
    h.digiflazz.settle(order.refId);
    const settled = await resolveOrder(h.engine, order.id);
    expect(settled).toMatchObject({ status: "success" });
    const sent = h.sentFor(order.refId);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(h.digiflazz.state.earlyResends).toEqual([]);
    expect((await attemptsOf(order.id)).map((a) => [a.supplier, a.status])).toEqual([
      ["main", "rejected"],
      ["backup", "success"],
    ]);
  });

  it("never sends a refused ref_id again: not by a report, the sweep, the daily re-check or a restart", async () => {
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    // Digiflazz refuses it (balance short): nothing formed, no route left
    h.digiflazz.account().credit(-h.digiflazz.account().balance);
    const { user, order } = await buy("081234567001");
    expect(order.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
    const refused = (await attemptsOf(order.id)).at(-1)!;
    // the order failed on it: the attempt is closed with it
    expect(refused).toMatchObject({
      supplier: "backup",
      status: "failed",
      answerCode: "INSUFFICIENT_BALANCE",
    });
    // the cause gone: a re-send now would buy
    h.digiflazz.account().credit(1_000_000);
    h.clock.advance(2 * 60_000);
    await resolveOrder(h.engine, order.id, {
      checkSettled: true,
      news: { refId: refused.refId, status: "success" },
    });
    await sweepOpenOrders(h.engine);
    await recheckFinalOrders(h.engine, { perSecond: 1000 });
    // a restart: a fresh engine over the same database
    const restarted = { ...h.engine, suppliers: new Map(h.engine.suppliers!) };
    await sweepOpenOrders(restarted);
    await resolveOrder(restarted, order.id);
    expect(
      await claimResend(h.deps.db, { id: order.id, refId: refused.refId }, new Date(h.clock.now())),
    ).toEqual({ closed: true });
    expect(h.sentFor(refused.refId)).toHaveLength(1);
    expect(h.digiflazz.state.trapSprung).toEqual([]);
    expect((await getOrder(h.deps.db, order.id))?.status).toBe("failed");
  });

  it("never re-sends an attempt older than 90 days: an admin decides", async () => {
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    const { order } = await buy("081234567803");
    h.clock.advance(91 * 24 * 3600_000);
    await resolveOrder(h.engine, order.id);
    expect(h.sentFor(order.refId)).toHaveLength(1);
    const flagged = await h.deps.db.select().from(notifications);
    expect(
      flagged.some((n) => (n.payload as { type?: string; reason?: string }).reason === "not_found"),
    ).toBe(true);
    expect((await getOrder(h.deps.db, order.id))?.status).toBe("pending");
  });
});
