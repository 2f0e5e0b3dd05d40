import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountBalance,
  captureOrder,
  creditWallet,
  debitWallet,
  holdForOrder,
  InsufficientFundsError,
  LedgerError,
  releaseOrder,
  SHOP_ACCOUNTS,
  transfer,
  walletBalance,
} from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import type { Executor } from "../../../src/db/client.ts";
import { dbErrorText } from "../../../src/db/errors.ts";
import { accounts, entries } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

describe(`wallet ledger (${testDriver})`, () => {
  let t: TestDatabase;
  let nextUser = 1000;
  const newUser = () => nextUser++;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it("credits and debits a wallet with balanced transfers", async () => {
    const db = t.handle.db;
    const u = newUser();
    await creditWallet(db, { userId: u, amount: 50_000, key: `t1:${u}`, memo: "cash" });
    await debitWallet(db, { userId: u, amount: 20_000, key: `t2:${u}` });
    expect(await walletBalance(db, u)).toBe(30_000);
    expect((await verifyLedger(t.handle)).problems).toEqual([]);
  });

  it("applies a business key once: a retry moves nothing", async () => {
    const db = t.handle.db;
    const u = newUser();
    const first = await creditWallet(db, { userId: u, amount: 10_000, key: `dup:${u}` });
    const again = await creditWallet(db, { userId: u, amount: 10_000, key: `dup:${u}` });
    expect(first.applied).toBe(true);
    expect(again).toMatchObject({ applied: false, transferId: first.transferId });
    expect(await walletBalance(db, u)).toBe(10_000);
  });

  it("never lets a wallet go negative, and a refused transfer leaves no trace", async () => {
    const db = t.handle.db;
    const u = newUser();
    await creditWallet(db, { userId: u, amount: 5_000, key: `c:${u}` });
    await expect(debitWallet(db, { userId: u, amount: 5_001, key: `d:${u}` })).rejects.toThrow(
      InsufficientFundsError,
    );
    expect(await walletBalance(db, u)).toBe(5_000);
    // the key is free again: the refused attempt wrote nothing
    await debitWallet(db, { userId: u, amount: 5_000, key: `d:${u}` });
    expect(await walletBalance(db, u)).toBe(0);
  });

  it("the CHECK constraint stops a direct write that would make a wallet negative", async () => {
    const db = t.handle.db;
    const u = newUser();
    await creditWallet(db, { userId: u, amount: 100, key: `k:${u}` });
    const err = await db
      .update(accounts)
      .set({ balance: -1 })
      .where(eq(accounts.key, `user:${u}`))
      .catch((e: unknown) => e);
    expect(dbErrorText(err)).toMatch(/accounts_not_negative/);
  });

  it("refuses unbalanced, empty and fractional transfers", async () => {
    const db = t.handle.db;
    await expect(
      transfer(db, {
        key: "bad1",
        kind: "credit",
        legs: [
          { account: SHOP_ACCOUNTS.deposits, amount: -100 },
          { account: "user:1", amount: 99 },
        ],
      }),
    ).rejects.toThrow(/does not balance/);
    await expect(creditWallet(db, { userId: 1, amount: 0, key: "bad2" })).rejects.toThrow(
      LedgerError,
    );
    await expect(creditWallet(db, { userId: 1, amount: 10.5, key: "bad3" })).rejects.toThrow(
      LedgerError,
    );
    await expect(
      transfer(db, {
        key: "bad4",
        kind: "credit",
        legs: [
          { account: "shop:nowhere", amount: -1 },
          { account: "user:1", amount: 1 },
        ],
      }),
    ).rejects.toThrow(/unknown account/);
  });

  it("entries and transfers are append-only", async () => {
    const u = newUser();
    await creditWallet(t.handle.db, { userId: u, amount: 700, key: `ao:${u}` });
    const refusals = [
      await t.handle.db
        .update(entries)
        .set({ amount: 1 })
        .catch((e: unknown) => e),
      await t.handle.db.delete(entries).catch((e: unknown) => e),
    ];
    for (const err of refusals) expect(dbErrorText(err)).toMatch(/append-only/);
    await expect(t.handle.executeSql("delete from transfers")).rejects.toThrow(/append-only/);
    await expect(t.handle.executeSql("truncate entries cascade")).rejects.toThrow(/append-only/);
  });

  it("holds, then captures into supplier cost and margin", async () => {
    const db = t.handle.db;
    const u = newUser();
    const orderId = 900_001;
    await creditWallet(db, { userId: u, amount: 20_000, key: `c:${u}` });
    const revenueBefore = await accountBalance(db, SHOP_ACCOUNTS.revenue);
    const costBefore = await accountBalance(db, SHOP_ACCOUNTS.supplierCost);
    await holdForOrder(db, { orderId, userId: u, amount: 5_500 });
    expect(await walletBalance(db, u)).toBe(14_500);
    await captureOrder(db, { orderId, price: 5_500, cost: 5_150 });
    expect(await accountBalance(db, SHOP_ACCOUNTS.revenue)).toBe(revenueBefore + 350);
    expect(await accountBalance(db, SHOP_ACCOUNTS.supplierCost)).toBe(costBefore + 5_150);
    // capture again: nothing moves; release after capture: refused loudly
    expect((await captureOrder(db, { orderId, price: 5_500, cost: 5_150 })).applied).toBe(false);
    await expect(releaseOrder(db, { orderId, userId: u, amount: 5_500 })).rejects.toThrow(
      /already settled by capture/,
    );
    expect(await walletBalance(db, u)).toBe(14_500);
  });

  it("holds, then releases back to the wallet; capture after release is refused", async () => {
    const db = t.handle.db;
    const u = newUser();
    const orderId = 900_002;
    await creditWallet(db, { userId: u, amount: 8_000, key: `c:${u}` });
    await holdForOrder(db, { orderId, userId: u, amount: 8_000 });
    await expect(holdForOrder(db, { orderId: 900_003, userId: u, amount: 1 })).rejects.toThrow(
      InsufficientFundsError,
    );
    await releaseOrder(db, { orderId, userId: u, amount: 8_000 });
    expect(await walletBalance(db, u)).toBe(8_000);
    await expect(captureOrder(db, { orderId, price: 8_000, cost: 7_000 })).rejects.toThrow(
      /already settled by release/,
    );
  });

  it("cannot settle what was never held, or settle a different amount", async () => {
    const db = t.handle.db;
    await expect(captureOrder(db, { orderId: 999_999, price: 100, cost: 90 })).rejects.toThrow(
      /settles order:999999:hold, which does not exist/,
    );
    const u = newUser();
    await creditWallet(db, { userId: u, amount: 1_000, key: `c:${u}` });
    await holdForOrder(db, { orderId: 900_010, userId: u, amount: 1_000 });
    await expect(releaseOrder(db, { orderId: 900_010, userId: u, amount: 2_000 })).rejects.toThrow(
      /holds 1000, not 2000/,
    );
  });

  it("a failure after a transfer inside the caller's transaction undoes the transfer too", async () => {
    const db = t.handle.db;
    const u = newUser();
    await expect(
      db.transaction(async (tx) => {
        await creditWallet(tx, { userId: u, amount: 3_000, key: `rb:${u}` });
        throw new Error("crash after the transfer");
      }),
    ).rejects.toThrow("crash after the transfer");
    expect(await walletBalance(db, u)).toBe(0);
    const { rows } = await t.handle.executeSql(
      "select count(*)::int as n from transfers where key = $1",
      [`rb:${u}`],
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("a refused transfer writes nothing, says what the account held, and the caller's transaction goes on", async () => {
    const db = t.handle.db;
    const u = newUser();
    const other = newUser();
    await creditWallet(db, { userId: u, amount: 2_500, key: `c:${u}` });
    const entriesBefore = await t.handle.executeSql("select count(*)::int as n from entries");
    const refusal = await db.transaction(async (tx) => {
      const refused = await holdForOrder(tx, { orderId: 900_100, userId: u, amount: 4_000 }).then(
        () => undefined,
        (err: unknown) => err,
      );
      // the same transaction commits its other work: no savepoint was needed
      await creditWallet(tx, { userId: other, amount: 700, key: `c:${other}` });
      return refused;
    });
    expect(refusal).toBeInstanceOf(InsufficientFundsError);
    expect(refusal).toMatchObject({ account: `user:${u}`, needed: 4_000, balance: 2_500 });
    const { rows } = await t.handle.executeSql(
      "select count(*)::int as n from transfers where key = 'order:900100:hold'",
    );
    expect(rows[0]?.n).toBe(0);
    const entriesAfter = await t.handle.executeSql("select count(*)::int as n from entries");
    // the other credit's two legs, nothing of the refused hold
    expect(Number(entriesAfter.rows[0]?.n)).toBe(Number(entriesBefore.rows[0]?.n) + 2);
    expect(await walletBalance(db, u)).toBe(2_500);
    expect(await walletBalance(db, other)).toBe(700);
  });

  it("concurrent holds on one wallet never overdraw it", async () => {
    const db = t.handle.db;
    const u = newUser();
    await creditWallet(db, { userId: u, amount: 10_000, key: `c:${u}` });
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        holdForOrder(db, { orderId: 800_000 + i, userId: u, amount: 3_000 }),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter(
      (r) => r.status === "rejected" && r.reason instanceof InsufficientFundsError,
    );
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(9);
    expect(await walletBalance(db, u)).toBe(1_000);
  });

  /**
   * runs `first` in a transaction left open (as a Pay or a settlement is until its commit),
   * then `second` in another, which is refused if it has to wait on the first's locks
   * (lock_timeout) so the test cannot hang; then lets the first commit
   */
  async function whileOpen<T>(
    first: (tx: Executor) => Promise<unknown>,
    second: (tx: Executor) => Promise<T>,
  ): Promise<T> {
    const db = t.handle.db;
    let commitFirst!: () => void;
    let firstDone!: () => void;
    const firstWorked = new Promise<void>((r) => {
      firstDone = r;
    });
    const open = db.transaction(async (tx) => {
      await first(tx);
      firstDone();
      await new Promise<void>((r) => {
        commitFirst = r;
      });
    });
    await firstWorked;
    try {
      return await db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`);
        return second(tx);
      });
    } finally {
      commitFirst();
      await open;
    }
  }

  // two connections at once: only a server has them (PGlite runs one transaction at a time)
  if (testDriver === "postgres") {
    it("a buyer's hold does not wait for another buyer's Pay to commit: shop:holds is no hot row", async () => {
      const db = t.handle.db;
      const [a, b] = [newUser(), newUser()];
      await creditWallet(db, { userId: a, amount: 5_000, key: `c:${a}` });
      await creditWallet(db, { userId: b, amount: 5_000, key: `c:${b}` });
      // the shop's accounts exist, as in any shop that has sold once
      await holdForOrder(db, { orderId: 610_000, userId: a, amount: 1_000 });
      await releaseOrder(db, { orderId: 610_000, userId: a, amount: 1_000 });
      // a's Pay holds its money and stays open; b's hold, meanwhile, would wait on a's lock
      // of a shared row
      const held = await whileOpen(
        (tx) => holdForOrder(tx, { orderId: 610_001, userId: a, amount: 3_000 }),
        (tx) => holdForOrder(tx, { orderId: 610_002, userId: b, amount: 3_000 }),
      );
      expect(held.applied).toBe(true);
      expect(await accountBalance(db, SHOP_ACCOUNTS.holds)).toBeGreaterThanOrEqual(6_000);
      expect((await verifyLedger(t.handle)).problems).toEqual([]);
    });
  }

  if (testDriver === "postgres") {
    it("one order's capture does not wait for another's settlement to commit: supplier cost and revenue are no hot rows", async () => {
      const db = t.handle.db;
      const [a, b] = [newUser(), newUser()];
      await creditWallet(db, { userId: a, amount: 5_000, key: `c:${a}` });
      await creditWallet(db, { userId: b, amount: 5_000, key: `c:${b}` });
      await holdForOrder(db, { orderId: 620_001, userId: a, amount: 3_000 });
      await holdForOrder(db, { orderId: 620_002, userId: b, amount: 3_000 });
      // the shop's accounts exist, as in any shop that has sold once
      await holdForOrder(db, { orderId: 620_000, userId: a, amount: 1_000 });
      await captureOrder(db, { orderId: 620_000, price: 1_000, cost: 900 });
      // a's settlement captures and stays open; b's capture credits the same shop accounts
      const captured = await whileOpen(
        (tx) => captureOrder(tx, { orderId: 620_001, price: 3_000, cost: 2_800 }),
        (tx) => captureOrder(tx, { orderId: 620_002, price: 3_000, cost: 2_800 }),
      );
      expect(captured.applied).toBe(true);
      expect(await accountBalance(db, SHOP_ACCOUNTS.supplierCost)).toBeGreaterThanOrEqual(6_500);
      expect(await accountBalance(db, SHOP_ACCOUNTS.revenue)).toBeGreaterThanOrEqual(500);
      expect((await verifyLedger(t.handle)).problems).toEqual([]);
    });
  }

  it("concurrent capture and release of one order settle it exactly once", async () => {
    const db = t.handle.db;
    const u = newUser();
    const orderId = 700_001;
    await creditWallet(db, { userId: u, amount: 4_000, key: `c:${u}` });
    await holdForOrder(db, { orderId, userId: u, amount: 4_000 });
    const results = await Promise.allSettled([
      captureOrder(db, { orderId, price: 4_000, cost: 3_800 }),
      releaseOrder(db, { orderId, userId: u, amount: 4_000 }),
      captureOrder(db, { orderId, price: 4_000, cost: 3_800 }),
      releaseOrder(db, { orderId, userId: u, amount: 4_000 }),
    ]);
    const applied = results.filter((r) => r.status === "fulfilled" && r.value.applied);
    expect(applied).toHaveLength(1);
    const { rows } = await t.handle.executeSql(
      "select count(*)::int as n from transfers where key = $1",
      [`order:${orderId}:settle`],
    );
    expect(rows[0]?.n).toBe(1);
    expect((await verifyLedger(t.handle)).problems).toEqual([]);
  });

  it("verify names the account whose balance does not match its entries", async () => {
    const u = newUser();
    await creditWallet(t.handle.db, { userId: u, amount: 1_234, key: `v:${u}` });
    expect((await verifyLedger(t.handle)).ok).toBe(true);
    // simulate corruption behind the ledger's back
    await t.handle.db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + 1` })
      .where(eq(accounts.key, `user:${u}`));
    const report = await verifyLedger(t.handle);
    expect(report.ok).toBe(false);
    expect(report.problems).toContain(
      `account user:${u}: stored balance 1235, entries sum to 1234`,
    );
    await t.handle.db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} - 1` })
      .where(eq(accounts.key, `user:${u}`));
    expect((await verifyLedger(t.handle)).ok).toBe(true);
  });
});
