import { NO_FAULTS } from "@kios/supplier-sandbox";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import {
  type BalanceCheckDeps,
  checkSupplierBalance,
  ordersOfCheck,
  settleOpenOrders,
} from "../../../src/commerce/reconciliation/balance-check.ts";
import {
  confirmRiseAsTopup,
  recordSupplierTopup,
} from "../../../src/commerce/reconciliation/topups.ts";
import { knownSupplierBalance } from "../../../src/commerce/supplier-balance/known-balance.ts";
import {
  accountBalance,
  SHOP_ACCOUNTS,
  walletBalance,
} from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders, supplierTopups } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// the supplier balance against kios's records, end to end against the sandbox: its balance
// moves only as the sandbox's own books say (charged on arrival, refunded on failure).

describe(`supplier balance reconciliation (${testDriver})`, () => {
  let h: CommerceHarness;
  let check: () => ReturnType<typeof checkSupplierBalance>;
  let sandboxBalance: () => number;

  beforeAll(async () => {
    // pending at the supplier until the test settles it
    h = await bootCommerce({ sandbox: { settleDelayMs: 3_600_000 } });
    // these tests fail orders on purpose: the product must not be paused for it
    h.deps.productPause = { failures: 100, of: 100, minutes: 1 };
    const deps: BalanceCheckDeps = {
      db: h.deps.db,
      supplier: h.supplier,
      clock: h.clock,
      adminIds: [1],
      settleOpen: () => settleOpenOrders(h.deps),
    };
    check = async () => {
      h.clock.advance(10);
      const c = await checkSupplierBalance(deps);
      h.clock.advance(10);
      return c;
    };
    sandboxBalance = () => h.sandbox.account().balance;
  });
  afterAll(() => h.stop());
  beforeEach(() => {
    h.sandbox.faults = { ...NO_FAULTS };
  });

  async function buy(destination: string) {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, destination);
    const result = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(`refused: ${result.reason}`);
    return { user, order: result.order, quote: q };
  }

  const alerts = (kind: string) =>
    h.deps.db
      .select()
      .from(notifications)
      .where(like(notifications.key, `recon:%:${kind}:%`));

  it("the first check is a baseline; successful orders then explain the balance's fall", async () => {
    const first = await check();
    expect(first.status).toBe("baseline");
    expect(first.balance).toBe(sandboxBalance());
    const { order } = await buy("081234567901");
    expect(order.status).toBe("success");
    const second = await check();
    expect(second).toMatchObject({
      status: "ok",
      drift: 0,
      successCount: 1,
      successCost: order.cost,
      actualChange: -order.cost,
      expectedChange: -order.cost,
      previousId: first.id,
    });
  });

  it("open orders count as charged, not as drift, whether they then succeed or fail", async () => {
    await check();
    const stays = await buy("081234567903");
    const fails = await buy("081234567904");
    expect([stays.order.status, fails.order.status]).toEqual(["pending", "pending"]);
    const whileOpen = await check();
    expect(whileOpen).toMatchObject({ status: "ok", drift: 0, openCount: 2 });
    expect(whileOpen.openCost).toBe(stays.order.cost + fails.order.cost);
    await h.sandbox.settleNow();
    await resolveOrder(h.deps, stays.order.id);
    await resolveOrder(h.deps, fails.order.id);
    const settled = await check();
    expect(settled).toMatchObject({ status: "ok", drift: 0, openCount: 0, successCount: 1 });
  });

  it("an order the supplier refunded before kios heard is asked about first, not taken for drift", async () => {
    await check();
    const { order } = await buy("081234567904");
    // failed and refunded at the supplier; kios still has it pending
    await h.sandbox.settleNow();
    const found = await check();
    expect(found).toMatchObject({ status: "ok", drift: 0, openCount: 0 });
    const [now] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(now?.status).toBe("failed");
  });

  it("a charge the supplier keeps on a failed order is drift, alerted with its orders", async () => {
    await check();
    h.sandbox.faults = { ...NO_FAULTS, keepFailedCharges: true };
    const { order } = await buy("081234567902");
    expect(order.status).toBe("failed");
    const found = await check();
    expect(found.status).toBe("drift");
    expect(found.drift).toBe(-order.cost);
    const alerted = (await alerts("drift")).filter((n) => n.key === `recon:${found.id}:drift:1`);
    expect(alerted).toHaveLength(1);
    // the next hour starts from here: the same loss is not reported twice
    expect((await check()).status).toBe("ok");
  });

  it("a rise nothing explains asks to be confirmed as a top-up, and is booked once", async () => {
    await check();
    h.sandbox.account().setBalance(sandboxBalance() + 250_000);
    const rise = await check();
    expect(rise).toMatchObject({ status: "drift", drift: 250_000 });
    const prepaidBefore = await accountBalance(h.deps.db, SHOP_ACCOUNTS.supplierPrepaid);
    const confirmed = await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: 1 });
    expect(confirmed).toMatchObject({ ok: true, explainedCheckId: rise.id });
    expect(await confirmRiseAsTopup(h.deps.db, { checkId: rise.id })).toMatchObject({
      ok: false,
      reason: "already_booked",
      topup: { recordedBy: 1, amount: 250_000 },
    });
    expect(await accountBalance(h.deps.db, SHOP_ACCOUNTS.supplierPrepaid)).toBe(
      prepaidBefore + 250_000,
    );
    // dated to its check: the next window does not expect it again
    expect((await check()).status).toBe("ok");
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("a top-up recorded before the money shows is expected; the same command records once", async () => {
    await check();
    const now = new Date(h.clock.now());
    const command = { key: "admin:1:777", amount: 1_000_000, note: "BCA", recordedBy: 1, now };
    await recordSupplierTopup(h.deps.db, command);
    await recordSupplierTopup(h.deps.db, command);
    const rows = await h.deps.db
      .select()
      .from(supplierTopups)
      .where(eq(supplierTopups.key, "admin:1:777"));
    expect(rows).toHaveLength(1);
    h.sandbox.account().setBalance(sandboxBalance() + 1_000_000);
    expect(await check()).toMatchObject({ status: "ok", topups: 1_000_000, drift: 0 });
  });

  it("a top-up recorded after a check found exactly that rise explains the check", async () => {
    await check();
    h.sandbox.account().setBalance(sandboxBalance() + 300_000);
    const rise = await check();
    expect(rise.status).toBe("drift");
    const recorded = await recordSupplierTopup(h.deps.db, {
      key: "admin:1:778",
      amount: 300_000,
      now: new Date(h.clock.now()),
    });
    expect(recorded).toMatchObject({ ok: true, explainedCheckId: rise.id });
    expect((await check()).status).toBe("ok");
  });

  it("a price the shop missed: the supplier's charge is booked and flagged, the books agree", async () => {
    await check();
    const before = h.sandbox.catalogue().find((p) => p.code === "TSEL10")!.price;
    h.sandbox.setPrice("TSEL10", before + 700);
    try {
      const { order } = await buy("081234567901");
      expect(order).toMatchObject({ status: "success", supplierPrice: before + 700 });
      const overcharged = await h.deps.db
        .select()
        .from(notifications)
        .where(eq(notifications.key, `order:${order.id}:overcharge:1`));
      expect(overcharged).toHaveLength(1);
      expect(await check()).toMatchObject({ status: "ok", successCost: before + 700 });
    } finally {
      h.sandbox.setPrice("TSEL10", before);
    }
  });

  it("lists the orders of a drifting window for the alert", async () => {
    await check();
    h.sandbox.faults = { ...NO_FAULTS, keepFailedCharges: true };
    const { order } = await buy("081234567902");
    const open = await buy("081234567903");
    const found = await check();
    const listed = await ordersOfCheck(h.deps.db, found);
    expect(listed.map((o) => o.refId)).toContain(open.order.refId);
    expect(listed.map((o) => o.refId)).not.toContain(order.refId);
    await h.sandbox.settleNow();
    await resolveOrder(h.deps, open.order.id);
  });
});

