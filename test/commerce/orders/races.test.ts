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
import type { ConfirmResult } from "../../../src/commerce/orders/types.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import type { Database } from "../../../src/db/client.ts";
import { notifications, orders } from "../../../src/db/schema.ts";
import type { Supplier } from "../../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness, timingOutSupplier } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// races a review found: a refund decided from a stale read, and a supplier that completes
// an order kios had already refunded. Each must leave the money right, or say so loudly.

/** the database, with some of its methods replaced (to crash or to interleave) */
function proxyDb(db: Database, override: Record<string, unknown>): Database {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (typeof prop === "string" && prop in override) return override[prop];
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

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

  it("the abandoned-order clean-up never refunds an order another confirmation just sent", async () => {
    const user = await h.newUser(50_000);
    const q = await h.quote(user, "081234560901");
    // the first confirmation commits order and hold, then dies before created → submitted
    const crashing = proxyDb(h.deps.db, {
      update: () => {
        throw new Error("process died here");
      },
    });
    await expect(
      confirmQuote({ ...h.deps, db: crashing }, { quoteId: q.id, userId: user }),
    ).rejects.toThrow("process died here");
    const [created] = await h.deps.db.select().from(orders).where(eq(orders.confirmKey, q.id));
    expect(created?.status).toBe("created");
    h.clock.advance(61_000);

    // the clean-up read it as created; before it acts, a redelivered tap sends it
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let reached!: () => void;
    const supplierCalled = new Promise<void>((r) => {
      reached = r;
    });
    const slow: Supplier = {
      ...h.supplier,
      order: async (req) => {
        const out = await h.supplier.order(req);
        reached();
        await gate;
        return out;
      },
    };
    let retap: Promise<ConfirmResult> | undefined;
    const sweeperDb = proxyDb(h.deps.db, {
      transaction: async (fn: never) => {
        retap = confirmQuote({ ...h.deps, supplier: slow }, { quoteId: q.id, userId: user });
        await supplierCalled;
        return h.deps.db.transaction(fn);
      },
    });
    const swept = await resolveOrder({ ...h.deps, db: sweeperDb }, created!.id);
    expect(swept?.status).not.toBe("failed");
    release();
    const r = await retap!;
    expect(r.ok && r.order.status).toBe("success");
    expect(h.sandbox.transactions().filter((t) => t.refId === created!.refId)).toHaveLength(1);
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - q.price);
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
