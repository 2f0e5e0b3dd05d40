import { NO_FAULTS } from "@kios/supplier-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import {
  type BalanceCheck,
  checkSupplierBalance,
  settleOpenOrders,
} from "../../../src/commerce/reconciliation/balance-check.ts";
import {
  confirmRiseAsTopup,
  recordSupplierTopup,
} from "../../../src/commerce/reconciliation/topups.ts";
import type { Supplier } from "../../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// a balance reading is taken somewhere between the request and the answer. Orders sent,
// refunded or settled meanwhile may be on either side of it: they make the reading
// uncertain, not a rise or a loss. Here the supplier's answer is held while orders flow.

/** a supplier whose balance answer is held after the supplier has read its balance */
function slowBalance(supplier: Supplier, beforeReading?: () => Promise<void>) {
  let read!: () => void;
  let answer!: () => void;
  const state = {
    /** resolves once the supplier has read its balance (its answer not yet delivered) */
    read: new Promise<void>((r) => {
      read = r;
    }),
    /** delivers the answer */
    release: () => answer(),
    supplier: {
      ...supplier,
      async balance() {
        await beforeReading?.();
        const reading = await supplier.balance();
        const held = new Promise<void>((r) => {
          answer = r;
        });
        read();
        await held;
        return reading;
      },
    } satisfies Supplier,
  };
  return state;
}

describe(`orders in flight at a balance reading (${testDriver})`, () => {
  let h: CommerceHarness;

  beforeAll(async () => {
    // pending at the supplier until the test settles it
    h = await bootCommerce({ sandbox: { settleDelayMs: 3_600_000 } });
    h.deps.productPause = { failures: 100, of: 100, minutes: 1 };
  });
  afterAll(() => h.stop());
  beforeEach(() => {
    h.sandbox.faults = { ...NO_FAULTS };
  });

  const checkWith = async (supplier: Pick<Supplier, "balance">) => {
    h.clock.advance(10);
    const c = await checkSupplierBalance({
      db: h.deps.db,
      supplier,
      clock: h.clock,
      adminIds: [1],
      settleOpen: () => settleOpenOrders(h.deps),
    });
    h.clock.advance(10);
    return c;
  };
  const check = () => checkWith(h.supplier);

  async function buy(destination: string) {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, destination);
    const result = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(`refused: ${result.reason}`);
    return result.order;
  }

  /** a check whose answer is held while `meanwhile` runs */
  async function slowCheck(meanwhile: () => Promise<void>, beforeReading?: () => Promise<void>) {
    const slow = slowBalance(h.supplier, beforeReading);
    const checking = checkWith(slow.supplier);
    await slow.read;
    h.clock.advance(10);
    await meanwhile();
    h.clock.advance(10);
    slow.release();
    return checking;
  }

  const noRise = (c: BalanceCheck) => {
    expect(c.status).toBe("ok");
    // nothing to offer as a top-up
    expect(c.status === "drift" && (c.drift ?? 0) > 0).toBe(false);
  };

  it("a first check read while an order travelled: the check after it finds no fall", async () => {
    const baseline = await slowCheck(async () => {
      expect((await buy("081234567901")).status).toBe("success");
    });
    expect(baseline.status).toBe("baseline");
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
  });

  it("an order sent while the balance request travels is no rise, and no fall at the next check", async () => {
    await check();
    let sent = 0;
    const found = await slowCheck(async () => {
      const order = await buy("081234567901");
      expect(order.status).toBe("success");
      sent = order.cost;
    });
    noRise(found);
    expect(found.drift).toBe(sent);
    expect(found.inFlightRise).toBeGreaterThanOrEqual(sent);
    expect(await confirmRiseAsTopup(h.deps.db, { checkId: found.id })).toEqual({
      ok: false,
      reason: "not_a_rise",
    });
    const next = await check();
    expect(next).toMatchObject({ status: "ok", drift: 0 });
  });

  it("an order failed and refunded while the request travels is no loss, and no rise after", async () => {
    await check();
    const order = await buy("081234567904");
    expect(order.status).toBe("pending");
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
    const found = await slowCheck(async () => {
      // the supplier read its balance with the charge; the refund comes after the reading
      await h.sandbox.settleNow();
      await resolveOrder(h.deps, order.id);
    });
    expect(found).toMatchObject({ status: "ok", drift: -order.cost });
    expect(found.inFlightFall).toBeGreaterThanOrEqual(order.cost);
    const next = await check();
    expect(next).toMatchObject({ status: "ok", drift: 0 });
  });

  it("an open order the supplier refunded just before the reading, heard of after: no rise, no fall", async () => {
    await check();
    const order = await buy("081234567904");
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
    // after kios asked about its open orders, before the balance is read: failed and refunded
    const found = await slowCheck(
      async () => {},
      () => h.sandbox.settleNow(),
    );
    noRise(found);
    expect(found.drift).toBe(order.cost);
    await resolveOrder(h.deps, order.id);
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
  });

  it("a rise beyond what is in flight is drift; its amount is typed, not tapped, and explains it", async () => {
    await check();
    const order = await buy("081234567903");
    const topup = 500_000;
    // the owner's money arrives, unrecorded, while the order is still open
    const found = await slowCheck(
      async () => {},
      async () => {
        h.sandbox.account().setBalance(h.sandbox.account().balance + topup);
      },
    );
    expect(found).toMatchObject({ status: "drift", drift: topup });
    expect(found.inFlightRise).toBeGreaterThanOrEqual(order.cost);
    // the open order makes the exact amount uncertain: no button
    expect(await confirmRiseAsTopup(h.deps.db, { checkId: found.id })).toEqual({
      ok: false,
      reason: "not_a_rise",
    });
    const typed = await recordSupplierTopup(h.deps.db, {
      key: "admin:1:5001",
      amount: topup,
      recordedBy: 1,
      now: new Date(h.clock.now()),
    });
    expect(typed).toMatchObject({ ok: true, explainedCheckId: found.id });
    await h.sandbox.settleNow();
    await resolveOrder(h.deps, order.id);
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
  });
});
