import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrderLockLostError, withOrderLock } from "../../../src/commerce/orders/lock.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { orders } from "../../../src/db/schema.ts";
import type { Supplier } from "../../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// one settlement of an order at a time, across processes; different orders side by side

describe(`settling an order, one at a time (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    // the sandbox answers "pending" until told otherwise
    h = await bootCommerce({ sandbox: { settleDelayMs: 600_000 } });
  });
  afterAll(() => h?.stop());

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  /** an order placed and left pending at the supplier */
  async function placedOrder(destination: string): Promise<number> {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, destination);
    const placed = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!placed.ok) throw new Error("not placed");
    return placed.order.id;
  }

  const lockOf = async (orderId: number) => {
    const [row] = await h.deps.db
      .select({ holder: orders.lockHolder, until: orders.lockUntil })
      .from(orders)
      .where(eq(orders.id, orderId));
    return row;
  };

  it("runs the holders of one order one after another, and of two orders side by side", async () => {
    const one = await placedOrder("081234565111");
    const two = await placedOrder("081234565112");
    const log: string[] = [];
    let c2Started!: () => void;
    const c2Running = new Promise<void>((r) => {
      c2Started = r;
    });
    // order 1's holders finish only once order 2's has started: were the orders' locks one
    // lock, this would never finish
    const work = (name: string) => async () => {
      log.push(`start ${name}`);
      if (name === "c2") c2Started();
      else await c2Running;
      await sleep(20);
      log.push(`end ${name}`);
    };
    await Promise.all([
      withOrderLock(h.deps.db, one, work("a1")),
      withOrderLock(h.deps.db, one, work("b1")),
      withOrderLock(h.deps.db, two, work("c2")),
    ]);
    // order 1's two holders: one whole, then the other whole
    const ones = log.filter((l) => l.endsWith("1"));
    const first = ones[0]!.slice("start ".length);
    const second = first === "a1" ? "b1" : "a1";
    expect(ones).toEqual([`start ${first}`, `end ${first}`, `start ${second}`, `end ${second}`]);
    expect(log.indexOf("start c2")).toBeLessThan(log.indexOf(`end ${first}`));
    // both locks given back
    expect(await lockOf(one)).toEqual({ holder: null, until: null });
    expect(await lockOf(two)).toEqual({ holder: null, until: null });
  });

  it("brings the order it locked, and runs nothing for an order that is not there", async () => {
    const id = await placedOrder("081234565113");
    const seen = await withOrderLock(h.deps.db, id, async (_fence, order) => {
      expect((await lockOf(id))?.holder).not.toBeNull();
      return order;
    });
    expect(seen).toMatchObject({ id, status: "pending" });
    let ran = false;
    expect(
      await withOrderLock(h.deps.db, 987_654_321, async () => {
        ran = true;
      }),
    ).toBeUndefined();
    expect(ran).toBe(false);
  });

  it("takes a lock whose holder died once its lease has lapsed", async () => {
    const id = await placedOrder("081234565114");
    await h.deps.db
      .update(orders)
      .set({ lockHolder: "dead", lockUntil: new Date(Date.now() - 1000) })
      .where(eq(orders.id, id));
    let ran = false;
    await withOrderLock(h.deps.db, id, async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it("two checks of one order ask the supplier one after the other", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234565123");
    const placed = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!placed.ok) throw new Error("not placed");
    let inFlight = 0;
    let most = 0;
    const watched: Supplier = {
      ...h.supplier,
      status: async (req) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await sleep(100);
        try {
          return await h.supplier.status(req);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const deps = { ...h.deps, supplier: watched };
    await Promise.all([resolveOrder(deps, placed.order.id), resolveOrder(deps, placed.order.id)]);
    expect(most).toBe(1);
  });

  it("a settlement frees the lock with its own move; one that rolls back leaves it to its holder to free", async () => {
    // the sandbox's order settles at once: the check's answer is final
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234565125");
    const placed = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!placed.ok) throw new Error("not placed");
    const orderId = placed.order.id;
    const settles: Supplier = {
      ...h.supplier,
      status: async (refId) => {
        const answer = await h.supplier.status(refId);
        if (!answer.found) throw new Error("the sandbox has no such order");
        return {
          found: true,
          transaction: { ...answer.transaction, status: "success", sn: "SN1" },
        };
      },
    };
    const deps = { ...h.deps, supplier: settles };
    // the settlement's transaction fails after the move: nothing of it commits, the lock is
    // freed by its holder all the same
    await expect(
      resolveOrder(deps, orderId, {
        onSettled: async () => {
          throw new Error("died in the settlement");
        },
      }),
    ).rejects.toThrow("died in the settlement");
    const [kept] = await h.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(kept?.status).toBe(placed.order.status);
    expect((await lockOf(orderId))?.holder).toBeNull();
    // settled: the move itself freed the lock
    const settled = await resolveOrder(deps, orderId);
    expect(settled?.status).toBe("success");
    expect(await lockOf(orderId)).toEqual({ holder: null, until: null });
  });

  it("a check whose lock another settler took over meanwhile settles nothing", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234565124");
    const placed = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!placed.ok) throw new Error("not placed");
    const orderId = placed.order.id;
    const held = await walletBalance(h.deps.db, user);
    // the check stalls past its lease (a paused process, a lost renewal); another settler
    // takes the order over, and then the supplier's answer arrives: a failure
    const stalled: Supplier = {
      ...h.supplier,
      status: async (refId) => {
        const answer = await h.supplier.status(refId);
        if (!answer.found) throw new Error("the sandbox has no such order");
        await h.deps.db
          .update(orders)
          .set({ lockHolder: "another settler", lockUntil: new Date(Date.now() + 60_000) })
          .where(eq(orders.id, orderId));
        return {
          found: true,
          transaction: { ...answer.transaction, status: "failed", message: "Gangguan" },
        };
      },
    };
    await expect(resolveOrder({ ...h.deps, supplier: stalled }, orderId)).rejects.toBeInstanceOf(
      OrderLockLostError,
    );
    // no refund, no state: the order is the other settler's to settle
    const [row] = await h.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row?.status).toBe(placed.order.status);
    expect(await walletBalance(h.deps.db, user)).toBe(held);
    // and its lock is still the other settler's
    expect((await lockOf(orderId))?.holder).toBe("another settler");
    await h.deps.db
      .update(orders)
      .set({ lockHolder: null, lockUntil: null })
      .where(eq(orders.id, orderId));
  });
});
