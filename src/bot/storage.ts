import { createHash } from "node:crypto";
import type {
  ConversationData,
  ConversationStorage,
  VersionedState,
  VersionedStateStorage,
} from "@grammyjs/conversations";
import { and, eq, like, lt, sql } from "drizzle-orm";
import type { Context } from "grammy";
import type { Executor } from "../db/client.ts";
import { botState } from "../db/schema.ts";

// conversations v2 replay their builder function from a stored log. The state lives in
// postgres (bot_state), so a restart or another instance continues a flow; the version
// changes with the conversations' code, and state of an older version is dropped rather
// than replayed against code it no longer matches.

/** a key-value adapter over bot_state: one row per key, value as jsonb */
function botStateAdapter<S>(db: Executor): VersionedStateStorage<string, S> {
  return {
    async read(key) {
      const [row] = await db
        .select({ value: botState.value })
        .from(botState)
        .where(eq(botState.key, key));
      return row ? (row.value as VersionedState<S>) : undefined;
    },
    async write(key, state) {
      await db
        .insert(botState)
        .values({ key, value: state })
        .onConflictDoUpdate({
          target: botState.key,
          set: { value: state, updatedAt: sql`now()` },
        });
    },
    async delete(key) {
      await db.delete(botState).where(eq(botState.key, key));
    },
  };
}

const CONVERSATION_KEY_PREFIX = "conv:";

/** the conversations plugin's storage option: per chat, versioned */
export function conversationStorage<C extends Context>(
  db: Executor,
  version: string,
): ConversationStorage<C, ConversationData> {
  return {
    type: "key",
    version,
    getStorageKey: (ctx) =>
      ctx.chatId === undefined ? undefined : `${CONVERSATION_KEY_PREFIX}${ctx.chatId}`,
    adapter: botStateAdapter<ConversationData>(db),
  };
}

/**
 * a version derived from the code of the conversations (and the helpers they replay
 * through): any change to them yields a new version. `salt` is bumped by hand for changes
 * the sources don't show (e.g. a locale key a step depends on).
 */
export function conversationVersion(code: ReadonlyArray<{ toString(): string }>, salt = 1): string {
  const hash = createHash("sha256").update(`salt:${salt}`);
  for (const part of code) hash.update("\0").update(part.toString());
  return hash.digest("hex").slice(0, 16);
}

/**
 * drops stored conversations last touched before `before` (all of them when left out):
 * flows people walked away from. Returns how many.
 */
export async function pruneConversations(db: Executor, before?: Date): Promise<number> {
  const prefix = like(botState.key, `${CONVERSATION_KEY_PREFIX}%`);
  const rows = await db
    .delete(botState)
    .where(before ? and(prefix, lt(botState.updatedAt, before)) : prefix)
    .returning({ key: botState.key });
  return rows.length;
}
