import { ManualClock } from "@kios/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putSetting } from "../../../src/commerce/settings.ts";
import { upsertUser } from "../../../src/commerce/users.ts";
import {
  confirmDeposit,
  DEPOSIT_SETTINGS,
  DepositError,
  expireDeposits,
  rejectDeposit,
  requestDeposit,
} from "../../../src/commerce/wallet/deposits.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

describe(`deposit requests (${testDriver})`, () => {
  let t: TestDatabase;
  const clock = new ManualClock();
  const ADMIN = 1;
  let nextUser = 5000;
  const newUser = async () => {
    const id = nextUser++;
    await upsertUser(t.handle.db, { telegramId: id, firstName: "Budi" });
    return id;
  };
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it("asks for the amount plus a unique code, with the shop's instructions", async () => {
    const u = await newUser();
    await putSetting(
      t.handle.db,
      DEPOSIT_SETTINGS.instructions.key,
      "Bayar {amount} ke DANA 0812 (ref {reference})",
    );
    const req = await requestDeposit(t.handle.db, { userId: u, amount: 50_000, clock });
    expect(req.payAmount).toBeGreaterThan(50_000);
    expect(req.payAmount).toBeLessThan(51_000);
    expect(req.instructions).toBe(
      `Bayar Rp${req.payAmount.toLocaleString("id-ID")} ke DANA 0812 (ref ${req.reference})`,
    );
    expect(req.status).toBe("requested");
  });

  it("gives open requests for the same amount different amounts to pay", async () => {
    const u = await newUser();
    const reqs = [];
    for (let i = 0; i < 30; i++) {
      reqs.push(await requestDeposit(t.handle.db, { userId: u, amount: 100_000, clock }));
    }
    expect(new Set(reqs.map((r) => r.payAmount)).size).toBe(30);
    expect(new Set(reqs.map((r) => r.reference)).size).toBe(30);
  });

  it("refuses amounts outside the shop's limits", async () => {
    const u = await newUser();
    await expect(requestDeposit(t.handle.db, { userId: u, amount: 9_999, clock })).rejects.toThrow(
      DepositError,
    );
    await expect(
      requestDeposit(t.handle.db, { userId: u, amount: 10_000_001, clock }),
    ).rejects.toMatchObject({ reason: "amount_too_large" });
  });

  it("confirming credits the wallet with what was paid, once", async () => {
    const u = await newUser();
    const req = await requestDeposit(t.handle.db, { userId: u, amount: 20_000, clock });
    await confirmDeposit(t.handle.db, { id: req.id, adminId: ADMIN, clock });
    expect(await walletBalance(t.handle.db, u)).toBe(req.payAmount);
    await expect(
      confirmDeposit(t.handle.db, { id: req.id, adminId: ADMIN, clock }),
    ).rejects.toMatchObject({ reason: "already_decided" });
    await expect(
      rejectDeposit(t.handle.db, { id: req.id, adminId: ADMIN, clock }),
    ).rejects.toMatchObject({ reason: "already_decided" });
    expect(await walletBalance(t.handle.db, u)).toBe(req.payAmount);
    expect((await verifyLedger(t.handle)).problems).toEqual([]);
  });

  it("two admins confirming at once credit once", async () => {
    const u = await newUser();
    const req = await requestDeposit(t.handle.db, { userId: u, amount: 30_000, clock });
    const results = await Promise.allSettled([
      confirmDeposit(t.handle.db, { id: req.id, adminId: 1, clock }),
      confirmDeposit(t.handle.db, { id: req.id, adminId: 2, clock }),
      confirmDeposit(t.handle.db, { id: req.id, adminId: 3, clock }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await walletBalance(t.handle.db, u)).toBe(req.payAmount);
  });

  it("a rejected request credits nothing", async () => {
    const u = await newUser();
    const req = await requestDeposit(t.handle.db, { userId: u, amount: 15_000, clock });
    const rejected = await rejectDeposit(t.handle.db, { id: req.id, adminId: ADMIN, clock });
    expect(rejected.status).toBe("rejected");
    expect(await walletBalance(t.handle.db, u)).toBe(0);
  });

  it("requests expire after the configured time and can no longer be confirmed", async () => {
    const u = await newUser();
    await putSetting(t.handle.db, DEPOSIT_SETTINGS.ttlMinutes.key, 30);
    const req = await requestDeposit(t.handle.db, { userId: u, amount: 25_000, clock });
    clock.advance(31 * 60_000);
    await expect(
      confirmDeposit(t.handle.db, { id: req.id, adminId: ADMIN, clock }),
    ).rejects.toMatchObject({ reason: "expired" });
    const expired = await expireDeposits(t.handle.db, clock);
    expect(expired.map((r) => r.id)).toContain(req.id);
    expect(await walletBalance(t.handle.db, u)).toBe(0);
  });

  it("an unknown request is not found", async () => {
    await expect(
      confirmDeposit(t.handle.db, { id: 987654, adminId: ADMIN, clock }),
    ).rejects.toMatchObject({ reason: "not_found" });
  });
});
