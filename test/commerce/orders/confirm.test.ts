import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderEngine } from "../../../src/commerce/orders/engine.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { pruneQuotes } from "../../../src/commerce/orders/prune.ts";
import { createQuote } from "../../../src/commerce/orders/quotes.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { orders, quotes, transfers } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

/** blocks this thread for `ms` without spinning a core (the machine is shared) */
function holdEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe(`confirming quotes (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  it("shows price, balance before and after on the quote", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user);
    expect(q.price).toBeGreaterThanOrEqual(10_000);
    expect(q.balance).toBe(50_000);
    expect(q.balanceAfter).toBe(50_000 - q.price);
    expect(q.destination).toBe("081234561234");
  });

  it("normalises the number and refuses one of another operator or of no operator", async () => {
    const user = await h.newUser(50_000);
    expect((await h.quote(user, "+62 812-3456-1234")).destination).toBe("081234561234");
    const xl = await createQuote(h.deps, {
      userId: user,
      chatId: user,
      productCode: "TSEL10",
      destination: "081712345678",
    });
    expect(xl).toEqual({ ok: false, reason: "invalid_destination" });
    const junk = await createQuote(h.deps, {
      userId: user,
      chatId: user,
      productCode: "TSEL10",
      destination: "hello",
    });
    expect(junk).toEqual({ ok: false, reason: "invalid_destination" });
  });

  it("refuses inactive and unknown products", async () => {
    const user = await h.newUser(50_000);
    for (const productCode of ["ISAT1000", "NOPE99"]) {
      const q = await createQuote(h.deps, {
        userId: user,
        chatId: user,
        productCode,
        destination: "081512345678",
      });
      expect(q).toEqual({ ok: false, reason: "product_unavailable" });
    }
  });

  it("many concurrent confirmations of one quote make one order, one hold, one supplier call", async () => {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    // every order call the engine makes, whether or not it reached the sandbox
    const called: string[] = [];
    const counting: OrderEngine = {
      ...h.deps,
      supplier: {
        ...h.supplier,
        order: (request) => {
          called.push(request.refId);
          return h.supplier.order(request);
        },
      },
    };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => confirmQuote(counting, { quoteId: q.id, userId: user })),
    );
    const ids = new Set(results.map((r) => (r.ok ? r.order.id : -1)));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.ok && !r.duplicate)).toHaveLength(1);
    const orderId = [...ids][0]!;
    const holds = await h.deps.db
      .select()
      .from(transfers)
      .where(eq(transfers.key, `order:${orderId}:hold`));
    expect(holds).toHaveLength(1);
    const [order] = await h.deps.db.select().from(orders).where(eq(orders.id, orderId));
    expect(called).toEqual([order!.refId]);
    // the supplier answered the one call (an unknown order here is the client giving up on a
    // busy machine, not the supplier: see HARNESS_SUPPLIER_TIMEOUT_MS)
    expect(order!.status, `${order!.supplierCode}: ${order!.supplierMessage}`).toBe("success");
    const sent = h.sandbox.transactions().filter((t) => t.refId === order!.refId);
    expect(sent).toHaveLength(1);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - q.price);
  });

  it("a confirmation whose process is held for seconds still gets the supplier's answer", async () => {
    // what a busy machine does to the test's process: PGlite (the other confirmations'
    // statements) or a starved core holds the event loop while the order is on its way, and
    // the sandbox, in this same process, can read it only once the loop runs again
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    const held: OrderEngine = {
      ...h.deps,
      supplier: {
        ...h.supplier,
        order: (request) => {
          const sent = h.supplier.order(request);
          holdEventLoop(3_000);
          return sent;
        },
      },
    };
    const result = await confirmQuote(held, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    const { order } = result;
    expect(order.status, `${order.supplierCode}: ${order.supplierMessage}`).toBe("success");
    expect(h.sandbox.transactions().filter((t) => t.refId === order.refId)).toHaveLength(1);
  });

  it("a confirmation after the order was made returns it as a duplicate", async () => {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    const first = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    const again = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(first.ok && again.ok && again.duplicate && again.order.id === first.order.id).toBe(true);
  });

  it("someone else's quote is not found", async () => {
    const owner = await h.newUser(100_000);
    const other = await h.newUser(100_000);
    const q = await h.quote(owner);
    expect(await confirmQuote(h.deps, { quoteId: q.id, userId: other })).toEqual({
      ok: false,
      reason: "quote_not_found",
    });
  });

  it("not enough balance: says how much is missing, stores no order and holds nothing", async () => {
    const user = await h.newUser(3_000);
    const q = await h.quote(user);
    const result = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(result).toEqual({
      ok: false,
      reason: "insufficient_balance",
      balance: 3_000,
      price: q.price,
      missing: q.price - 3_000,
    });
    const stored = await h.deps.db.select().from(orders).where(eq(orders.confirmKey, q.id));
    expect(stored).toEqual([]);
    expect(await walletBalance(h.deps.db, user)).toBe(3_000);
  });

  it("an expired quote cannot be paid", async () => {
    const user = await h.newUser(100_000);
    const q = await h.quote(user);
    h.clock.advance(11 * 60_000);
    const result = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(result).toMatchObject({ ok: false, reason: "quote_expired", productCode: "TSEL10" });
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
  });

  it("testing mode sends testing=true and moves no wallet money", async () => {
    const user = await h.newUser(1_000);
    const testingDeps = { ...h.deps, testing: true };
    const q = await createQuote(testingDeps, {
      userId: user,
      chatId: user,
      productCode: "TSEL10",
      destination: "081234560901",
    });
    if (!q.ok) throw new Error(q.reason);
    expect(q.quote.testing).toBe(true);
    const result = await confirmQuote(testingDeps, { quoteId: q.quote.id, userId: user });
    expect(result.ok && result.order.status === "success" && result.order.testing).toBe(true);
    expect(await walletBalance(h.deps.db, user)).toBe(1_000);
    const tx = h.sandbox.transactions().find((t) => result.ok && t.refId === result.order.refId);
    expect(tx?.testing).toBe(true);
    expect(tx?.charged).toBe(0);
  });

  it("housekeeping forgets old unused quotes and keeps those that became orders", async () => {
    const user = await h.newUser(100_000);
    const unused = await h.quote(user);
    const used = await h.quote(user, "081234560901");
    const placed = await confirmQuote(h.deps, { quoteId: used.id, userId: user });
    expect(placed.ok).toBe(true);
    h.clock.advance(2 * 86_400_000);
    const pruned = await pruneQuotes(h.deps.db, new Date(h.clock.now() - 86_400_000));
    expect(pruned).toBeGreaterThanOrEqual(1);
    const left = await h.deps.db.select({ id: quotes.id }).from(quotes);
    expect(left.map((q) => q.id)).toContain(used.id);
    expect(left.map((q) => q.id)).not.toContain(unused.id);
    // a press on the forgotten card is a stale button, not an error
    expect(await confirmQuote(h.deps, { quoteId: unused.id, userId: user })).toEqual({
      ok: false,
      reason: "quote_not_found",
    });
  });

  it("the ledger verifies after all of it", async () => {
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });
});
