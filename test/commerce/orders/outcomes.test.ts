import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orderAttempts, orders, products } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// every row of the sandbox's outcome table, end to end through the engine, once per
// supplier interface: the engine is the same whichever wire the order goes out on.

/** the supplier's code on an order's first answer, as each interface words it */
const CODES = {
  signature: { success: "ORDER_SUCCESS", failed: "ORDER_FAILED", serverError: "SERVER_ERROR" },
  key: { success: "00", failed: "02", serverError: "SERVER_ERROR" },
} as const;

/** the endings that answer pending: what they settle to, and how many status polls it takes */
const PENDING = [
  {
    ending: "0903",
    final: "success",
    rounds: 3,
    title: "903: pending, then success (settled by status after the callback's news)",
  },
  { ending: "0904", final: "failed", rounds: 3, title: "904: pending, then failed and refunded" },
  {
    ending: "0905",
    final: "success",
    rounds: 3,
    title: "905: pending, no callback ever; polling settles it",
  },
  {
    ending: "0908",
    final: "success",
    rounds: 6,
    title: "908: duplicate and stale news change nothing after the final state",
  },
  {
    ending: "1234",
    final: "success",
    rounds: 3,
    title: "any other ending: pending, then success after the settle delay",
  },
] as const;

describe.each(["signature", "key"] as const)(
  `order outcomes through the engine over the %s interface (${testDriver})`,
  (supplierInterface) => {
    const codes = CODES[supplierInterface];
    let h: CommerceHarness;
    beforeAll(async () => {
      // settled only by settleNow(), so "processing" can be seen before it
      h = await bootCommerce({ supplierInterface, sandbox: { settleDelayMs: 600_000 } });
    });
    afterAll(() => h.stop());

    async function buy(ending: string, startBalance = 100_000, deps = h.deps) {
      const user = await h.newUser(startBalance);
      const quote = await h.quote(user, `0812345${ending}`);
      const result = await confirmQuote(deps, { quoteId: quote.id, userId: user });
      if (!result.ok) throw new Error(`confirm refused: ${result.reason}`);
      return { user, price: quote.price, order: result.order, startBalance };
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
      // the supplier charged once, or refunded
      const charged = h.sandbox.transactions().find((t) => t.refId === o.refId)?.charged;
      expect(charged).toBe(stored!.status === "success" ? stored!.cost : 0);
      return stored!;
    }

    /** the answer that settled the order at once is kept on its attempt, with the move */
    async function expectAnswerKept(o: Order, status: string, code: string) {
      const [attempt] = await h.deps.db
        .select()
        .from(orderAttempts)
        .where(eq(orderAttempts.orderId, o.id));
      expect(attempt).toMatchObject({ status, answerCode: code, refId: o.refId });
      expect(attempt!.answerMessage).toBe(o.supplierMessage);
      expect(attempt!.answerMessage).toBeTruthy();
      expect(attempt!.answeredAt).toEqual(o.finalAt);
    }

    it("the catalogue synced over the interface, operators and categories intact", async () => {
      const rows = await h.deps.db.select().from(products).where(eq(products.code, "TSEL10"));
      expect(rows[0]).toMatchObject({
        category: "Pulsa",
        brand: "TELKOMSEL",
        operator: "telkomsel",
      });
      expect(h.supplier.interface).toBe(supplierInterface);
    });

    it("901: success at once, SN stored, charged once", async () => {
      const { order, user, price, startBalance } = await buy("0901");
      expect(order.status).toBe("success");
      expect(order.sn).toBeTruthy();
      expect(order.supplierCode).toBe(codes.success);
      await expectSettledOnce(order, user, startBalance, price);
      const [n] = await notificationsOf(order.id);
      expect(n?.payload).toEqual({ type: "order_final", orderId: order.id, late: false });
      await expectAnswerKept(order, "success", codes.success);
    });

    it("902: failed at once, refunded with a reason", async () => {
      const { order, user, price, startBalance } = await buy("0902");
      expect(order.status).toBe("failed");
      expect(order.failureReason).toBeTruthy();
      expect(order.supplierCode).toBe(codes.failed);
      await expectSettledOnce(order, user, startBalance, price);
      await expectAnswerKept(order, "failed", codes.failed);
    });

    for (const { ending, final, rounds, title } of PENDING) {
      it(title, async () => {
        const { order, user, price, startBalance } = await buy(ending);
        expect(order.status).toBe("pending");
        expect(await walletBalance(h.deps.db, user)).toBe(startBalance - price); // held
        // a lookup before settling reads "processing", which is still pending to kios
        expect(await resolveOrder(h.deps, order.id)).toMatchObject({ status: "pending" });
        const settled = await settleAndResolve(order, rounds);
        expect(settled.status).toBe(final);
        await expectSettledOnce(settled, user, startBalance, price);
        const [n] = await notificationsOf(order.id);
        expect(n?.payload).toMatchObject({ late: true });
      });
    }

    it("906: the reply times out; the order is unknown, not failed, and status resolves it", async () => {
      // the harness's client outwaits a busy machine; this one gives up on the slow reply
      const impatient = { ...h.deps, supplier: h.supplierTimingOutAfter(5_000) };
      const { order, user, price, startBalance } = await buy("0906", 100_000, impatient);
      expect(order.status).toBe("unknown");
      expect(order.supplierCode).toBe("TIMEOUT");
      // the sandbox stored it before it began to stall its reply
      await vi.waitFor(
        () => expect(h.sandbox.transactions().some((t) => t.refId === order.refId)).toBe(true),
        { timeout: 20_000 },
      );
      expect(await walletBalance(h.deps.db, user)).toBe(startBalance - price); // still held
      const final = await settleAndResolve(order);
      expect(final.status).toBe("success");
      await expectSettledOnce(final, user, startBalance, price);
    });

    it("907: a 500 after the transaction was made: unknown, then resolved by status", async () => {
      const { order, user, price, startBalance } = await buy("0907");
      expect(order.status).toBe("unknown");
      expect(order.supplierCode).toBe(codes.serverError);
      const final = await settleAndResolve(order);
      expect(final.status).toBe("success");
      await expectSettledOnce(final, user, startBalance, price);
    });
  },
);
