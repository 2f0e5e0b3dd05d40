import { randomBytes, randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { centerKeys, users } from "../../db/schema.ts";
import type { SecretBox } from "../h2h/cipher.ts";
import { findUser } from "../users.ts";

// a reseller's credentials for the OtomaX-family door (docs/center.md#credentials): a
// memberID, a pin and a password. The pin and password both enter every sign, so kios must
// read them back to check one: they are sealed under H2H_ENCRYPTION_KEY like the H2H keys
// (h2h/keys.ts), and the clear values leave this module only in create's and rotate's answer.

export type CenterKeyRow = typeof centerKeys.$inferSelect;

/** what a reseller is shown once: the values their server's sign is made of */
export interface IssuedCenterKey {
  userId: number;
  memberId: string;
  pin: string;
  password: string;
}

export type CenterKeyRefusal = "has_key" | "no_key" | "not_reseller";

const ALPHANUM = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function newMemberId(): string {
  let id = "KC";
  for (const b of randomBytes(10)) id += ALPHANUM[b % ALPHANUM.length];
  return id;
}

// the password carries the secret's strength (128 bits); the pin is the software's own field
const newPin = () => String(randomInt(0, 1_000_000)).padStart(6, "0");
const newPassword = () => randomBytes(16).toString("base64url");

async function isReseller(db: Executor, userId: number): Promise<boolean> {
  return (await findUser(db, userId))?.tier === "reseller";
}

/** a first set of credentials for a reseller; refused when they have one (rotate it) */
export async function createCenterKey(
  db: Executor,
  box: SecretBox,
  userId: number,
): Promise<{ ok: true; key: IssuedCenterKey } | { ok: false; reason: CenterKeyRefusal }> {
  if (!(await isReseller(db, userId))) return { ok: false, reason: "not_reseller" };
  const memberId = newMemberId();
  const pin = newPin();
  const password = newPassword();
  const [row] = await db
    .insert(centerKeys)
    .values({ userId, memberId, pinEnc: box.seal(pin), passwordEnc: box.seal(password) })
    .onConflictDoNothing({ target: centerKeys.userId })
    .returning({ id: centerKeys.id });
  if (!row) return { ok: false, reason: "has_key" };
  return { ok: true, key: { userId, memberId, pin, password } };
}

/** a new pin and password (the memberID stays); a revoked key comes back with them */
export async function rotateCenterKey(
  db: Executor,
  box: SecretBox,
  userId: number,
  now: Date,
): Promise<{ ok: true; key: IssuedCenterKey } | { ok: false; reason: CenterKeyRefusal }> {
  if (!(await isReseller(db, userId))) return { ok: false, reason: "not_reseller" };
  const pin = newPin();
  const password = newPassword();
  const [row] = await db
    .update(centerKeys)
    .set({
      pinEnc: box.seal(pin),
      passwordEnc: box.seal(password),
      revokedAt: null,
      rotatedAt: now,
    })
    .where(eq(centerKeys.userId, userId))
    .returning({ memberId: centerKeys.memberId });
  if (!row) return { ok: false, reason: "no_key" };
  return { ok: true, key: { userId, memberId: row.memberId, pin, password } };
}

/** the credentials stop working at once; rotate brings them back with new secrets */
export async function revokeCenterKey(
  db: Executor,
  userId: number,
  now: Date,
): Promise<{ ok: true; memberId: string } | { ok: false; reason: CenterKeyRefusal }> {
  const [row] = await db
    .update(centerKeys)
    .set({
      revokedAt: sql`coalesce(${centerKeys.revokedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(centerKeys.userId, userId))
    .returning({ memberId: centerKeys.memberId });
  return row ? { ok: true, memberId: row.memberId } : { ok: false, reason: "no_key" };
}

export interface CenterKeySettings {
  reportUrl?: string | null;
  ipAllowlist?: string[];
  ratePerMinute?: number;
  enabled?: boolean;
}

/** changes the settings (a report URL must have passed checkCallbackUrl first) */
export async function updateCenterKeySettings(
  db: Executor,
  userId: number,
  settings: CenterKeySettings,
): Promise<CenterKeyRow | undefined> {
  const [row] = await db
    .update(centerKeys)
    .set(settings)
    .where(eq(centerKeys.userId, userId))
    .returning();
  return row;
}

export async function centerKeyOfUser(
  db: Executor,
  userId: number,
): Promise<CenterKeyRow | undefined> {
  const [row] = await db.select().from(centerKeys).where(eq(centerKeys.userId, userId));
  return row;
}

/** the credentials of a memberID, with whether the holder is a reseller now (only theirs trade) */
export async function centerKeyByMemberId(
  db: Executor,
  memberId: string,
): Promise<(CenterKeyRow & { holderIsReseller: boolean }) | undefined> {
  const [row] = await db
    .select({ key: centerKeys, tier: users.tier })
    .from(centerKeys)
    .innerJoin(users, eq(users.telegramId, centerKeys.userId))
    .where(eq(centerKeys.memberId, memberId));
  return row && { ...row.key, holderIsReseller: row.tier === "reseller" };
}

/** the pin and password, opened for a sign check */
export function openCenterKey(
  box: SecretBox,
  row: CenterKeyRow,
): { pin: string; password: string } {
  return { pin: box.open(row.pinEnc), password: box.open(row.passwordEnc) };
}
