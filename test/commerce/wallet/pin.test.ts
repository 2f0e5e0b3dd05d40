import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkPin,
  openPinEntry,
  PIN_LOCK_MS,
  pinState,
  pressPinKey,
  removePin,
  setPin,
  takePinEntry,
} from "../../../src/commerce/wallet/pin.ts";
import type { Database } from "../../../src/db/client.ts";
import { users } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

// the wallet's PIN: a slow salted hash, five wrong tries lock it for 15 minutes (also when
// the tries race), the keypad's digits kept server-side

describe(`the wallet PIN (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  const U = 6_001;
  const now = Date.UTC(2026, 0, 10, 3, 0);
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
  });
  afterAll(() => t.destroy());

  it("stores an scrypt hash, never the digits, and checks it", async () => {
    expect(await checkPin(db, U, "1234", now)).toEqual({ ok: false, reason: "no_pin" });
    await expect(setPin(db, U, "12")).rejects.toThrow(/4 to 6/);
    await expect(setPin(db, U, "1234567")).rejects.toThrow(/4 to 6/);
    await setPin(db, U, "482913");
    const [row] = await db.select().from(users).where(eq(users.telegramId, U));
    expect(row?.pinHash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{64}$/);
    expect(row?.pinHash).not.toContain("482913");
    expect(await checkPin(db, U, "482913", now)).toEqual({ ok: true });
    expect(await checkPin(db, U, "482914", now)).toEqual({
      ok: false,
      reason: "wrong",
      triesLeft: 4,
    });
    // a right PIN resets the count
    expect(await checkPin(db, U, "482913", now)).toEqual({ ok: true });
  });

  it("locks for 15 minutes after five wrong tries in a row, with one notice", async () => {
    for (let i = 4; i >= 1; i--) {
      expect(await checkPin(db, U, "000000", now)).toEqual({
        ok: false,
        reason: "wrong",
        triesLeft: i,
      });
    }
    const locked = await checkPin(db, U, "000000", now);
    expect(locked).toEqual({
      ok: false,
      reason: "locked",
      until: new Date(now + PIN_LOCK_MS),
      justLocked: true,
    });
    // even the right PIN is refused while locked, and the notice is not repeated
    expect(await checkPin(db, U, "482913", now + 60_000)).toMatchObject({
      reason: "locked",
      justLocked: false,
    });
    expect((await pinState(db, U, now + 60_000)).lockedUntil).toEqual(new Date(now + PIN_LOCK_MS));
    // after the lock, the right PIN works again
    expect(await checkPin(db, U, "482913", now + PIN_LOCK_MS + 1)).toEqual({ ok: true });
  });

  it("counts every wrong try when they race", async () => {
    const later = now + 2 * PIN_LOCK_MS;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => checkPin(db, U, "111111", later)),
    );
    expect(results.some((r) => !r.ok && r.reason === "locked")).toBe(true);
    expect((await pinState(db, U, later)).lockedUntil).not.toBeNull();
  });

  it("keeps the keypad's digits for one action, and gives them once", async () => {
    await openPinEntry(db, U, "pay:abc");
    for (const d of ["4", "8", "2", "9"]) await pressPinKey(db, U, "pay:abc", d);
    expect(await pressPinKey(db, U, "pay:abc", "back")).toBe(3);
    expect(await pressPinKey(db, U, "ts:1", "5")).toBeUndefined();
    expect(await pressPinKey(db, U, "pay:abc", "9")).toBe(4);
    expect(await takePinEntry(db, U, "pay:abc")).toBe("4829");
    expect(await takePinEntry(db, U, "pay:abc")).toBeUndefined();
    await removePin(db, U);
    expect((await pinState(db, U, now)).set).toBe(false);
  });
});
