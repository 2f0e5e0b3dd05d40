import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { builtOnce } from "../../db/built-once.ts";
import type { Executor } from "../../db/client.ts";
import { h2hKeys, users } from "../../db/schema.ts";
import { findUser } from "../users.ts";
import type { SecretBox } from "./cipher.ts";

// a reseller's H2H credentials (docs/h2h.md#keys): one key per reseller, its secrets
// sealed at rest. The clear api_key and secret_key leave this module only in the answer to
// the one who asked for them (create, rotate), never in a log (design rule 7).

export type H2hKeyRow = typeof h2hKeys.$inferSelect;

/** what a reseller is shown once: the three values their server signs with */
export interface IssuedKey {
  userId: number;
  apiId: string;
  apiKey: string;
  secretKey: string;
}

/** a key as the API uses it: its secrets opened */
export interface OpenKey {
  row: H2hKeyRow;
  apiKey: string;
  secretKey: string;
}

export type KeyRefusal = "has_key" | "no_key";

const ALPHANUM = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function newApiId(): string {
  const bytes = randomBytes(12);
  let id = "KH";
  for (const b of bytes) id += ALPHANUM[b % ALPHANUM.length];
  return id;
}

const newApiKey = () => randomBytes(24).toString("base64url");
const newSecretKey = () => randomBytes(32).toString("hex");

/**
 * a first key for a user (recorded if kios has not seen them yet, as an admin's /tier does);
 * refused when they have one (rotate it instead)
 */
export async function createKey(
  db: Executor,
  box: SecretBox,
  userId: number,
): Promise<{ ok: true; key: IssuedKey } | { ok: false; reason: KeyRefusal }> {
  if (!(await findUser(db, userId)))
    await db.insert(users).values({ telegramId: userId }).onConflictDoNothing();
  const apiId = newApiId();
  const apiKey = newApiKey();
  const secretKey = newSecretKey();
  const [row] = await db
    .insert(h2hKeys)
    .values({ userId, apiId, apiKeyEnc: box.seal(apiKey), secretKeyEnc: box.seal(secretKey) })
    .onConflictDoNothing({ target: h2hKeys.userId })
    .returning({ id: h2hKeys.id });
  if (!row) return { ok: false, reason: "has_key" };
  return { ok: true, key: { userId, apiId, apiKey, secretKey } };
}

/**
 * new api_key and secret_key for the user's key (the api_id stays, so the reseller changes
 * two settings); a revoked key comes back to life with them. The old secrets stop at once.
 */
export async function rotateKey(
  db: Executor,
  box: SecretBox,
  userId: number,
  now: Date,
): Promise<{ ok: true; key: IssuedKey } | { ok: false; reason: KeyRefusal }> {
  const apiKey = newApiKey();
  const secretKey = newSecretKey();
  const [row] = await db
    .update(h2hKeys)
    .set({
      apiKeyEnc: box.seal(apiKey),
      secretKeyEnc: box.seal(secretKey),
      revokedAt: null,
      rotatedAt: now,
    })
    .where(eq(h2hKeys.userId, userId))
    .returning({ apiId: h2hKeys.apiId });
  if (!row) return { ok: false, reason: "no_key" };
  return { ok: true, key: { userId, apiId: row.apiId, apiKey, secretKey } };
}

/** the key stops working at once (INVALID_API_KEY); rotate brings it back with new secrets */
export async function revokeKey(
  db: Executor,
  userId: number,
  now: Date,
): Promise<{ ok: true; apiId: string } | { ok: false; reason: KeyRefusal }> {
  const [row] = await db
    .update(h2hKeys)
    .set({ revokedAt: sql`coalesce(${h2hKeys.revokedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(h2hKeys.userId, userId))
    .returning({ apiId: h2hKeys.apiId });
  return row ? { ok: true, apiId: row.apiId } : { ok: false, reason: "no_key" };
}

export interface KeySettings {
  callbackUrl?: string | null;
  ipAllowlist?: string[];
  ratePerMinute?: number;
  enabled?: boolean;
  chatResults?: boolean;
}

/** changes a key's settings (the callback URL must have passed checkCallbackUrl first) */
export async function updateKeySettings(
  db: Executor,
  userId: number,
  settings: KeySettings,
): Promise<H2hKeyRow | undefined> {
  const [row] = await db
    .update(h2hKeys)
    .set(settings)
    .where(eq(h2hKeys.userId, userId))
    .returning();
  return row;
}

export async function keyOfUser(db: Executor, userId: number): Promise<H2hKeyRow | undefined> {
  const [row] = await db.select().from(h2hKeys).where(eq(h2hKeys.userId, userId));
  return row;
}

/** a key by its api_id, with whether its holder is a reseller now (only theirs trades) */
export async function keyByApiId(
  db: Executor,
  apiId: string,
): Promise<(H2hKeyRow & { holderIsReseller: boolean }) | undefined> {
  const [row] = await keyRead(db, { apiId });
  return row && { ...row.key, holderIsReseller: row.tier === "reseller" };
}

// built once (db/built-once.ts): every signed H2H request reads it first
const keyRead = builtOnce((db) =>
  db
    .select({ key: h2hKeys, tier: users.tier })
    .from(h2hKeys)
    .innerJoin(users, eq(users.telegramId, h2hKeys.userId))
    .where(eq(h2hKeys.apiId, sql.placeholder("apiId"))),
);

/** the key's secrets, opened for a signature check or a callback's signing */
export function openKey(box: SecretBox, row: H2hKeyRow): OpenKey {
  return { row, apiKey: box.open(row.apiKeyEnc), secretKey: box.open(row.secretKeyEnc) };
}
