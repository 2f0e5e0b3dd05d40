import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { users } from "../../db/schema.ts";

// the wallet's PIN (docs/resellers.md#the-pin): 4–6 digits, stored as an scrypt hash with
// its own salt; five wrong tries in a row lock the guarded actions (Pay, transfers, key
// changes) for 15 minutes. A stolen Telegram session then cannot drain the wallet. The
// keypads it is typed on are pin-pads.ts.

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

const PIN_MAX_TRIES = 5;
export const PIN_LOCK_MS = 15 * 60_000;
const KEY_LENGTH = 32;

export function validPin(pin: string): boolean {
  return /^\d{4,6}$/.test(pin);
}

async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(pin, salt, KEY_LENGTH);
  return `${salt.toString("hex")}:${hash.toString("hex")}`;
}

async function matches(pin: string, stored: string): Promise<boolean> {
  const [saltHex, hashHex] = stored.split(":");
  if (!saltHex || !hashHex) return false;
  const wanted = Buffer.from(hashHex, "hex");
  const got = await scrypt(pin, Buffer.from(saltHex, "hex"), wanted.length);
  return got.length === wanted.length && timingSafeEqual(got, wanted);
}

export async function removePin(db: Executor, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ pinHash: null, pinFailures: 0, pinLockedUntil: null, updatedAt: sql`now()` })
    .where(eq(users.telegramId, userId));
}

export interface PinState {
  set: boolean;
  /** the guarded actions are locked until then */
  lockedUntil: Date | null;
}

export async function pinState(db: Executor, userId: number, now: number): Promise<PinState> {
  const [row] = await db
    .select({ hash: users.pinHash, lockedUntil: users.pinLockedUntil })
    .from(users)
    .where(eq(users.telegramId, userId));
  const locked = row?.lockedUntil && row.lockedUntil.getTime() > now ? row.lockedUntil : null;
  return { set: Boolean(row?.hash), lockedUntil: locked };
}

export type PinCheck =
  | { ok: true }
  | { ok: false; reason: "no_pin" }
  | { ok: false; reason: "wrong"; triesLeft: number }
  /** `justLocked`: this try locked it (the user is told once) */
  | { ok: false; reason: "locked"; until: Date; justLocked: boolean };

/** a check, and on a right PIN the hash it matched (to change it only if still that one) */
type Verified = { check: PinCheck; hash?: string };

/**
 * checks a PIN. Each try is taken before the hash is compared, in one statement that counts
 * it and, at the fifth since the last right PIN, locks for 15 minutes; a locked PIN takes
 * no try at all. So however many checks race (chat, Mini App, H2H key actions, a second
 * process), at most five are ever compared per lock, and one that arrives after the burst
 * locked it is refused even when it is right. A right PIN then clears the count.
 */
async function verifyPin(
  db: Executor,
  userId: number,
  pin: string,
  now: number,
): Promise<Verified> {
  const at = new Date(now).toISOString();
  const until = new Date(now + PIN_LOCK_MS).toISOString();
  const lapsed = sql`${users.pinLockedUntil} is not null and ${users.pinLockedUntil} <= ${at}::timestamptz`;
  const tries = sql`case when ${lapsed} then 1 else ${users.pinFailures} + 1 end`;
  const [taken] = await db
    .update(users)
    .set({
      pinFailures: tries,
      pinLockedUntil: sql`case when ${tries} >= ${PIN_MAX_TRIES} then ${until}::timestamptz else null end`,
    })
    .where(
      and(
        eq(users.telegramId, userId),
        isNotNull(users.pinHash),
        sql`(${users.pinLockedUntil} is null or ${lapsed})`,
      ),
    )
    .returning({
      tries: users.pinFailures,
      hash: users.pinHash,
      lockedUntil: users.pinLockedUntil,
    });
  if (!taken?.hash) {
    const state = await pinState(db, userId, now);
    if (!state.set) return { check: { ok: false, reason: "no_pin" } };
    const lockedUntil = state.lockedUntil ?? new Date(until);
    return { check: { ok: false, reason: "locked", until: lockedUntil, justLocked: false } };
  }
  if (validPin(pin) && (await matches(pin, taken.hash))) {
    const [cleared] = await db
      .update(users)
      .set({ pinFailures: 0, pinLockedUntil: null })
      .where(and(eq(users.telegramId, userId), eq(users.pinHash, taken.hash)))
      .returning({ id: users.telegramId });
    // the PIN was changed while this one was hashed: it is no longer the PIN
    if (cleared) return { check: { ok: true }, hash: taken.hash };
  }
  if (taken.lockedUntil) {
    return { check: { ok: false, reason: "locked", until: taken.lockedUntil, justLocked: true } };
  }
  return { check: { ok: false, reason: "wrong", triesLeft: PIN_MAX_TRIES - taken.tries } };
}

export async function checkPin(
  db: Executor,
  userId: number,
  pin: string,
  now: number,
): Promise<PinCheck> {
  return (await verifyPin(db, userId, pin, now)).check;
}

/** a PIN change: refused when the current PIN is wrong, or was changed meanwhile */
export type PinChange = PinCheck | { ok: false; reason: "changed" };

/**
 * replaces the PIN, given the current one at this very moment (not earlier on the way):
 * it is checked (and counted) here, and the new hash is written only over the hash it
 * matched
 */
export async function replacePin(
  db: Executor,
  userId: number,
  current: string,
  next: string,
  now: number,
): Promise<PinChange> {
  if (!validPin(next)) throw new RangeError("a PIN is 4 to 6 digits");
  const verified = await verifyPin(db, userId, current, now);
  if (!verified.check.ok || !verified.hash) return verified.check;
  const pinHash = await hashPin(next);
  const [row] = await db
    .update(users)
    .set({ pinHash, pinFailures: 0, pinLockedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(users.telegramId, userId), eq(users.pinHash, verified.hash)))
    .returning({ id: users.telegramId });
  return row ? { ok: true } : { ok: false, reason: "changed" };
}

/** sets the first PIN; false when the user has one already (that one needs replacePin) */
export async function setFirstPin(db: Executor, userId: number, pin: string): Promise<boolean> {
  if (!validPin(pin)) throw new RangeError("a PIN is 4 to 6 digits");
  const pinHash = await hashPin(pin);
  await db.insert(users).values({ telegramId: userId }).onConflictDoNothing();
  const [row] = await db
    .update(users)
    .set({ pinHash, pinFailures: 0, pinLockedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(users.telegramId, userId), isNull(users.pinHash)))
    .returning({ id: users.telegramId });
  return Boolean(row);
}
