import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideOrder } from "../../../src/commerce/orders/decide.ts";
import {
  NOT_FOUND_ASK_ADMIN_MS,
  NOT_FOUND_MARGIN_MS,
  NOT_FOUND_MIN_CHECKS,
  SIGNED_REQUEST_WINDOW_MS,
  STUCK_AFTER_MS,
} from "../../../src/commerce/orders/engine.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { orderStats } from "../../../src/commerce/orders/queries.ts";
import { createBillQuote, createQuote } from "../../../src/commerce/orders/quotes.ts";
import { resolveOrder, sweepOpenOrders } from "../../../src/commerce/orders/resolve.ts";
import {
  creditWallet,
  LedgerError,
  MAX_OPERATION_AMOUNT,
  walletBalance,
} from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders } from "../../../src/db/schema.ts";
import type { Supplier } from "../../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// the money paths' edges a review and a fault campaign found: each test fails on the code
// as it was before its fix.

const ADMIN = 1;

async function flagsFor(h: CommerceHarness, orderId: number) {
  const rows = await h.deps.db.select().from(notifications);
  return rows
    .map((r) => r.payload as { type: string; orderId?: number; reason?: string })
    .filter((p) => p.orderId === orderId);
}

describe(`money at the edges, signature interface (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  it("a pending order the supplier then has no record of keeps its next check and is flagged when old", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560903");
    const r = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!r.ok) throw new Error(r.reason);
    expect(r.order.status).toBe("pending");
    const forgetful = {
      ...h.deps,
      supplier: { ...h.supplier, status: async () => ({ found: false as const }) },
    };
    const now = h.clock.now();
    const after = await resolveOrder(forgetful, r.order.id);
    expect(after?.status).toBe("pending");
    expect(after!.nextCheckAt!.getTime()).toBeGreaterThan(now);
    h.clock.advance(STUCK_AFTER_MS + 60_000);
    const old = await resolveOrder(forgetful, r.order.id);
    expect(old?.status).toBe("pending");
    expect(old?.flaggedAt).not.toBeNull();
    expect(old!.nextCheckAt!.getTime()).toBeGreaterThan(h.clock.now());
    expect((await flagsFor(h, r.order.id)).map((p) => p.type)).toContain("order_flagged");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - q.price);
  });

  it("the sweeper makes progress on every open order, however many it cannot move", async () => {
    const forgetful = {
      ...h.deps,
      supplier: { ...h.supplier, status: async () => ({ found: false as const }) },
    };
    // orders the supplier answered for (pending), then forgot: never refunded, never settled
    const stuck: number[] = [];
    for (let i = 0; i < 3; i++) {
      const user = await h.newUser(50_000);
      const q = await h.quote(user, "081234560903");
      const r = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
      if (r.ok) stuck.push(r.order.id);
    }
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560901");
    // sent, but its answer lost on the way back: only a status check settles it
    const answerLost: Supplier = {
      ...h.supplier,
      order: async (req) => {
        await h.supplier.order(req);
        return { outcome: "unknown", reason: "reply lost" };
      },
    };
    const late = await confirmQuote(
      { ...h.deps, supplier: answerLost },
      { quoteId: q.id, userId: user },
    );
    if (!late.ok) throw new Error(late.reason);
    h.clock.advance(120_000);
    // batches of two: the forgotten orders must not take every batch
    await sweepOpenOrders(forgetful, 2);
    await sweepOpenOrders(h.deps, 2);
    await sweepOpenOrders(h.deps, 2);
    const [settled] = await h.deps.db.select().from(orders).where(eq(orders.id, late.order.id));
    expect(settled?.status).toBe("success");
  });

  it("refunds a never-arrived order only once its own signed time is past the supplier's window", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560901");
    // the request never reached the supplier: the reply timed out before it was sent
    const lost: Supplier = {
      ...h.supplier,
      order: async () => ({ outcome: "unknown", reason: "timeout" }),
    };
    const sentFrom = Math.floor(h.clock.now() / 1000);
    const r = await confirmQuote({ ...h.deps, supplier: lost }, { quoteId: q.id, userId: user });
    if (!r.ok) throw new Error(r.reason);
    // signed with the time stored on the order before it was sent
    expect(r.order.requestTimestamp).toBeGreaterThanOrEqual(sentFrom);
    expect(r.order.requestTimestamp).toBeLessThanOrEqual(Math.floor(h.clock.now() / 1000));
    for (let i = 0; i < NOT_FOUND_MIN_CHECKS + 1; i++) await resolveOrder(h.deps, r.order.id);
    h.clock.advance(SIGNED_REQUEST_WINDOW_MS + NOT_FOUND_MARGIN_MS - 5_000);
    expect((await resolveOrder(h.deps, r.order.id))?.status).toBe("unknown");
    h.clock.advance(10_000);
    expect((await resolveOrder(h.deps, r.order.id))?.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000);
  });

  it("testing stays with admins: a customer's test request or re-quote makes a real quote", async () => {
    const user = await h.newUser(50_000);
    const real = await createQuote(h.deps, {
      userId: user,
      chatId: user,
      productCode: "TSEL10",
      destination: "081234560901",
      testing: true,
    });
    expect(real.ok && real.quote.testing).toBe(false);
    // a test card left from SUPPLIER_TESTING=true, paid after it was switched off
    const old = await createQuote(
      { ...h.deps, testing: true },
      {
        userId: user,
        chatId: user,
        productCode: "TSEL10",
        destination: "081234560901",
      },
    );
    if (!old.ok) throw new Error(old.reason);
    expect(old.quote.testing).toBe(true);
    expect(await confirmQuote(h.deps, { quoteId: old.quote.id, userId: user })).toMatchObject({
      ok: false,
      reason: "quote_expired",
    });
    const admin = await createQuote(
      { ...h.deps, adminIds: [user] },
      {
        userId: user,
        chatId: user,
        productCode: "TSEL10",
        destination: "081234560901",
        testing: true,
      },
    );
    expect(admin.ok && admin.quote.testing).toBe(true);
  });

  it("a supplier charge above the quote is captured, flagged, told to admins and counted in /stats", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560901");
    const dearer: Supplier = {
      ...h.supplier,
      order: async (req) => {
        const out = await h.supplier.order(req);
        if (out.outcome !== "accepted") return out;
        return { ...out, transaction: { ...out.transaction, price: out.transaction.price + 500 } };
      },
    };
    const r = await confirmQuote({ ...h.deps, supplier: dearer }, { quoteId: q.id, userId: user });
    if (!r.ok) throw new Error(r.reason);
    expect(r.order.status).toBe("success");
    expect(r.order.flaggedAt).not.toBeNull();
    const told = (await flagsFor(h, r.order.id)).filter((p) => p.type === "order_overcharged");
    expect(told).toHaveLength(1);
    const stats = await orderStats(h.deps.db, new Date(h.clock.now()));
    expect(stats.week.overcharged).toBeGreaterThanOrEqual(1);
    expect(stats.week.overcharge).toBeGreaterThanOrEqual(500);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("amounts are bounded: one manual operation moves at most the limit, exactly", async () => {
    const user = await h.newUser(0);
    await expect(
      creditWallet(h.deps.db, {
        userId: user,
        amount: MAX_OPERATION_AMOUNT + 1,
        key: `big:${user}`,
      }),
    ).rejects.toBeInstanceOf(LedgerError);
    await expect(
      creditWallet(h.deps.db, { userId: user, amount: 2 ** 53, key: `huge:${user}` }),
    ).rejects.toBeInstanceOf(LedgerError);
    await creditWallet(h.deps.db, {
      userId: user,
      amount: MAX_OPERATION_AMOUNT,
      key: `max:${user}`,
    });
    expect(await walletBalance(h.deps.db, user)).toBe(MAX_OPERATION_AMOUNT);
  });
});

describe(`one bill, one payment, and the bill window (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  function inquire(user: number, customerNo: string, deps = h.deps) {
    return createBillQuote(deps, {
      userId: user,
      chatId: user,
      productCode: "PLNPOST",
      customerNo,
    });
  }

  it("one bill, one payment: a second payer is told it is being paid, and no second request leaves", async () => {
    const [a, b] = [await h.newUser(9_000_000), await h.newUser(9_000_000)];
    const qa = await inquire(a, "530000000042");
    const qb = await inquire(b, "530000000042");
    if (!qa.ok || !qb.ok) throw new Error(`inquiry refused: ${JSON.stringify([qa, qb])}`);
    const paid = await confirmQuote(h.deps, { quoteId: qa.quote.id, userId: a });
    if (!paid.ok) throw new Error(JSON.stringify(paid));
    const second = await confirmQuote(h.deps, { quoteId: qb.quote.id, userId: b });
    expect(second).toMatchObject({ ok: false, reason: "bill_already_paid", state: "open" });
    expect(await walletBalance(h.deps.db, b)).toBe(9_000_000);
    const pays = h.sandbox
      .transactions()
      .filter((t) => t.cmd === "pay-pasca" && t.customerNo === "530000000042");
    expect(pays).toHaveLength(1);
    // once paid, a fresh inquiry says so too
    await h.sandbox.settleNow();
    if (paid.ok) expect((await resolveOrder(h.deps, paid.order.id))?.status).toBe("success");
    const again = await inquire(b, "530000000042");
    expect(again).toMatchObject({ ok: false, reason: "bill_already_paid", state: "success" });
  });

  it("one bill, one payment under concurrent Pays of two users: exactly one supplier call", async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => h.newUser(9_000_000)));
    const quotes = await Promise.all(users.map((u) => inquire(u, "530000000052")));
    const results = await Promise.all(
      quotes.map((q, i) => {
        if (!q.ok) throw new Error("inquiry refused");
        return confirmQuote(h.deps, { quoteId: q.quote.id, userId: users[i]! });
      }),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "bill_already_paid")).toHaveLength(3);
    const pays = h.sandbox
      .transactions()
      .filter((t) => t.cmd === "pay-pasca" && t.customerNo === "530000000052");
    expect(pays).toHaveLength(1);
  });

  it("a failed payment frees the bill for another payment", async () => {
    const user = await h.newUser(9_000_000);
    const q = await inquire(user, "530000000062");
    if (!q.ok) throw new Error(q.reason);
    const refusing: Supplier = {
      ...h.supplier,
      payBill: async () => ({
        outcome: "rejected",
        error: Object.assign(new Error("balance"), { code: "INSUFFICIENT_BALANCE" }) as never,
      }),
    };
    const r = await confirmQuote(
      { ...h.deps, supplier: refusing },
      { quoteId: q.quote.id, userId: user },
    );
    expect(r.ok && r.order.status).toBe("failed");
    const fresh = await inquire(user, "530000000062");
    expect(fresh.ok).toBe(true);
  });

  it("a bill whose supplier total exceeds tagihan + admin is priced from the total, and pays", async () => {
    const penalty: Supplier = {
      ...h.supplier,
      inquiry: async (req) => {
        const real = await h.supplier.inquiry(req);
        return { ...real, total: real.total + 7_500 };
      },
    };
    const deps = { ...h.deps, supplier: penalty };
    const user = await h.newUser(9_000_000);
    const q = await inquire(user, "530000000072", deps);
    if (!q.ok) throw new Error(q.reason);
    const [inquiry] = await h.deps.db.select().from(orders).limit(0);
    expect(inquiry).toBeUndefined();
    expect(q.quote.price).toBeGreaterThanOrEqual(q.quote.bill!.tagihan + 7_500);
    const r = await confirmQuote(deps, { quoteId: q.quote.id, userId: user });
    expect(r.ok).toBe(true);
  });

  it("Pay with less than the safety margin of the window left offers a fresh inquiry", async () => {
    const user = await h.newUser(9_000_000);
    const q = await inquire(user, "530000000082");
    if (!q.ok) throw new Error(q.reason);
    h.clock.advance(q.quote.expiresAt.getTime() - h.clock.now() - 10_000);
    const r = await confirmQuote(h.deps, { quoteId: q.quote.id, userId: user });
    expect(r).toMatchObject({ ok: false, reason: "quote_expired", kind: "bill" });
    expect(
      h.sandbox
        .transactions()
        .filter((t) => t.customerNo === "530000000082" && t.cmd === "pay-pasca"),
    ).toHaveLength(0);
  });
});

