import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createQuote } from "../../../src/commerce/orders/quotes.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { notifications, orders, products } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// honest product status against the sandbox: its cut-off products (23:45–00:15 WIB), its
// inactive ones, and products whose orders keep failing

/** today at HH:MM WIB, as Unix ms */
function wibToday(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  const d = new Date(Date.now() + 7 * 3600_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), h - 7, m);
}

describe(`product status (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  const quote = (user: number, productCode: string, destination: string) =>
    createQuote(h.deps, { userId: user, chatId: user, productCode, destination });

  it("inside its cut-off window a product can't be quoted, nor paid on an older card", async () => {
    const user = await h.newUser(200_000);
    h.clock.set(wibToday("23:42"));
    const before = await quote(user, "LINKAJA50", "081234567901");
    expect(before.ok).toBe(true);
    h.clock.set(wibToday("23:46"));
    const inside = await quote(user, "LINKAJA50", "081234567901");
    expect(inside).toEqual({
      ok: false,
      reason: "product_closed",
      until: wibToday("00:15") + 24 * 3600_000,
    });
    if (!before.ok) return;
    const paid = await confirmQuote(h.deps, { quoteId: before.quote.id, userId: user });
    expect(paid).toMatchObject({ ok: false, reason: "product_closed" });
    expect(await walletBalance(h.deps.db, user)).toBe(200_000);
    h.clock.set(Date.now());
  });

  it("a cut-off window the supplier adds reaches kios with the next sync", async () => {
    const user = await h.newUser(200_000);
    h.sandbox.setCutOff("TSEL50", { start: "03:00", end: "04:00" });
    try {
      await syncCatalogue(h.deps.db, h.supplier, { clock: h.clock, logger: h.deps.logger });
      h.clock.set(wibToday("03:30"));
      expect(await quote(user, "TSEL50", "081234567901")).toEqual({
        ok: false,
        reason: "product_closed",
        until: wibToday("04:00"),
      });
    } finally {
      h.sandbox.setCutOff("TSEL50", null);
      await syncCatalogue(h.deps.db, h.supplier, { clock: h.clock, logger: h.deps.logger });
      h.clock.set(Date.now());
    }
    expect((await quote(user, "TSEL50", "081234567901")).ok).toBe(true);
  });

  it("a product the supplier refuses as inactive is paused at once and the admins told", async () => {
    // kios's catalogue still thinks it active (the supplier changed it since the last sync)
    await h.deps.db.update(products).set({ active: true }).where(eq(products.code, "ISAT1000"));
    const user = await h.newUser(2_000_000);
    const q = await quote(user, "ISAT1000", "085612345901");
    expect(q.ok).toBe(true);
    if (!q.ok) return;
    const placed = await confirmQuote(h.deps, { quoteId: q.quote.id, userId: user });
    expect(placed).toMatchObject({ ok: true, order: { status: "failed" } });
    expect(await quote(user, "ISAT1000", "085612345901")).toMatchObject({
      ok: false,
      reason: "product_closed",
    });
    const told = await h.deps.db
      .select()
      .from(notifications)
      .where(like(notifications.key, "product:ISAT1000:paused:%"));
    expect(told.map((n) => n.payload)).toEqual([
      expect.objectContaining({ type: "product_paused", reason: "inactive" }),
    ]);
  });

  it("3 failures among a product's last 5 orders pause it, once; successes in between count", async () => {
    const user = await h.newUser(1_000_000);
    const buy = async (destination: string) => {
      const q = await quote(user, "TSEL5", destination);
      if (!q.ok) return q;
      return confirmQuote(h.deps, { quoteId: q.quote.id, userId: user });
    };
    expect(await buy("081234567902")).toMatchObject({ ok: true });
    expect(await buy("081234567901")).toMatchObject({ ok: true });
    expect(await buy("081234567902")).toMatchObject({ ok: true });
    // two failures: still open
    expect((await quote(user, "TSEL5", "081234567901")).ok).toBe(true);
    expect(await buy("081234567902")).toMatchObject({ ok: true, order: { status: "failed" } });
    expect(await quote(user, "TSEL5", "081234567901")).toMatchObject({
      ok: false,
      reason: "product_closed",
    });
    const [row] = await h.deps.db.select().from(products).where(eq(products.code, "TSEL5"));
    expect(row?.pauseReason).toBe("failing");
    expect(row!.pausedUntil!.getTime() - h.clock.now()).toBeGreaterThan(29 * 60_000);
    const told = await h.deps.db
      .select()
      .from(notifications)
      .where(like(notifications.key, "product:TSEL5:paused:%"));
    expect(told).toHaveLength(1);
    // after the pause it opens again by itself
    h.clock.advance(31 * 60_000);
    expect((await quote(user, "TSEL5", "081234567901")).ok).toBe(true);
    h.clock.set(Date.now());
  });

  it("another product's failures and test orders don't count", async () => {
    const failed = await h.deps.db
      .select()
      .from(orders)
      .where(and(eq(orders.productCode, "TSEL10"), eq(orders.status, "failed")));
    expect(failed).toHaveLength(0);
    const user = await h.newUser(100_000);
    expect((await quote(user, "TSEL10", "081234567901")).ok).toBe(true);
  });
});
