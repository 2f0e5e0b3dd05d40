import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelQuote } from "../../../src/commerce/orders/cancel.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { firstSupplierName } from "../../../src/commerce/orders/routing.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { orderAttempts, orders, supplierReservations } from "../../../src/db/schema.ts";
import { bootCommerceThatSold, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// the Pay of a quote with no same-day rule (an H2H order's) stores its order in one
// statement with no transaction around it (place.ts, storeOrderAlone): the quote locked and
// checked open, the order, its attempt, the reservation consumed and the hold stand or fall
// together, and every refusal is the one the transaction gives. (A burst of them at a balance
// for two: reconciliation/guard.test.ts.)

describe(`a Pay stored in one statement (${testDriver})`, () => {
  let h: CommerceHarness;
  const cost = () => h.sandbox.catalogue().find((p) => p.code === "TSEL10")!.price;

  beforeAll(async () => {
    h = await bootCommerceThatSold();
  });
  afterAll(() => h.stop());

  const ordersOf = (quoteId: string) =>
    h.deps.db.select().from(orders).where(eq(orders.confirmKey, quoteId));

  it("stores the order with its attempt and hold, and sends it", async () => {
    const user = await h.newUser(100_000);
    const q = await h.h2hQuote(user, "081234566901");
    const r = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(r.ok && r.order.status).toBe("success");
    const [order] = await ordersOf(q.id);
    const attempts = await h.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, order!.id));
    expect(attempts.map((a) => a.refId)).toEqual([order!.refId]);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - q.price);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("a wallet that can't cover the price: refused with its balance, nothing stored, nothing reserved", async () => {
    const user = await h.newUser(1_000);
    const q = await h.h2hQuote(user, "081234566102");
    const r = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(r).toMatchObject({ ok: false, reason: "insufficient_balance", balance: 1_000 });
    expect(await ordersOf(q.id)).toHaveLength(0);
    expect(await h.deps.db.select().from(supplierReservations)).toHaveLength(0);
    expect(await walletBalance(h.deps.db, user)).toBe(1_000);
  });

  it("Pays and a Cancel of one quote at once: one order and a Cancel told so, or no order", async () => {
    for (let round = 0; round < 8; round++) {
      const user = await h.newUser(100_000);
      const q = await h.h2hQuote(user, `08123456620${round}`);
      const now = new Date(h.clock.now());
      const [a, b, cancelled] = await Promise.all([
        confirmQuote(h.deps, { quoteId: q.id, userId: user }),
        confirmQuote(h.deps, { quoteId: q.id, userId: user }),
        cancelQuote(h.deps.db, { quoteId: q.id, userId: user, now }),
      ]);
      const stored = await ordersOf(q.id);
      if (cancelled.state === "cancelled") {
        expect(stored).toHaveLength(0);
        expect([a, b].every((r) => !r.ok && r.reason === "quote_cancelled")).toBe(true);
        expect(await walletBalance(h.deps.db, user)).toBe(100_000);
      } else {
        expect(cancelled.state).toBe("ordered");
        expect(stored).toHaveLength(1);
        expect([a, b].every((r) => r.ok)).toBe(true);
        expect([a, b].filter((r) => r.ok && !r.duplicate)).toHaveLength(1);
        expect(await walletBalance(h.deps.db, user)).toBe(100_000 - q.price);
      }
    }
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("a reservation another Pay overtook fails the statement whole: no order without its hold", async () => {
    // the reading covers one order and a half; right after this Pay reserved, another Pay's
    // reservation of the same cost lands (two Pays that reserved at once): at the check in the
    // order's statement the estimate no longer covers this one
    await h.readingFor(1);
    const user = await h.newUser(100_000);
    const q = await h.h2hQuote(user, "081234566401");
    let overtaken = false;
    const db = new Proxy(h.deps.db, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== "execute" || typeof value !== "function") return value;
        // the guard's reservation is the Pay's first execute, committed on its own
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (!overtaken) {
            overtaken = true;
            await target.insert(supplierReservations).values({
              supplier: firstSupplierName(h.deps),
              cost: cost(),
              expiresAt: new Date(h.clock.now() + 60_000),
            });
          }
          return result;
        };
      },
    });
    const before = h.sandbox.requests().length;
    const r = await confirmQuote({ ...h.deps, db }, { quoteId: q.id, userId: user });
    expect(overtaken).toBe(true);
    expect(r).toEqual({ ok: false, reason: "supplier_unavailable" });
    expect(await ordersOf(q.id)).toHaveLength(0);
    expect(h.sandbox.requests().slice(before)).toHaveLength(0);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
    await h.deps.db.delete(supplierReservations);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });
});