describe(`money at the edges, key interface (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce({ supplierInterface: "key" });
  });
  afterAll(() => h.stop());

  it("never refunds an order the supplier has no record of; an admin decides, and it is recorded", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560901");
    const lost: Supplier = {
      ...h.supplier,
      order: async () => ({ outcome: "unknown", reason: "timeout" }),
    };
    const r = await confirmQuote({ ...h.deps, supplier: lost }, { quoteId: q.id, userId: user });
    if (!r.ok) throw new Error(r.reason);
    for (let i = 0; i < 6; i++) {
      h.clock.advance(NOT_FOUND_ASK_ADMIN_MS);
      expect((await resolveOrder(h.deps, r.order.id))?.status).toBe("unknown");
    }
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - q.price);
    const asked = (await flagsFor(h, r.order.id)).filter(
      (p) => p.type === "order_flagged" && p.reason === "not_found",
    );
    expect(asked).toHaveLength(1);
    const wait = await decideOrder(h.deps, {
      orderId: r.order.id,
      adminId: ADMIN,
      decision: "wait",
    });
    expect(wait).toMatchObject({
      ok: true,
      order: { status: "unknown", decision: "wait", decidedBy: ADMIN },
    });
    const refund = await decideOrder(h.deps, {
      orderId: r.order.id,
      adminId: ADMIN,
      decision: "refund",
    });
    expect(refund).toMatchObject({
      ok: true,
      order: { status: "failed", decision: "refund", decidedBy: ADMIN },
    });
    expect(await walletBalance(h.deps.db, user)).toBe(50_000);
    const [row] = await h.deps.db
      .select()
      .from(orders)
      .where(and(eq(orders.id, r.order.id)));
    expect(row?.decidedAt).not.toBeNull();
  });
});
