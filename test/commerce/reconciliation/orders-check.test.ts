import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { finaliseOrder } from "../../../src/commerce/orders/transitions.ts";
import { recheckFinalOrders } from "../../../src/commerce/reconciliation/orders-check.ts";
import { notifications, orders } from "../../../src/db/schema.ts";
import { type Supplier, SupplierError } from "../../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// the daily re-check of settled orders against the supplier's status

describe(`the daily order re-check (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce({ sandbox: { settleDelayMs: 3_600_000 } });
    h.deps.productPause = { failures: 100, of: 100, minutes: 1 };
  });
  afterAll(() => h.stop());

  async function buy(destination: string) {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, destination);
    const placed = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!placed.ok) throw new Error(placed.reason);
    return placed.order;
  }

  it("flags and lists the orders the supplier tells otherwise; the rest agree", async () => {
    const ok = await buy("081234567901");
    const failed = await buy("081234567902");
    // an admin refunded this one while it was pending; the supplier then made it
    const refunded = await buy("081234567903");
    await h.deps.db.transaction((tx) =>
      finaliseOrder(
        tx,
        refunded,
        { status: "failed", reason: "admin" },
        new Date(h.clock.now()),
        false,
      ),
    );
    await h.sandbox.settleNow();
    // a success the supplier no longer has any record of, and one it can't be asked about
    const unknown = await buy("081234567901");
    const silent = await buy("081234567901");
    const supplier: Supplier = {
      ...h.supplier,
      status: async (refId) => {
        if (refId === unknown.refId) return { found: false };
        if (refId === silent.refId) throw new SupplierError("SERVER_ERROR", "down");
        return h.supplier.status(refId);
      },
    };
    h.clock.advance(1_000);
    const summary = await recheckFinalOrders({ ...h.deps, supplier }, { perSecond: 1_000 });
    expect(summary.checked).toBe(4);
    expect(summary.unanswered).toBe(1);
    expect(summary.disagreeing).toEqual(
      expect.arrayContaining([
        { refId: refunded.refId, kios: "failed", supplier: "success" },
        { refId: unknown.refId, kios: "success", supplier: "not_found" },
      ]),
    );
    expect(summary.disagreeing).toHaveLength(2);
    for (const o of [refunded, unknown]) {
      const [row] = await h.deps.db.select().from(orders).where(eq(orders.id, o.id));
      expect(row?.flaggedAt, o.refId).not.toBeNull();
    }
    for (const o of [ok, failed]) {
      const [row] = await h.deps.db.select().from(orders).where(eq(orders.id, o.id));
      expect(row?.flaggedAt, o.refId).toBeNull();
    }
    const listed = await h.deps.db.select().from(notifications).where(eq(notifications.chatId, 1));
    const summaryNotes = listed.filter((n) => n.key.startsWith("recon:orders:"));
    expect(summaryNotes).toHaveLength(1);
    expect(listed.some((n) => n.key === `order:${refunded.id}:conflict:1`)).toBe(true);
  });

  it("orders finalised before the window are not asked again", async () => {
    h.clock.advance(25 * 3600_000);
    const summary = await recheckFinalOrders(h.deps, { perSecond: 1_000 });
    expect(summary).toEqual({ checked: 0, disagreeing: [], unanswered: 0 });
    h.clock.set(Date.now());
  });
});