describe(`supplier balance guard (${testDriver})`, () => {
  let h: CommerceHarness;
  const tsel10Cost = () => h.sandbox.catalogue().find((p) => p.code === "TSEL10")!.price;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  it("without a reading there is no estimate and nothing is refused", async () => {
    expect(await knownSupplierBalance(h.deps.db)).toBeUndefined();
  });

  it("an order the known balance can't cover is not sent, nothing is held, admins are told", async () => {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234567901");
    const cost = tsel10Cost();
    h.sandbox.account().setBalance(cost - 1);
    const reading = await checkSupplierBalance({
      db: h.deps.db,
      supplier: h.supplier,
      clock: h.clock,
    });
    h.clock.advance(10);
    const result = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(result).toEqual({ ok: false, reason: "supplier_unavailable" });
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, user))).toEqual([]);
    expect(h.sandbox.requests()).toHaveLength(0);
    const low = await h.deps.db
      .select()
      .from(notifications)
      .where(eq(notifications.key, `recon:${reading.id}:low:1`));
    expect(low).toHaveLength(1);

    // the owner tops up and records it: the same card now goes through
    h.sandbox.account().setBalance(1_000_000);
    await recordSupplierTopup(h.deps.db, {
      key: "admin:1:900",
      amount: 1_000_000,
      now: new Date(h.clock.now()),
    });
    h.clock.advance(10);
    const again = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(again.ok).toBe(true);
  });

  it("counts what was sent since the reading", async () => {
    h.clock.advance(10);
    const reading = await checkSupplierBalance({
      db: h.deps.db,
      supplier: h.supplier,
      clock: h.clock,
    });
    h.clock.advance(10);
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234567903");
    const placed = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
    expect(placed.ok).toBe(true);
    expect(await knownSupplierBalance(h.deps.db)).toEqual({
      supplier: "main",
      checkId: reading.id,
      known: reading.balance - tsel10Cost(),
    });
  });

  it("alerts below the configured threshold before any order finds the balance short", async () => {
    h.clock.advance(10);
    const reading = await checkSupplierBalance({
      db: h.deps.db,
      supplier: h.supplier,
      clock: h.clock,
      lowBalance: 10_000_000,
      adminIds: [1, 2],
    });
    const low = await h.deps.db
      .select()
      .from(notifications)
      .where(and(like(notifications.key, `recon:${reading.id}:low:%`)));
    expect(low.map((n) => n.chatId).sort()).toEqual([1, 2]);
  });
});
