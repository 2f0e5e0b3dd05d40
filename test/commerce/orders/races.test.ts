import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NOT_FOUND_MARGIN_MS,
  NOT_FOUND_MIN_CHECKS,
  SIGNED_REQUEST_WINDOW_MS,
} from "../../../src/commerce/orders/engine.ts";
import {
  processSupplierReport,
  storeSupplierReport,
} from "../../../src/commerce/supplier-reports/inbox.ts";

/** past the signed request's window: the supplier can no longer accept it */
const PAST_WINDOW_MS = SIGNED_REQUEST_WINDOW_MS + NOT_FOUND_MARGIN_MS;

import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness, timingOutSupplier } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// races a review found: a refund decided from a stale read, and a supplier that completes
// an order kios had already refunded. Each must leave the money right, or say so loudly.

describe(`order races (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  /** an order whose reply never came in time: the money is held, the outcome unknown */
  async function unknownOrder(destination: string) {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, destination);
    const r = await confirmQuote(
      { ...h.deps, supplier: timingOutSupplier(h.supplier) },
      { quoteId: q.id, userId: user },
    );
    if (!r.ok) throw new Error(r.reason);
    return { user, price: q.price, order: r.order };
  }

  it("a Pay that dies before its request leaves: a retap sends nothing, the status check refunds it once the supplier's window has passed", async () => {
    const { user, quote: q, order } = await h.storedNotSent("081234560901");
    // stored as sent, signed with its own time: never arrived is told from the window
    expect(order.status).toBe("submitted");
    expect(order.requestTimestamp).not.toBeNull();
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - q.price);
    const again = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(again.ok && again.duplicate && again.order.id).toBe(order.id);
    expect(h.sandbox.transactions().filter((t) => t.refId === order.refId)).toHaveLength(0);

    h.clock.advance(PAST_WINDOW_MS + 1_000);
    let after = await resolveOrder(h.deps, order.id);
    for (let i = 0; i < NOT_FOUND_MIN_CHECKS && after?.status !== "failed"; i++) {
      after = await resolveOrder(h.deps, order.id);
    }
    expect(after?.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("an order left created (by a version that marked it sent in a second commit) is never sent by a retap, and the clean-up releases its hold", async () => {
    const { user, quote: q, order } = await h.storedNotSent("081234560902");
    await h.deps.db
      .update(orders)
      .set({ status: "created", submittedAt: null, requestTimestamp: null })
      .where(eq(orders.id, order.id));
    const again = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(again.ok && again.duplicate).toBe(true);
    h.clock.advance(61_000);
    expect((await resolveOrder(h.deps, order.id))?.status).toBe("failed");
    expect(h.sandbox.transactions().filter((t) => t.refId === order.refId)).toHaveLength(0);
    expect(await walletBalance(h.deps.db, user)).toBe(50_000);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("one 'not found' is not enough to refund an order whose outcome is unknown", async () => {
    const { user, price, order } = await unknownOrder("081234561111");
    expect(order.status).toBe("unknown");
    h.clock.advance(PAST_WINDOW_MS + 1_000);
    // the first answer after the grace period: still kept, and checked again
    expect((await resolveOrder(h.deps, order.id))?.status).toBe("unknown");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - price);
    // after NOT_FOUND_MIN_CHECKS answers the supplier still has no record: refunded
    for (let i = 1; i < NOT_FOUND_MIN_CHECKS; i++) {
      expect((await resolveOrder(h.deps, order.id))?.status).toBe("unknown");
    }
    expect((await resolveOrder(h.deps, order.id))?.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(50_000);
  });

  it("a supplier Success for an order kios refunded is flagged and told to every admin", async () => {
    const { order } = await unknownOrder("081234560901");
    h.clock.advance(PAST_WINDOW_MS + 1_000);
    for (let i = 0; i <= NOT_FOUND_MIN_CHECKS; i++) await resolveOrder(h.deps, order.id);
    const [refunded] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(refunded?.status).toBe("failed");

    // the supplier completes it after all, and says so in a callback
    const placed = await h.supplier.order({
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: "081234560901",
      refId: order.refId,
    });
    expect(placed.outcome === "accepted" && placed.transaction.status).toBe("success");
    const raw = JSON.stringify({
      event: "transaction.final",
      data: { ref_id: order.refId, status: "Success", price: 10_000, sn: "123" },
    });
    const { id } = await storeSupplierReport(h.deps.db, {
      rawBody: raw,
      refId: order.refId,
      reportedStatus: "success",
    });
    await processSupplierReport(h.deps, id);

    const [after] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    // nothing moves by itself (the order was settled once), but it is flagged...
    expect(after?.status).toBe("failed");
    expect(after?.flaggedAt).toBeTruthy();
    // ...and each admin is told, once
    const told = await h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `order:${order.id}:conflict:1`));
    expect(told).toHaveLength(1);
    expect(told[0]?.payload).toEqual({
      type: "order_conflict",
      orderId: order.id,
      supplierStatus: "success",
    });
    await processSupplierReport(h.deps, id);
    const again = await h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `order:${order.id}:conflict:1`));
    expect(again).toHaveLength(1);
  });
});
