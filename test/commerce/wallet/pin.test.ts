import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBox } from "../../../src/commerce/secrets/box.ts";
import {
  checkPin,
  PIN_LOCK_MS,
  pinState,
  removePin,
  replacePin,
  setFirstPin,
} from "../../../src/commerce/wallet/pin.ts";
import {
  digitAt,
  openPad,
  PAD_POSITIONS,
  PIN_PAD_TTL_MS,
  padLayout,
  padOf,
  pressed,
  pruneLapsedPads,
  savePad,
  takePad,
} from "../../../src/commerce/wallet/pin-pads.ts";
import type { Database } from "../../../src/db/client.ts";
import { pinPads, users } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

// the wallet's PIN: a slow salted hash, five wrong tries lock it for 15 minutes (also when
// the tries race: a try is counted before it is compared), a change checks the current PIN
// when it writes the new one; the keypads name positions and keep what was typed sealed

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
    await expect(setFirstPin(db, U, "12")).rejects.toThrow(/4 to 6/);
    await expect(setFirstPin(db, U, "1234567")).rejects.toThrow(/4 to 6/);
    expect(await setFirstPin(db, U, "482913")).toBe(true);
    // a first PIN never replaces one that exists
    expect(await setFirstPin(db, U, "111111")).toBe(false);
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

  it("refuses the right PIN that arrives after a burst of wrong ones locked it", async () => {
    const later = now + 4 * PIN_LOCK_MS;
    // 39 wrong PINs and the right one last, all at once: the burst locks the PIN, and the
    // right one, checked after it, is refused (and never resets the lock)
    const results = await Promise.all([
      ...Array.from({ length: 39 }, (_, i) => checkPin(db, U, String(100_000 + i), later)),
      checkPin(db, U, "482913", later),
    ]);
    expect(results.at(-1)).toMatchObject({ ok: false, reason: "locked" });
    expect(results.filter((r) => r.ok)).toEqual([]);
    // one try locked it, and only that one says so
    expect(results.filter((r) => !r.ok && r.reason === "locked" && r.justLocked)).toHaveLength(1);
    expect((await pinState(db, U, later)).lockedUntil).toEqual(new Date(later + PIN_LOCK_MS));
    expect(await checkPin(db, U, "482913", later + 60_000)).toMatchObject({ reason: "locked" });
    expect(await checkPin(db, U, "482913", later + PIN_LOCK_MS + 1)).toEqual({ ok: true });
  });

  it("changes a PIN only with the current one at that moment", async () => {
    const at = now + 8 * PIN_LOCK_MS;
    expect(await replacePin(db, U, "000000", "5555", at)).toEqual({
      ok: false,
      reason: "wrong",
      triesLeft: 4,
    });
    expect(await checkPin(db, U, "482913", at)).toEqual({ ok: true });
    expect(await replacePin(db, U, "482913", "5555", at)).toEqual({ ok: true });
    expect(await checkPin(db, U, "482913", at)).toMatchObject({ reason: "wrong" });
    expect(await checkPin(db, U, "5555", at)).toEqual({ ok: true });
    // locked: not even the right current PIN changes it (nor clears the lock)
    for (let i = 0; i < 5; i++) await checkPin(db, U, "0000", at);
    expect(await replacePin(db, U, "5555", "7777", at)).toMatchObject({ reason: "locked" });
    expect(await checkPin(db, U, "5555", at + PIN_LOCK_MS + 1)).toEqual({ ok: true });
  });

  it("keeps a keypad's presses sealed, for one purpose, once", async () => {
    const box = createBox("a server secret that is not in the database", "test pads");
    const pad = await openPad(db, box, {
      userId: U,
      purpose: "pay:abc",
      entry: { step: "pin", typed: "" },
      now,
    });
    // each key is a position; the digits behind them are a shuffle of 0-9 only the key knows
    const layout = padLayout(box, pad.id);
    expect([...layout].sort().join("")).toBe("0123456789");
    const other = createBox("another server's secret", "test pads");
    expect(padLayout(other, pad.id)).not.toEqual(layout);
    const positionOf = (d: string) => PAD_POSITIONS[layout.indexOf(d)]!;
    let current = pad;
    for (const d of "4829") {
      const digit = digitAt(box, pad.id, positionOf(d))!;
      current = (await savePad(db, box, current, pressed(current.entry, { digit })))!;
    }
    expect(current.entry.typed).toBe("4829");
    // a stale press (the entry moved on) changes nothing
    expect(await savePad(db, box, pad, pressed(pad.entry, { digit: "1" }))).toBeUndefined();
    const [row] = await db.select().from(pinPads).where(eq(pinPads.id, pad.id));
    expect(JSON.stringify(row)).not.toMatch(/4829/);
    expect(row?.expiresAt).toEqual(new Date(now + 5 * 60_000));
    expect(await padOf(db, box, U + 1, pad.id)).toBeUndefined();
    expect((await takePad(db, box, current))?.entry.typed).toBe("4829");
    expect(await takePad(db, box, current)).toBeUndefined();
    // a keypad never answered is swept once it lapsed, not before
    const left = await openPad(db, box, {
      userId: U,
      purpose: "pay:def",
      entry: { step: "pin", typed: "" },
      now,
    });
    expect(await pruneLapsedPads(db, new Date(now + PIN_PAD_TTL_MS - 1))).toBe(0);
    expect(await pruneLapsedPads(db, new Date(now + PIN_PAD_TTL_MS))).toBe(1);
    expect(await padOf(db, box, U, left.id)).toBeUndefined();
    await removePin(db, U);
    expect((await pinState(db, U, now)).set).toBe(false);
  });
});
