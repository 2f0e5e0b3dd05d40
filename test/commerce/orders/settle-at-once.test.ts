import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Finalisation,
  finaliseAtOnce,
  finaliseOrder,
} from "../../../src/commerce/orders/transitions.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { LedgerError, walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orderAttempts, orders, transfers } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// a supplier's instant success settled by one statement with no transaction around it
// (transitions.ts, finaliseAtOnce): the order's move, its attempt's answer, the buyer's
// notification and the capture stand or fall together, and a second answer moves nothing.

const success: Finalisation & { status: "success" } = {
  status: "success",
  sn: "SN-AT-ONCE",
  supplierCode: "00",
  supplierMessage: "Sukses",
};

describe(`an instant success settled in one statement (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  const settle = (order: Order) =>
    finaliseAtOnce(h.deps.db, order, success, new Date(h.clock.now()), {
      attempt: order.refId,
      answerMessage: "Transaksi sukses",
    }).then((settled) => {
      // a chat order's result is always queued for its chat
      if (settled) expect(settled.queued).toBe(true);
      return settled?.order;
    });

  const settlesOf = (order: Order) =>
    h.deps.db
      .select()
      .from(transfers)
      .where(eq(transfers.key, `order:${order.id}:settle`));
  const finalNotices = (order: Order) =>
    h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `order:${order.id}:final`));
  const attemptsOf = (order: Order) =>
    h.deps.db.select().from(orderAttempts).where(eq(orderAttempts.orderId, order.id));

  it("moves the order, closes its attempt with the answer, queues the notification and captures the hold", async () => {
    const { user, quote, order } = await h.storedNotSent("081234565101");
    const moved = await settle(order);
    expect(moved).toMatchObject({ id: order.id, status: "success", sn: "SN-AT-ONCE" });
    expect(moved && "captured" in moved).toBe(false);
    const [attempt] = await attemptsOf(order);
    expect(attempt).toMatchObject({
      status: "success",
      answerCode: "00",
      answerMessage: "Transaksi sukses",
    });
    expect(await finalNotices(order)).toHaveLength(1);
    expect((await settlesOf(order)).map((t) => t.kind)).toEqual(["capture"]);
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - quote.price);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("two answers and a report's settlement at once: one settles the order, once", async () => {
    const { order } = await h.storedNotSent("081234565102");
    const now = new Date(h.clock.now());
    const results = await Promise.all([
      settle(order),
      settle(order),
      h.deps.db.transaction((tx) => finaliseOrder(tx, order, success, now, false)),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await settlesOf(order)).toHaveLength(1);
    expect(await finalNotices(order)).toHaveLength(1);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("an order that is not as read moves nothing", async () => {
    const { order } = await h.storedNotSent("081234565103");
    expect(await settle({ ...order, cost: order.cost - 1 })).toBeUndefined();
    const [stored] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored?.status).toBe("submitted");
    expect(await settlesOf(order)).toHaveLength(0);
  });

  it("a capture its hold does not cover undoes the whole statement, and the transaction's way still refuses it", async () => {
    const { order } = await h.storedNotSent("081234565104");
    // the row's price no longer the hold's: the capture's requirement fails in the statement
    const [tampered] = await h.deps.db
      .update(orders)
      .set({ price: order.price + 1 })
      .where(eq(orders.id, order.id))
      .returning();
    expect(await settle(tampered!)).toBeUndefined();
    const [stored] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored).toMatchObject({ status: "submitted", sn: null, finalAt: null });
    expect((await attemptsOf(order)).map((a) => a.status)).toEqual(["open"]);
    expect(await finalNotices(order)).toHaveLength(0);
    expect(await settlesOf(order)).toHaveLength(0);
    await expect(
      h.deps.db.transaction((tx) =>
        finaliseOrder(tx, tampered!, success, new Date(h.clock.now()), false),
      ),
    ).rejects.toThrow(LedgerError);
  });

  it("leaves to the transaction's way what one statement can't settle whole", async () => {
    const { order } = await h.storedNotSent("081234565105");
    const margins = [{ userId: 1, amount: 10 }];
    expect(await settle({ ...order, margins })).toBeUndefined();
    expect(await settle({ ...order, testing: true })).toBeUndefined();
    const overcharged = { ...success, supplierPrice: order.cost + 1 };
    expect(
      await finaliseAtOnce(h.deps.db, order, overcharged, new Date(h.clock.now()), {
        attempt: order.refId,
      }),
    ).toBeUndefined();
    expect(await settle({ ...order, refId: "another-attempt" })).toBeUndefined();
    const [stored] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored?.status).toBe("submitted");
  });
});
