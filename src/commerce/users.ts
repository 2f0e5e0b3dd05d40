import { eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { users } from "../db/schema.ts";

/** the price tier a user buys at */
export type Tier = "customer" | "reseller";
export type Language = "id" | "en";
export type User = typeof users.$inferSelect;

export interface TelegramProfile {
  telegramId: number;
  firstName?: string | undefined;
  username?: string | undefined;
  /** Telegram's language_code; only used to pick a language for a new user */
  languageCode?: string | undefined;
}

/** true when the stored row already says what this contact would write (nothing to upsert) */
export function isCurrent(user: User, profile: TelegramProfile): boolean {
  return (
    user.blockedAt === null &&
    user.firstName === (profile.firstName ?? user.firstName) &&
    user.username === (profile.username ?? null)
  );
}

/** records a user on first contact and keeps their name current; language and tier stay. */
export async function upsertUser(exec: Executor, profile: TelegramProfile): Promise<User> {
  const language: Language = profile.languageCode?.toLowerCase().startsWith("en") ? "en" : "id";
  const [row] = await exec
    .insert(users)
    .values({
      telegramId: profile.telegramId,
      firstName: profile.firstName ?? "",
      username: profile.username ?? null,
      language,
    })
    .onConflictDoUpdate({
      target: users.telegramId,
      set: {
        firstName: profile.firstName ?? sql`${users.firstName}`,
        username: profile.username ?? null,
        blockedAt: null,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

export async function findUser(exec: Executor, telegramId: number): Promise<User | undefined> {
  const [row] = await exec.select().from(users).where(eq(users.telegramId, telegramId));
  return row;
}

/** sets a user's tier; creates the user when an admin names someone not seen yet. */
export async function setTier(exec: Executor, telegramId: number, tier: Tier): Promise<User> {
  const [row] = await exec
    .insert(users)
    .values({ telegramId, tier })
    .onConflictDoUpdate({ target: users.telegramId, set: { tier, updatedAt: sql`now()` } })
    .returning();
  return row!;
}

export async function setLanguage(
  exec: Executor,
  telegramId: number,
  language: Language,
): Promise<void> {
  await exec
    .update(users)
    .set({ language, updatedAt: sql`now()` })
    .where(eq(users.telegramId, telegramId));
}

/** the bot was blocked by this user: broadcasts skip them until they write again */
export async function markBlocked(exec: Executor, telegramId: number): Promise<void> {
  await exec.update(users).set({ blockedAt: sql`now()` }).where(eq(users.telegramId, telegramId));
}

/** telegram ids of everyone who has not blocked the bot, for broadcasts */
export async function reachableUserIds(db: Executor): Promise<number[]> {
  const rows = await db
    .select({ id: users.telegramId })
    .from(users)
    .where(isNull(users.blockedAt))
    .orderBy(users.telegramId);
  return rows.map((r) => r.id);
}
