import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { users } from "../../db/schema.ts";

// the wallet's PIN (docs/resellers.md#the-pin): 4–6 digits, stored as an scrypt hash with
// its own salt; five wrong tries in a row lock the guarded actions (Pay, transfers, key
// changes) for 15 minutes. A stolen Telegram session then cannot drain the wallet.

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

/** sets or replaces the PIN (the caller checked the old one); throws on a malformed PIN */
export async function setPin(db: Executor, userId: number, pin: string): Promise<void> {
  if (!validPin(pin)) throw new RangeError("a PIN is 4 to 6 digits");
  const pinHash = await hashPin(pin);
  await db.insert(users).values({ telegramId: userId }).onConflictDoNothing();
  await db
    .update(users)
    .set({ pinHash, pinFailures: 0, pinLockedUntil: null, updatedAt: sql`now()` })
    .where(eq(users.telegramId, userId));
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

/**
 * checks a PIN: a right one resets the count; a wrong one counts, and the fifth in a row
 * locks for 15 minutes. Counting is one conditional update, so tries racing each other
 * are all counted.
 */
export async function checkPin(
  db: Executor,
  userId: number,
  pin: string,
  now: number,
): Promise<PinCheck> {
  const [row] = await db
    .select({ hash: users.pinHash, lockedUntil: users.pinLockedUntil })
    .from(users)
    .where(eq(users.telegramId, userId));
  if (!row?.hash) return { ok: false, reason: "no_pin" };
  if (row.lockedUntil && row.lockedUntil.getTime() > now) {
    return { ok: false, reason: "locked", until: row.lockedUntil, justLocked: false };
  }
  if (validPin(pin) && (await matches(pin, row.hash))) {
    await db.update(users).set({ pinFailures: 0 }).where(eq(users.telegramId, userId));
    return { ok: true };
  }
  const until = new Date(now + PIN_LOCK_MS);
  const [counted] = await db
    .update(users)
    .set({
      pinFailures: sql`case when ${users.pinFailures} + 1 >= ${PIN_MAX_TRIES} then 0 else ${users.pinFailures} + 1 end`,
      pinLockedUntil: sql`case when ${users.pinFailures} + 1 >= ${PIN_MAX_TRIES} then ${until.toISOString()}::timestamptz else ${users.pinLockedUntil} end`,
    })
    .where(and(eq(users.telegramId, userId)))
    .returning({ failures: users.pinFailures, lockedUntil: users.pinLockedUntil });
  if (counted?.lockedUntil && counted.lockedUntil.getTime() > now) {
    return { ok: false, reason: "locked", until: counted.lockedUntil, justLocked: true };
  }
  return { ok: false, reason: "wrong", triesLeft: PIN_MAX_TRIES - (counted?.failures ?? 0) };
}

// ---- the keypad's entry, kept in the database while a keypad is open ----

/** opens an entry for `action` (a fresh one replaces any other) */
export async function openPinEntry(db: Executor, userId: number, action: string): Promise<void> {
  await db.insert(users).values({ telegramId: userId }).onConflictDoNothing();
  await db
    .update(users)
    .set({ pinEntry: "", pinEntryFor: action })
    .where(eq(users.telegramId, userId));
}

/**
 * a key pressed on the keypad of `action`: a digit, "back" or "clear"; answers how many
 * digits are entered now, or undefined when no entry for that action is open
 */
export async function pressPinKey(
  db: Executor,
  userId: number,
  action: string,
  key: string,
): Promise<number | undefined> {
  const next =
    key === "back"
      ? sql`left(${users.pinEntry}, greatest(length(${users.pinEntry}) - 1, 0))`
      : key === "clear"
        ? sql`''`
        : /^\d$/.test(key)
          ? sql`case when length(${users.pinEntry}) < 6 then ${users.pinEntry} || ${key} else ${users.pinEntry} end`
          : undefined;
  if (!next) return undefined;
  const [row] = await db
    .update(users)
    .set({ pinEntry: next })
    .where(and(eq(users.telegramId, userId), eq(users.pinEntryFor, action)))
    .returning({ entry: users.pinEntry });
  return row ? (row.entry ?? "").length : undefined;
}

/** takes the entry of `action` away (it is cleared): the digits, or undefined when none */
export async function takePinEntry(
  db: Executor,
  userId: number,
  action: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ entry: users.pinEntry })
    .from(users)
    .where(and(eq(users.telegramId, userId), eq(users.pinEntryFor, action)));
  if (!row) return undefined;
  await closePinEntry(db, userId);
  return row.entry ?? "";
}

export async function closePinEntry(db: Executor, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ pinEntry: null, pinEntryFor: null })
    .where(eq(users.telegramId, userId));
}
