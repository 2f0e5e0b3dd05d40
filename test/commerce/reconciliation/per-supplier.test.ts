import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import {
  checkSupplierBalance,
  latestBalanceCheck,
  ordersOfCheck,
} from "../../../src/commerce/reconciliation/balance-check.ts";
import { bookOf } from "../../../src/commerce/reconciliation/books.ts";
import { checkSuppliers } from "../../../src/commerce/reconciliation/every-supplier.ts";
import {
  confirmRiseAsTopup,
  recordSupplierTopup,
  reverseSupplierTopup,
} from "../../../src/commerce/reconciliation/topups.ts";
import { knownSupplierBalance } from "../../../src/commerce/supplier-balance/known-balance.ts";
import { SHOP_ACCOUNTS, walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { accounts, notifications, orderAttempts } from "../../../src/db/schema.ts";
import { SupplierError } from "../../../src/supplier/types.ts";
import { testDriver } from "../../helpers/db.ts";
import { payBurst } from "../../helpers/pay-burst.ts";
import {
  BOOTS_IN_EACH_TEST,
  bootTwoSuppliers,
  type TwoSuppliers,
} from "../../helpers/two-suppliers.ts";

// each supplier's books are its own (docs/reconciliation.md#several-suppliers): its readings,
// its top-ups, and what was charged AT IT, from the order attempts. An order re-routed from
// the main to the backup was never charged at the main (its attempt was rejected).

describe(`books per supplier (${testDriver})`, BOOTS_IN_EACH_TEST, () => {
  let h: TwoSuppliers | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const MAIN = bookOf("main", "main");
  const BACKUP = bookOf("main", "backup");

  function check(book: typeof MAIN) {
    h!.clock.advance(10);
    return checkSupplierBalance({
      db: h!.deps.db,
      supplier: book.first ? h!.supplier : h!.backup,
      book,
      clock: h!.clock,
      adminIds: [1],
    });
  }

  async function buy(destination = "081234560901") {
    const user = await h!.newUser(100_000);
    const q = await h!.quote(user, destination, "TSEL10");
    return { user, result: await confirmQuote(h!.engine, { quoteId: q.id, userId: user }) };
  }

  const backupCost = () => h!.backupSandbox.catalogue().find((p) => p.code === "BTSEL10")!.price;
  const mainCost = () => h!.sandbox.catalogue().find((p) => p.code === "TSEL10")!.price;

  it("an order rejected at the main and sold at the backup: main's window sees nothing, backup's its cost", async () => {
    h = await bootTwoSuppliers();
    const mainBase = await check(MAIN);
    const backupBase = await check(BACKUP);
    expect([mainBase.supplier, backupBase.supplier]).toEqual([null, "backup"]);
    h.sandbox.setActive("TSEL10", false);
    const { result } = await buy();
    if (!result.ok) throw new Error(result.reason);
    expect(result.order.supplier).toBe("backup");
    const attempts = await h.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, result.order.id));
    expect(attempts.map((a) => [a.supplier, a.status])).toEqual([
      ["main", "rejected"],
      ["backup", "success"],
    ]);

    const main = await check(MAIN);
    expect(main).toMatchObject({
      supplier: null,
      previousId: mainBase.id,
      successCount: 0,
      successCost: 0,
      openCount: 0,
      actualChange: 0,
      expectedChange: 0,
      drift: 0,
      status: "ok",
    });
    expect(await ordersOfCheck(h.deps.db, main, "main")).toEqual([]);

    const backup = await check(BACKUP);
    expect(backup).toMatchObject({
      supplier: "backup",
      previousId: backupBase.id,
      successCount: 1,
      successCost: backupCost(),
      openCount: 0,
      actualChange: -backupCost(),
      expectedChange: -backupCost(),
      drift: 0,
      status: "ok",
    });
    expect(await ordersOfCheck(h.deps.db, backup, "main")).toEqual([
      { refId: result.order.refId, productCode: "TSEL10", cost: backupCost(), status: "success" },
    ]);
    // each chain is its own: the latest of each
    expect((await latestBalanceCheck(h.deps.db, MAIN))?.id).toBe(main.id);
    expect((await latestBalanceCheck(h.deps.db, BACKUP))?.id).toBe(backup.id);
  });

  it("every supplier is checked on its own chain; one that can't be read leaves the others'", async () => {
    h = await bootTwoSuppliers();
    const first = await checkSuppliers(h.engine);
    expect(first.map((r) => ("check" in r ? [r.book.name, r.check.status] : r.book.name))).toEqual([
      ["main", "baseline"],
      ["backup", "baseline"],
    ]);
    h.clock.advance(10);
    const down = new SupplierError("SERVER_ERROR", "backup down");
    const engine = {
      ...h.engine,
      suppliers: new Map([["backup", { ...h.backup, balance: () => Promise.reject(down) }]]),
    };
    const second = await checkSuppliers(engine);
    expect(second[0]).toMatchObject({ book: { name: "main" }, check: { status: "ok" } });
    expect(second[1]).toEqual({ book: { name: "backup", first: false }, error: down });
    // the backup's next check starts at its own last one, not at the main's
    h.clock.advance(10);
    const third = await checkSuppliers(h.engine);
    const backupFirst = first[1] && "check" in first[1] ? first[1].check.id : -1;
    expect(third[1]).toMatchObject({ check: { previousId: backupFirst, status: "ok" } });
  });

  it("a top-up is booked to its supplier: its account, its checks, its rise", async () => {
    h = await bootTwoSuppliers();
    await check(MAIN);
    await check(BACKUP);
    const now = () => new Date(h!.clock.now());
    const intoBackup = await recordSupplierTopup(h.deps.db, {
      key: "admin:1:1",
      amount: 50_000,
      now: now(),
      book: BACKUP,
    });
    if (!intoBackup.ok) throw new Error(intoBackup.reason);
    expect(intoBackup.topup.supplier).toBe("backup");
    h.backupSandbox.account().setBalance(h.backupSandbox.account().balance + 50_000);
    // the main's check does not count it, the backup's does
    expect((await check(MAIN)).topups).toBe(0);
    expect(await check(BACKUP)).toMatchObject({ topups: 50_000, drift: 0, status: "ok" });
    // the same amount at the main is another top-up, not "already booked"
    const intoMain = await recordSupplierTopup(h.deps.db, {
      key: "admin:1:2",
      amount: 50_000,
      now: now(),
    });
    expect(intoMain.ok && intoMain.topup.supplier).toBe(null);
    const balances = await h.deps.db
      .select({ key: accounts.key, balance: accounts.balance })
      .from(accounts)
      .where(sql`${accounts.key} like 'shop:supplier_prepaid%'`);
    expect(new Map(balances.map((b) => [b.key, b.balance]))).toEqual(
      new Map([
        [SHOP_ACCOUNTS.supplierPrepaid, 50_000],
        [`${SHOP_ACCOUNTS.supplierPrepaid}:backup`, 50_000],
      ]),
    );
    // a reversal goes back out of the backup's account
    const reversed = await reverseSupplierTopup(h.deps.db, {
      topupId: intoBackup.topup.id,
      now: now(),
      firstSupplier: "main",
    });
    expect(reversed.ok).toBe(true);
    const [backupPrepaid] = await h.deps.db
      .select({ balance: accounts.balance })
      .from(accounts)
      .where(eq(accounts.key, `${SHOP_ACCOUNTS.supplierPrepaid}:backup`));
    expect(backupPrepaid?.balance).toBe(0);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("an unexplained rise at the backup is explained by a top-up into the backup, and its button books it there", async () => {
    h = await bootTwoSuppliers();
    await check(MAIN);
    await check(BACKUP);
    h.backupSandbox.account().setBalance(h.backupSandbox.account().balance + 70_000);
    const rise = await check(BACKUP);
    expect(rise).toMatchObject({ status: "drift", drift: 70_000 });
    // a top-up of that amount at the main explains nothing at the backup
    const atMain = await recordSupplierTopup(h.deps.db, {
      key: "admin:1:3",
      amount: 70_000,
      now: new Date(h.clock.now()),
    });
    expect(atMain.ok && atMain.explainedCheckId).toBe(null);
    const button = await confirmRiseAsTopup(h.deps.db, {
      checkId: rise.id,
      recordedBy: 1,
      firstSupplier: "main",
    });
    expect(button.ok && [button.topup.supplier, button.explainedCheckId]).toEqual([
      "backup",
      rise.id,
    ]);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("the guard skips a route whose supplier can't cover the order, and refuses only when none can", async () => {
    h = await bootTwoSuppliers();
    // the main can't cover a TSEL10; the backup can
    h.sandbox.account().setBalance(mainCost() - 1);
    const mainReading = await check(MAIN);
    await check(BACKUP);
    const first = await buy();
    if (!first.result.ok) throw new Error(first.result.reason);
    expect(first.result.order.supplier).toBe("backup");
    // nothing was sent to the main: its route was skipped, not tried
    expect(h.sandbox.requests()).toHaveLength(0);
    const alerts = await h.deps.db
      .select()
      .from(notifications)
      .where(sql`${notifications.payload}->>'type' = 'supplier_low_balance'`);
    expect(alerts.map((a) => a.payload)).toEqual([
      {
        type: "supplier_low_balance",
        checkId: mainReading.id,
        known: mainCost() - 1,
        supplier: "main",
      },
    ]);
    // the backup's estimate counts the order it took
    const backupEstimate = await knownSupplierBalance(h.deps.db, {
      firstSupplier: "main",
      supplier: "backup",
    });
    expect(backupEstimate?.known).toBe(h.backupSandbox.account().balance);

    // now the backup runs short too: no route can take it, nothing is held
    h.backupSandbox.account().setBalance(backupCost() - 1);
    await check(BACKUP);
    const refused = await buy();
    expect(refused.result).toEqual({ ok: false, reason: "supplier_unavailable" });
    expect(await walletBalance(h.deps.db, refused.user)).toBe(100_000);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("concurrent Pays against the backup's estimate send only what it covers", async () => {
    h = await bootTwoSuppliers();
    // one purchase first: the shop's shared accounts exist, as in any shop that sold once
    expect((await buy()).result.ok).toBe(true);
    h.sandbox.account().setBalance(0);
    await check(MAIN);
    // the backup covers two TSEL10 orders and a half
    h.backupSandbox.account().setBalance(2 * backupCost() + Math.floor(backupCost() / 2));
    await check(BACKUP);
    const buyers = await Promise.all(Array.from({ length: 5 }, () => h!.newUser(100_000)));
    const quotes = await Promise.all(buyers.map((u) => h!.quote(u, "081234560901", "TSEL10")));
    const before = h.backupSandbox.requests().length;
    const results = await payBurst(
      h!.deps.db,
      buyers.map((u, i) => () => confirmQuote(h!.engine, { quoteId: quotes[i]!.id, userId: u })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok && r.reason === "supplier_unavailable")).toHaveLength(3);
    for (const r of results) if (r.ok) expect(r.order.supplier).toBe("backup");
    expect(h.backupSandbox.requests().slice(before)).toHaveLength(2);
    expect(h.sandbox.requests()).toHaveLength(1);
    expect(h.backupSandbox.account().balance).toBeGreaterThanOrEqual(0);
    for (const [i, r] of results.entries()) {
      if (!r.ok) expect(await walletBalance(h.deps.db, buyers[i]!)).toBe(100_000);
    }
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });
});
