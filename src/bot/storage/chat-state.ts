import { createHash } from "node:crypto";
import {
  type ConversationData,
  type ConversationStorage,
  PLUGIN_DATA_VERSION,
  type VersionedState,
  type VersionedStateStorage,
} from "@grammyjs/conversations";
import { and, eq, like, lt, type SQL, sql } from "drizzle-orm";
import type { Context } from "grammy";
import type { Executor } from "../../db/client.ts";
import { botState } from "../../db/schema.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import { type Preloaded, preloadedFor } from "./preload.ts";

// conversations v2 replay their builder function from a stored log. The state lives in
// postgres (bot_state), so a restart or another instance continues a flow; the version
// changes with the conversations' code, and state of an older version is dropped rather
// than replayed against code it no longer matches.
//
// an update from the inbox writes the chat's state only while its claim is still the
// worker's (a worker that lost its lease commits nothing), and records itself in the same
// write: run again after a crash, the inbox sees the state already reflects it. A flow that
// ends writes an empty state instead of deleting the row, so that record stays.

/**
 * another process wrote this chat's flow state after it was read here, or the update's
 * claim was taken back meanwhile: the update must be handled again on top of what was
 * written (the inbox retries it, if it is still this worker's)
 */
export class StateConflictError extends Error {
  constructor(key: string) {
    super(`the conversation state ${key} was written by someone else since it was read`);
    this.name = "StateConflictError";
  }
}

export const CONVERSATION_KEY_PREFIX = "conv:";

/** JSON with object keys sorted: jsonb keeps keys in an order of its own */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

interface ReadState {
  key: string;
  /** the revision read; 0 when there was no row */
  revision: number;
  /** the stored value as JSON, to skip writes that change nothing */
  json: string | undefined;
}

type Claim = NonNullable<Preloaded["claim"]>;

/** true while the update's claim is still this worker's, and kept so until the write commits */
function claimHeld(c: Claim): SQL {
  return sql`exists (select 1 from telegram_updates t
    where t.bot_id = ${c.botId} and t.update_id = ${c.updateId}
      and t.claimed_by = ${c.worker} and t.handled_at is null
    for share)`;
}

/**
 * bot_state as the conversations' per-context storage. A read remembers the row's revision
 * (on the update's context); the write at the end of the update succeeds only if the row
 * still has it (and the update's claim is still held), and a write of what was read is
 * skipped.
 */
function botStateAdapter<C extends Context, S>(
  db: Executor,
  version: string,
): VersionedStateStorage<C, S> {
  const reads = new WeakMap<C, ReadState>();
  const keyOf = (ctx: C) =>
    ctx.chatId === undefined ? undefined : `${CONVERSATION_KEY_PREFIX}${ctx.chatId}`;
  // a write without a read (not the plugin's way) expects no row: it never overwrites
  const readOf = (ctx: C, key: string) => reads.get(ctx) ?? { key, revision: 0, json: undefined };

  return {
    async read(ctx) {
      const key = keyOf(ctx);
      if (key === undefined) return undefined;
      // the inbox read the chat's row with the update (it claimed the chat, so it is current)
      const pre = preloadedFor(ctx.update);
      const [row] =
        pre && pre.chatId === ctx.chatId
          ? pre.state === null
            ? []
            : [pre.state]
          : await db
              .select({ value: botState.value, revision: botState.revision })
              .from(botState)
              .where(eq(botState.key, key));
      reads.set(ctx, {
        key,
        revision: row?.revision ?? 0,
        json: row ? canonicalJson(row.value) : undefined,
      });
      return row ? (row.value as VersionedState<S>) : undefined;
    },
    async write(ctx, state) {
      await save(ctx, state);
    },
    async delete(ctx) {
      const key = keyOf(ctx);
      if (key === undefined) return;
      const seen = readOf(ctx, key);
      if (seen.revision === 0) {
        // nothing was there when read: something there now was written by someone else
        const [row] = await db
          .select({ revision: botState.revision })
          .from(botState)
          .where(eq(botState.key, key));
        if (row) throw new StateConflictError(key);
        return;
      }
      // an empty state, not no row: the update that ended the flow stays recorded
      await save(ctx, { version: [PLUGIN_DATA_VERSION, version], state: {} } as VersionedState<S>);
    },
  };

  async function save(ctx: C, state: VersionedState<S>): Promise<void> {
    const key = keyOf(ctx);
    if (key === undefined) return;
    const seen = readOf(ctx, key);
    const json = canonicalJson(state);
    if (json === seen.json) return;
    const pre = preloadedFor(ctx.update);
    const claim = pre?.claim;
    if (claim && pre.stateSink) {
      // the inbox writes it with the update's finish, in one statement fenced by the claim;
      // the revision stays the one read: nothing is written yet
      pre.stateSink.write = { key, json: JSON.stringify(state), revision: seen.revision };
      reads.set(ctx, { key, revision: seen.revision, json });
      return;
    }
    const written =
      seen.revision === 0
        ? claim
          ? rowsOf<{ revision: number }>(
              await db.execute(sql`
                insert into bot_state (key, value, revision, bot_id, update_id)
                select ${key}, ${JSON.stringify(state)}::jsonb, 1, ${claim.botId}, ${claim.updateId}
                where ${claimHeld(claim)}
                on conflict do nothing
                returning revision`),
            )
          : await db
              .insert(botState)
              .values({ key, value: state, revision: 1 })
              .onConflictDoNothing()
              .returning({ revision: botState.revision })
        : await db
            .update(botState)
            .set({
              value: state,
              revision: seen.revision + 1,
              updatedAt: sql`now()`,
              botId: claim?.botId ?? null,
              updateId: claim?.updateId ?? null,
            })
            .where(
              and(
                eq(botState.key, key),
                eq(botState.revision, seen.revision),
                claim ? claimHeld(claim) : undefined,
              ),
            )
            .returning({ revision: botState.revision });
    if (written.length === 0) throw new StateConflictError(key);
    reads.set(ctx, { key, revision: seen.revision + 1, json });
  }
}

/** the conversations plugin's storage option: per chat, versioned, checked on write */
export function conversationStorage<C extends Context>(
  db: Executor,
  version: string,
): ConversationStorage<C, ConversationData> {
  return {
    type: "context",
    version,
    adapter: botStateAdapter<C, ConversationData>(db, version),
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
