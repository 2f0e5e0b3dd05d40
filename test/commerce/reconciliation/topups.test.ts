import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkSupplierBalance,
  settleOpenOrders,
} from "../../../src/commerce/reconciliation/balance-check.ts";
import {
  confirmRiseAsTopup,
  recordSupplierTopup,
  reverseSupplierTopup,
} from "../../../src/commerce/reconciliation/topups.ts";
import { knownSupplierBalance } from "../../../src/commerce/supplier-balance/known-balance.ts";
import { accountBalance, SHOP_ACCOUNTS } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { supplierTopups, transfers } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// a supplier top-up is booked once, whichever admin explains the rise first and by which
// path (the check's button or /supplier_topup), and a booking made in error is reversed by
// a second transfer that leaves both in the ledger.

const A = 1;
const B = 2;

describe(`supplier top-ups are booked once (${testDriver})`, () => {
  let h: CommerceHarness;
  let message = 100;

  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  const check = async () => {
    h.clock.advance(10);
    const c = await checkSupplierBalance({
      db: h.deps.db,
      supplier: h.supplier,
      clock: h.clock,
      adminIds: [A, B],
      settleOpen: () => settleOpenOrders(h.deps),
    });
    h.clock.advance(10);
    return c;
  };
  /** the owner moved money into the supplier account, and nobody recorded it yet */
  const riseOf = async (amount: number) => {
    await check();
    const account = h.sandbox.account();
    account.setBalance(account.balance + amount);
    const rise = await check();
    expect(rise).toMatchObject({ status: "drift", drift: amount });
    return rise;
  };
  const command = (admin: number, amount: number, another = false) =>
    recordSupplierTopup(h.deps.db, {
      key: `admin:${admin}:${message++}`,
      amount,
      recordedBy: admin,
      now: new Date(h.clock.now()),
      another,
    });
  const prepaid = () => accountBalance(h.deps.db, SHOP_ACCOUNTS.supplierPrepaid);
  const liveTopups = async () =>
    (await h.deps.db.select().from(supplierTopups)).filter((t) => t.reversedAt === null);

  it("a tap on the button, then /supplier_topup of the same amount: told who booked it, booked once", async () => {
    const rise = await riseOf(250_000);
    const before = await prepaid();
    const tapped = await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: A });
    expect(tapped).toMatchObject({ ok: true, explainedCheckId: rise.id });
    const typed = await command(B, 250_000);
    expect(typed).toMatchObject({
      ok: false,
      reason: "already_booked",
      topup: { amount: 250_000, recordedBy: A, checkId: rise.id },
    });
    expect(await prepaid()).toBe(before + 250_000);
    // the books agree with the supplier: the next check finds nothing to explain
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
  });

  it("/supplier_topup first, then a tap on the button: the tap is told who booked it", async () => {
    const rise = await riseOf(300_000);
    const before = await prepaid();
    const typed = await command(B, 300_000);
    expect(typed).toMatchObject({ ok: true, explainedCheckId: rise.id });
    const tapped = await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: A });
    expect(tapped).toMatchObject({
      ok: false,
      reason: "already_booked",
      topup: { amount: 300_000, recordedBy: B },
    });
    expect(await prepaid()).toBe(before + 300_000);
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
  });

  it("two admins at the same moment, by both paths: one booking, the other told", async () => {
    for (const round of [1, 2, 3]) {
      const amount = 100_000 * round + 7;
      const rise = await riseOf(amount);
      const before = await prepaid();
      const liveBefore = (await liveTopups()).length;
      const results = await Promise.all([
        confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: A }),
        command(B, amount),
        command(A, amount),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === "already_booked")).toHaveLength(2);
      expect(await prepaid()).toBe(before + amount);
      expect(await liveTopups()).toHaveLength(liveBefore + 1);
      expect(await check()).toMatchObject({ status: "ok", drift: 0 });
    }
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("a check ran between the rise and the booking: the command still explains that rise, once", async () => {
    const rise = await riseOf(210_000);
    // the next hour's check finds nothing new; the admin records the top-up after it
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
    const typed = await command(B, 210_000);
    expect(typed).toMatchObject({ ok: true, explainedCheckId: rise.id });
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
    // and the owner, tapping the old alert's button later, is told
    expect(await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: A })).toMatchObject({
      ok: false,
      reason: "already_booked",
      topup: { recordedBy: B },
    });
  });

  it("a tap on the rise's button, a check, then /supplier_topup: told, booked once", async () => {
    const rise = await riseOf(220_000);
    await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: A });
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
    const before = await prepaid();
    expect(await command(B, 220_000)).toMatchObject({
      ok: false,
      reason: "already_booked",
      topup: { recordedBy: A, checkId: rise.id },
    });
    expect(await prepaid()).toBe(before);
    expect(await check()).toMatchObject({ status: "ok", drift: 0 });
  });

  it("the same amount typed twice before a check asks first; 'another' books a second", async () => {
    await check();
    const before = await prepaid();
    const first = await command(A, 400_000);
    expect(first).toMatchObject({ ok: true, explainedCheckId: null });
    const second = await command(B, 400_000);
    expect(second).toMatchObject({
      ok: false,
      reason: "already_booked",
      topup: { recordedBy: A, amount: 400_000 },
    });
    expect(await prepaid()).toBe(before + 400_000);
    // B means it: a second top-up of the same amount
    const another = await command(B, 400_000, true);
    expect(another).toMatchObject({ ok: true, explainedCheckId: null });
    expect(await prepaid()).toBe(before + 800_000);
    const account = h.sandbox.account();
    account.setBalance(account.balance + 800_000);
    expect(await check()).toMatchObject({ status: "ok", drift: 0, topups: 800_000 });
  });

  it("a booking made in error is reversed once, both transfers kept", async () => {
    await check();
    const before = await prepaid();
    const booked = await command(A, 150_000);
    if (!booked.ok) throw new Error(booked.reason);
    expect(await prepaid()).toBe(before + 150_000);
    const known = await knownSupplierBalance(h.deps.db);

    const reversal = {
      topupId: booked.topup.id,
      reversedBy: B,
      note: "typed twice",
      now: new Date(h.clock.now()),
    };
    const reversed = await reverseSupplierTopup(h.deps.db, reversal);
    expect(reversed).toMatchObject({ ok: true, topup: { id: booked.topup.id, reversedBy: B } });
    const again = await reverseSupplierTopup(h.deps.db, { ...reversal, reversedBy: A });
    expect(again).toMatchObject({
      ok: false,
      reason: "already_reversed",
      topup: { reversedBy: B },
    });
    expect(await reverseSupplierTopup(h.deps.db, { ...reversal, topupId: 999_999 })).toEqual({
      ok: false,
      reason: "not_found",
    });

    expect(await prepaid()).toBe(before);
    const kept = await h.deps.db
      .select()
      .from(transfers)
      .where(like(transfers.key, `supplier_topup:${booked.topup.id}%`));
    expect(kept).toHaveLength(2);
    // the estimate and the next check no longer count it
    expect((await knownSupplierBalance(h.deps.db))?.known).toBe((known?.known ?? 0) - 150_000);
    expect(await check()).toMatchObject({ status: "ok", drift: 0, topups: 0 });
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("reversing the top-up that explained a rise leaves the rise unexplained again", async () => {
    const rise = await riseOf(123_000);
    const tapped = await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: A });
    if (!tapped.ok) throw new Error(tapped.reason);
    await reverseSupplierTopup(h.deps.db, {
      topupId: tapped.topup.id,
      reversedBy: A,
      now: new Date(h.clock.now()),
    });
    const [row] = await h.deps.db
      .select()
      .from(supplierTopups)
      .where(eq(supplierTopups.id, tapped.topup.id));
    expect(row?.reversedAt).not.toBeNull();
    // it can be explained again (say, by the right admin), and is then booked once more
    const again = await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: B });
    expect(again).toMatchObject({ ok: true, explainedCheckId: rise.id });
    expect(await confirmRiseAsTopup(h.deps.db, { checkId: rise.id, recordedBy: A })).toMatchObject({
      ok: false,
      reason: "already_booked",
      topup: { recordedBy: B },
    });
  });
});
