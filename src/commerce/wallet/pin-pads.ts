import { randomBytes } from "node:crypto";
import { and, eq, lte } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { pinPads } from "../../db/schema.ts";
import type { Sealer } from "../secrets/box.ts";

// the PIN keypads (docs/resellers.md#the-pin). A keypad belongs to one user and one purpose
// (the action it unlocks) and lapses after a few minutes. Its keys name positions, not
// digits: the digit at each position comes from a layout derived from the keypad's id under
// the server's key (never stored), so the stored updates' button data reveal nothing; what
// was typed so far is kept sealed. A copy of the database alone yields no digit.

/** how long a keypad stays usable */
export const PIN_PAD_TTL_MS = 5 * 60_000;
/** the keypad's ten keys, by position (letters, so no key's data holds a digit) */
export const PAD_POSITIONS = "abcdefghij";
const MAX_DIGITS = 6;

/**
 * what a keypad is asking for: the PIN that unlocks its purpose, or for a PIN change the
 * current PIN, the new one, and the new one again
 */
export type PadStep = "pin" | "old" | "new" | "repeat";

/** what was typed on a keypad (sealed at rest) */
export interface PadEntry {
  step: PadStep;
  /** the digits typed on this step */
  typed: string;
  /** the current PIN, typed on the "old" step of a change */
  old?: string;
  /** the new PIN as first typed, to compare with the repeat */
  first?: string;
}

export interface PinPad {
  id: string;
  userId: number;
  purpose: string;
  detail: string | null;
  entry: PadEntry;
  expiresAt: Date;
  /** the entry as stored, for a compare-and-set */
  sealed: string;
}

/** the digit at each position of a keypad: a shuffle only the server's key can repeat */
export function padLayout(box: Sealer, padId: string): string[] {
  const digits = [..."0123456789"];
  const bytes = box.derive(`pin pad layout:${padId}`, 4 * digits.length);
  for (let i = digits.length - 1; i > 0; i--) {
    const j = bytes.readUInt32BE(4 * i) % (i + 1);
    [digits[i], digits[j]] = [digits[j]!, digits[i]!];
  }
  return digits;
}

/** the digit behind a pressed position, or undefined for a key that is not a position */
export function digitAt(box: Sealer, padId: string, position: string): string | undefined {
  const at = position.length === 1 ? PAD_POSITIONS.indexOf(position) : -1;
  return at < 0 ? undefined : padLayout(box, padId)[at];
}

/** the entry after a key: a digit appended (up to six), or the last one taken back */
export function pressed(entry: PadEntry, key: { digit: string } | "back"): PadEntry {
  const typed =
    key === "back"
      ? entry.typed.slice(0, -1)
      : entry.typed.length < MAX_DIGITS
        ? entry.typed + key.digit
        : entry.typed;
  return { ...entry, typed };
}

function toPad(box: Sealer, row: typeof pinPads.$inferSelect): PinPad {
  return {
    id: row.id,
    userId: row.userId,
    purpose: row.purpose,
    detail: row.detail,
    entry: JSON.parse(box.open(row.entry)) as PadEntry,
    expiresAt: row.expiresAt,
    sealed: row.entry,
  };
}

/** opens a keypad for `purpose`; the user's lapsed keypads go with it */
export async function openPad(
  db: Executor,
  box: Sealer,
  o: {
    userId: number;
    purpose: string;
    detail?: string | null;
    entry: PadEntry;
    now: number;
  },
): Promise<PinPad> {
  await db
    .delete(pinPads)
    .where(and(eq(pinPads.userId, o.userId), lte(pinPads.expiresAt, new Date(o.now))));
  const [row] = await db
    .insert(pinPads)
    .values({
      id: randomBytes(9).toString("base64url"),
      userId: o.userId,
      purpose: o.purpose,
      detail: o.detail ?? null,
      entry: box.seal(JSON.stringify(o.entry)),
      expiresAt: new Date(o.now + PIN_PAD_TTL_MS),
    })
    .returning();
  return toPad(box, row!);
}

/** the user's keypad of that id (lapsed or not), or undefined */
export async function padOf(
  db: Executor,
  box: Sealer,
  userId: number,
  padId: string,
): Promise<PinPad | undefined> {
  const [row] = await db
    .select()
    .from(pinPads)
    .where(and(eq(pinPads.id, padId), eq(pinPads.userId, userId)));
  return row ? toPad(box, row) : undefined;
}

/** stores a keypad's new entry; undefined when another press changed it first */
export async function savePad(
  db: Executor,
  box: Sealer,
  pad: PinPad,
  entry: PadEntry,
): Promise<PinPad | undefined> {
  const [row] = await db
    .update(pinPads)
    .set({ entry: box.seal(JSON.stringify(entry)) })
    .where(and(eq(pinPads.id, pad.id), eq(pinPads.entry, pad.sealed)))
    .returning();
  return row ? toPad(box, row) : undefined;
}

/** takes a keypad away (it answers once): what it held, or undefined when already taken */
export async function takePad(db: Executor, box: Sealer, pad: PinPad): Promise<PinPad | undefined> {
  const [row] = await db
    .delete(pinPads)
    .where(and(eq(pinPads.id, pad.id), eq(pinPads.entry, pad.sealed)))
    .returning();
  return row ? toPad(box, row) : undefined;
}

export async function closePad(db: Executor, userId: number, padId: string): Promise<void> {
  await db.delete(pinPads).where(and(eq(pinPads.id, padId), eq(pinPads.userId, userId)));
}

/** removes every lapsed keypad (housekeeping); answers how many */
export async function pruneLapsedPads(db: Executor, now: Date): Promise<number> {
  const gone = await db
    .delete(pinPads)
    .where(lte(pinPads.expiresAt, now))
    .returning({ id: pinPads.id });
  return gone.length;
}
