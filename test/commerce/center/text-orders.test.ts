import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTextOrder, placeTextOrder } from "../../../src/commerce/center/text-orders.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { orders, textOrders } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";

// a text command's order goes through the engine's own Pay: one R#, one order and one hold
// however many texts with it race (PostgreSQL shows the race; PGlite runs them in turn); a
// refused one binds nothing; the repeat rule holds as in the chat

describe("text orders", () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h?.stop());

  const ordersOf = (u: number) => h.deps.db.select().from(orders).where(eq(orders.userId, u));

  it("20 concurrent texts with one R# make one order and one hold, each answered with it", async () => {
    const u = await h.newUser(100_000, "reseller");
    const before = await walletBalance(h.deps.db, u);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        placeTextOrder(h.deps, {
          userId: u,
          chatId: u,
          code: "TSEL10",
          destination: "081234567903",
          // the repeat rule would allow 20 today: only the R# keeps it to one
          nth: 20,
          ref: "race-1",
        }),
      ),
    );
    const placed = await ordersOf(u);
    expect(placed).toHaveLength(1);
    for (const r of results) {
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.order.id).toBe(placed[0]!.id);
    }
    expect(results.filter((r) => r.ok && !r.repeat)).toHaveLength(1);
    expect(await walletBalance(h.deps.db, u)).toBe(before - placed[0]!.price);
    const rows = await h.deps.db.select().from(textOrders).where(eq(textOrders.userId, u));
    expect(rows.map((r) => r.ref)).toEqual(["race-1"]);
  });

  it("a refused text binds nothing: its R# is free for the next one", async () => {
    const u = await h.newUser(1_000, "reseller");
    const refused = await placeTextOrder(h.deps, {
      userId: u,
      chatId: u,
      code: "TSEL10",
      destination: "081234567901",
      ref: "C-1",
    });
    expect(refused).toEqual({ ok: false, reason: "insufficient_balance" });
    expect(await findTextOrder(h.deps.db, u, "C-1")).toBeUndefined();
    expect(await ordersOf(u)).toHaveLength(0);
    const unknown = await placeTextOrder(h.deps, {
      userId: u,
      chatId: u,
      code: "NOPE99",
      destination: "081234567901",
      ref: "C-1",
    });
    expect(unknown).toEqual({ ok: false, reason: "unknown_code" });
  });

  it("refuses a bill's code (bills take the menu's inquiry first): nothing held, R# free", async () => {
    const u = await h.newUser(1_000_000, "reseller");
    const before = await walletBalance(h.deps.db, u);
    const refused = await placeTextOrder(h.deps, {
      userId: u,
      chatId: u,
      code: "PLNPOST",
      destination: "530000000001",
      ref: "B-1",
    });
    expect(refused).toEqual({ ok: false, reason: "bill_code" });
    expect(await findTextOrder(h.deps.db, u, "B-1")).toBeUndefined();
    expect(await ordersOf(u)).toHaveLength(0);
    expect(await walletBalance(h.deps.db, u)).toBe(before);
  });

  it("keeps the repeat rule: a second today needs CODE.2.DEST", async () => {
    const u = await h.newUser(100_000, "reseller");
    const line = { userId: u, chatId: u, code: "TSEL10", destination: "081234567901" };
    const first = await placeTextOrder(h.deps, line);
    expect(first.ok).toBe(true);
    expect(await placeTextOrder(h.deps, line)).toEqual({
      ok: false,
      reason: "bought_today",
      boughtToday: 1,
    });
    const second = await placeTextOrder(h.deps, { ...line, nth: 2 });
    expect(second.ok && !second.repeat).toBe(true);
    // concurrent thirds: the guard is counted in Pay's own statement, one goes through
    const thirds = await Promise.all(
      Array.from({ length: 6 }, () => placeTextOrder(h.deps, { ...line, nth: 3 })),
    );
    expect(thirds.filter((r) => r.ok)).toHaveLength(1);
    expect(await ordersOf(u)).toHaveLength(3);
  });
});
