import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  askTransfer,
  cancelTransfer,
  confirmTransfer,
  TRANSFER_SETTINGS,
} from "../../../src/commerce/resellers/transfers.ts";
import { moveUser } from "../../../src/commerce/resellers/tree.ts";
import { putSetting } from "../../../src/commerce/settings.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { creditWallet, walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import type { Database } from "../../../src/db/client.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

// design rule 16: a transfer moves once, keyed to its request, bounded by the owner's
// limit per transfer and the sender's daily cap, also when confirmations race

describe(`balance transfers (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  const R = 5_001;
  const D = 5_002;
  const OTHER = 5_003;
  const now = Date.UTC(2026, 0, 10, 3, 0);
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    await setTier(db, R, "reseller");
    await setTier(db, OTHER, "customer");
    expect((await moveUser(db, { userId: D, uplineId: R })).ok).toBe(true);
    await creditWallet(db, { userId: R, amount: 3_000_000, key: "seed:r" });
    await putSetting(db, TRANSFER_SETTINGS.max, 500_000);
    await putSetting(db, TRANSFER_SETTINGS.dailyCap, 1_000_000);
  });
  afterAll(() => t.destroy());

  const sender = { userId: R, isAdmin: false };

  it("goes only to a direct downline, within the limit and the balance", async () => {
    expect(await askTransfer(db, { ...sender, toUserId: OTHER, amount: 1_000, now })).toEqual({
      ok: false,
      reason: "not_downline",
    });
    expect(await askTransfer(db, { ...sender, toUserId: R, amount: 1_000, now })).toMatchObject({
      reason: "self",
    });
    expect(await askTransfer(db, { ...sender, toUserId: D, amount: 600_000, now })).toEqual({
      ok: false,
      reason: "above_max",
      max: 500_000,
    });
    expect(await askTransfer(db, { ...sender, toUserId: D, amount: 0, now })).toMatchObject({
      reason: "bad_amount",
    });
    // an admin sends to anyone
    await creditWallet(db, { userId: 42, amount: 10_000, key: "seed:admin" });
    const admin = await askTransfer(db, {
      userId: 42,
      isAdmin: true,
      toUserId: OTHER,
      amount: 10_000,
      now,
    });
    expect(admin.ok).toBe(true);
  });

  it("moves the money once, however often Send is tapped", async () => {
    const asked = await askTransfer(db, { ...sender, toUserId: D, amount: 100_000, now });
    if (!asked.ok) throw new Error(asked.reason);
    const taps = await Promise.all(
      [1, 2, 3].map(() => confirmTransfer(db, { ...sender, transferId: asked.transfer.id, now })),
    );
    expect(taps.every((r) => r.ok)).toBe(true);
    expect(taps.filter((r) => r.ok && r.transfer.now)).toHaveLength(1);
    expect(await walletBalance(db, D)).toBe(100_000);
    expect(await walletBalance(db, R)).toBe(2_900_000);
    // another user can't confirm or cancel it
    expect(
      await confirmTransfer(db, { userId: D, isAdmin: false, transferId: asked.transfer.id, now }),
    ).toMatchObject({ reason: "not_found" });
    expect(await cancelTransfer(db, { userId: R, transferId: asked.transfer.id, now })).toBe(false);
  });

  it("a cancelled or expired transfer moves nothing", async () => {
    const a = await askTransfer(db, { ...sender, toUserId: D, amount: 1_000, now });
    if (!a.ok) throw new Error(a.reason);
    expect(await cancelTransfer(db, { userId: R, transferId: a.transfer.id, now })).toBe(true);
    expect(await confirmTransfer(db, { ...sender, transferId: a.transfer.id, now })).toMatchObject({
      reason: "not_found",
    });
    const b = await askTransfer(db, { ...sender, toUserId: D, amount: 1_000, now });
    if (!b.ok) throw new Error(b.reason);
    expect(
      await confirmTransfer(db, { ...sender, transferId: b.transfer.id, now: now + 11 * 60_000 }),
    ).toMatchObject({ reason: "expired" });
    expect(await walletBalance(db, D)).toBe(100_000);
  });

  it("re-checks a card at Send: a downline moved away, or a maximum lowered since, moves nothing", async () => {
    const MOVED = 5_004;
    expect((await moveUser(db, { userId: MOVED, uplineId: R })).ok).toBe(true);
    const toMoved = await askTransfer(db, { ...sender, toUserId: MOVED, amount: 2_000, now });
    const big = await askTransfer(db, { ...sender, toUserId: D, amount: 300_000, now });
    if (!toMoved.ok || !big.ok) throw new Error("not asked");
    const before = { r: await walletBalance(db, R), d: await walletBalance(db, D) };

    // an admin moves the downline to another upline after the card was drawn
    expect((await moveUser(db, { userId: MOVED, uplineId: null })).ok).toBe(true);
    expect(await confirmTransfer(db, { ...sender, transferId: toMoved.transfer.id, now })).toEqual({
      ok: false,
      reason: "moved_away",
      toUserId: MOVED,
    });
    expect(await walletBalance(db, MOVED)).toBe(0);

    // the owner lowers the limit per transfer after the card was drawn
    await putSetting(db, TRANSFER_SETTINGS.max, 200_000);
    expect(await confirmTransfer(db, { ...sender, transferId: big.transfer.id, now })).toEqual({
      ok: false,
      reason: "above_max",
      max: 200_000,
    });
    expect({ r: await walletBalance(db, R), d: await walletBalance(db, D) }).toEqual(before);
    await putSetting(db, TRANSFER_SETTINGS.max, 500_000);
    // the refused cards stay unsent: each is still cancellable, nothing counted as sent
    expect(await cancelTransfer(db, { userId: R, transferId: big.transfer.id, now })).toBe(true);
    expect(await cancelTransfer(db, { userId: R, transferId: toMoved.transfer.id, now })).toBe(
      true,
    );
  });

  it("holds the daily cap when several asked transfers are confirmed at once", async () => {
    // 100 000 sent today: 900 000 left; six asked of 400 000 each, all confirmed at once
    const asked = [];
    for (let i = 0; i < 6; i++) {
      const a = await askTransfer(db, { ...sender, toUserId: D, amount: 400_000, now });
      if (!a.ok) throw new Error(a.reason);
      asked.push(a.transfer.id);
    }
    const results = await Promise.all(
      asked.map((id) => confirmTransfer(db, { ...sender, transferId: id, now })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok && r.reason === "daily_cap")).toHaveLength(4);
    expect(await walletBalance(db, D)).toBe(900_000);
    // the next day (WIB) the cap starts again
    const tomorrow = now + 24 * 3_600_000;
    const next = await askTransfer(db, { ...sender, toUserId: D, amount: 400_000, now: tomorrow });
    expect(next.ok).toBe(true);
    expect((await verifyLedger(t.handle)).ok).toBe(true);
  });
});
