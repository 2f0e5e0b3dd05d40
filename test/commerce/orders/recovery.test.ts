import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NOT_FOUND_MARGIN_MS,
  NOT_FOUND_MIN_CHECKS,
  SIGNED_REQUEST_WINDOW_MS,
} from "../../../src/commerce/orders/engine.ts";

/** past the signed request's window: the supplier can no longer accept it */
const PAST_WINDOW_MS = SIGNED_REQUEST_WINDOW_MS + NOT_FOUND_MARGIN_MS;

import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder, sweepOpenOrders } from "../../../src/commerce/orders/resolve.ts";
import { holdForOrder, walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders } from "../../../src/db/schema.ts";
import { newRefId } from "../../../src/supplier/ref-id.ts";
import type { Supplier } from "../../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

describe(`recovering orders a crash left open (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  /** a supplier whose order call never returns: the process "dies" during it */
  function dyingSupplier(reachesSupplier: boolean): Supplier {
    return {
      ...h.supplier,
      order: async (req) => {
        if (reachesSupplier) await h.supplier.order(req);
        return new Promise(() => {});
      },
    };
  }

  it("created but never sent: after a minute the hold is released and the buyer told", async () => {
    const user = await h.newUser(50_000);
    const now = new Date(h.clock.now());
    const [order] = await h.deps.db
      .insert(orders)
      .values({
        refId: newRefId(),
        confirmKey: `crash-${user}`,
        userId: user,
        chatId: user,
        kind: "prepaid",
        productCode: "TSEL10",
        productName: "Telkomsel 10.000",
        destination: "081234561234",
        price: 10_500,
        cost: 10_300,
        createdAt: now,
      })
      .returning();
    await holdForOrder(h.deps.db, { orderId: order!.id, userId: user, amount: 10_500 });

    expect((await resolveOrder(h.deps, order!.id))?.status).toBe("created"); // may be in flight
    h.clock.advance(61_000);
    const after = await resolveOrder(h.deps, order!.id);
    expect(after?.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000);
    const sent = await h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `order:${order!.id}:final`));
    expect(sent).toHaveLength(1);
  });

  it("submitted, never reached the supplier: failed and refunded only after the grace period", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234561111");
    void confirmQuote(
      { ...h.deps, supplier: dyingSupplier(false) },
      { quoteId: q.id, userId: user },
    );
    await new Promise((r) => setTimeout(r, 300));
    const [order] = await h.deps.db.select().from(orders).where(eq(orders.confirmKey, q.id));
    expect(order?.status).toBe("submitted");

    expect((await resolveOrder(h.deps, order!.id))?.status).toBe("submitted");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - q.price);
    h.clock.advance(PAST_WINDOW_MS + 1_000);
    // past the grace period, and after enough "not found" answers: never placed, refunded
    for (let i = 0; i < NOT_FOUND_MIN_CHECKS; i++) await resolveOrder(h.deps, order!.id);
    expect((await resolveOrder(h.deps, order!.id))?.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000);
  });

  it("submitted and placed at the supplier before the crash: status finds and settles it", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560901");
    void confirmQuote(
      { ...h.deps, supplier: dyingSupplier(true) },
      { quoteId: q.id, userId: user },
    );
    await new Promise((r) => setTimeout(r, 500));
    const [order] = await h.deps.db.select().from(orders).where(eq(orders.confirmKey, q.id));
    expect(order?.status).toBe("submitted");
    expect(await sweepOpenOrders(h.deps)).toBeGreaterThan(0);
    const [after] = await h.deps.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(after?.status).toBe("success");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - q.price);
  });

  it("an order open for over 30 minutes is flagged for the admins, once", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560905");
    const result = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    expect(result.order.status).toBe("pending");
    // the sandbox would settle it; make the supplier keep saying pending
    const stuck: Supplier = {
      ...h.supplier,
      status: async (refId) => {
        const s = await h.supplier.status(refId);
        return s.found ? { found: true, transaction: { ...s.transaction, status: "pending" } } : s;
      },
    };
    h.clock.advance(31 * 60_000);
    await resolveOrder({ ...h.deps, supplier: stuck }, result.order.id);
    await resolveOrder({ ...h.deps, supplier: stuck }, result.order.id);
    const [order] = await h.deps.db.select().from(orders).where(eq(orders.id, result.order.id));
    expect(order?.flaggedAt).toBeTruthy();
    expect(order?.status).toBe("pending");
    const flags = await h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `order:${result.order.id}:flagged:1`));
    expect(flags).toHaveLength(1);
  });

  it("the ledger verifies after the recoveries", async () => {
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });
});
