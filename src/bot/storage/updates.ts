import { and, inArray, isNotNull, lt, type SQL, sql } from "drizzle-orm";
import type { Update } from "grammy/types";
import type { User } from "../../commerce/users.ts";
import type { Executor } from "../../db/client.ts";
import { isExclusionConflict } from "../../db/errors.ts";
import { telegramUpdates } from "../../db/schema.ts";
import { jsonOf, rowsOf, toNumber } from "../../db/sql-rows.ts";
import { CONVERSATION_KEY_PREFIX } from "./chat-state.ts";
import type { PendingStateWrite, Preloaded } from "./preload.ts";
import { redactForStorage } from "./redact.ts";
import { storableUpdate } from "./storable.ts";

/** a users row as to_jsonb gives it (snake_case, timestamps as text) in drizzle's shape */
function userFromJson(r: Record<string, unknown> | null): User | null {
  if (!r) return null;
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(String(v)));
  return {
    telegramId: toNumber(r.telegram_id),
    firstName: String(r.first_name),
    username: r.username === null ? null : String(r.username),
    language: String(r.language),
    tier: r.tier as User["tier"],
    blockedAt: date(r.blocked_at),
    parentId: r.parent_id === null || r.parent_id === undefined ? null : toNumber(r.parent_id),
    joinedAt: date(r.joined_at),
    referralCode:
      r.referral_code === null || r.referral_code === undefined ? null : String(r.referral_code),
    pinHash: r.pin_hash === null || r.pin_hash === undefined ? null : String(r.pin_hash),
    pinFailures: toNumber(r.pin_failures ?? 0),
    pinLockedUntil: date(r.pin_locked_until),
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at)!,
  };
}

// the update inbox's queries. Every time here is the database's own now(): the processes
// that claim updates may run on machines whose clocks disagree.

/** who sent an update (0 for nobody) */
function senderOf(update: Update): number {
  const from =
    update.message?.from ??
    update.edited_message?.from ??
    update.callback_query?.from ??
    update.my_chat_member?.from ??
    update.inline_query?.from;
  return from?.id ?? 0;
}

/** the chat an update belongs to: its chat, else its sender, else 0 */
export function chatIdOf(update: Update): number {
  const chat =
    update.message?.chat ??
    update.edited_message?.chat ??
    update.callback_query?.message?.chat ??
    update.my_chat_member?.chat ??
    update.channel_post?.chat;
  if (chat) return chat.id;
  const from =
    update.callback_query?.from ?? update.inline_query?.from ?? update.my_chat_member?.from;
  return from?.id ?? 0;
}

/** an update in the inbox: update_ids count per bot */
export interface UpdateKey {
  botId: number;
  updateId: number;
}

/** the bot a token belongs to: the number before its colon, as Telegram makes them */
export function botIdOfToken(token: string): number {
  const id = Number(token.split(":")[0]);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error("a bot token starts with its bot's id");
  return id;
}

/**
 * how long an update_id stays a redelivery: Telegram gives an update up after a day. Past
 * it the id is a new update's (Telegram may start a bot's ids anew after a week without
 * updates), and the old, handled row is replaced.
 */
const REDELIVERY_WINDOW_SECONDS = 86_400;

/**
 * stores a bot's updates; answers the ids that were new (a redelivery is ignored). Once
 * this resolves the updates are durable and may be acknowledged.
 */
export async function storeUpdates(
  db: Executor,
  botId: number,
  updates: readonly Update[],
): Promise<number[]> {
  // one row per id: an upsert may not touch a row twice in one statement
  const unique = [...new Map(updates.map((u) => [u.update_id, u])).values()];
  if (unique.length === 0) return [];
  const t = telegramUpdates;
  const rows = await db
    .insert(t)
    .values(
      unique.map((u) => ({
        botId,
        updateId: u.update_id,
        chatId: chatIdOf(u),
        userId: senderOf(u),
        payload: redactForStorage(storableUpdate(u), botId) as object,
      })),
    )
    .onConflictDoUpdate({
      target: [t.botId, t.updateId],
      set: {
        chatId: sql`excluded.chat_id`,
        userId: sql`excluded.user_id`,
        payload: sql`excluded.payload`,
        receivedAt: sql`now()`,
        claimedBy: null,
        claimedUntil: null,
        attempts: 0,
        handledAt: null,
        error: null,
      },
      // an unhandled row is never replaced: it is the one to handle
      setWhere: sql`${t.handledAt} is not null
        and ${t.receivedAt} < now() - make_interval(secs => ${REDELIVERY_WINDOW_SECONDS})`,
    })
    .returning({ id: t.updateId });
  return rows.map((r) => r.id);
}

/** what storing an update answered: `claimed` when it was stored claimed for the caller */
export interface StoredUpdate {
  /** false for a redelivery: nothing was stored */
  fresh: boolean;
  claimed: ClaimedUpdate | undefined;
}

/**
 * stores one update and, when its chat has no other update waiting or in hand, claims it
 * for `worker` in the same statement: the process that received it may handle it at once,
 * under a claim fenced and leased like any other (a worker that dies leaves it to the
 * others' takeover). `claimed` is undefined when the update was a redelivery (nothing
 * stored) or its chat was busy (stored unclaimed: the chat's turn brings it, in order).
 * The chat check reads the snapshot the statement starts with, so two updates of one chat
 * stored at the same instant by two processes may both try to claim: the table keeps one
 * claim per chat (migration 0039), the statement that loses fails and its update is stored
 * again unclaimed (docs/scaling.md).
 */
export async function storeAndClaimUpdate(
  db: Executor,
  o: { botId: number; update: Update; worker: string; leaseMs: number },
): Promise<StoredUpdate> {
  const [stored] = await storeAndClaimUpdates(db, {
    botId: o.botId,
    updates: [o.update],
    worker: o.worker,
    leaseMs: o.leaseMs,
  });
  return stored!;
}

/**
 * storeAndClaimUpdate for several updates in one statement (the webhook's group commit):
 * each is claimed when its chat is free, the first `claimable` of them at most (the room
 * the caller's drain has); answers them in the order given. The chats must be distinct:
 * the chat check reads the statement's snapshot, so two updates of one chat would both
 * find it free. A conflict with another process's claim stores the whole batch unclaimed.
 */
export async function storeAndClaimUpdates(
  db: Executor,
  o: {
    botId: number;
    updates: readonly Update[];
    worker: string;
    leaseMs: number;
    claimable?: number;
  },
): Promise<StoredUpdate[]> {
  const chats = new Set(o.updates.map(chatIdOf));
  if (chats.size !== o.updates.length) {
    throw new Error("storeAndClaimUpdates takes at most one update of a chat");
  }
  const claimable = o.claimable ?? o.updates.length;
  try {
    return await storeMaybeClaimed(db, o, claimable);
  } catch (err) {
    // another process claimed an update of one of the chats at the same instant (its store
    // or its claim): the table holds one claim per chat (migration 0039), so these are
    // stored unclaimed, for their chats' turns (the statement wakes the workers)
    if (!isExclusionConflict(err)) throw err;
    return storeMaybeClaimed(db, o, 0);
  }
}

async function storeMaybeClaimed(
  db: Executor,
  o: { botId: number; updates: readonly Update[]; worker: string; leaseMs: number },
  claimable: number,
): Promise<StoredUpdate[]> {
  if (o.updates.length === 0) return [];
  // one json parameter however many updates: the statement's text (and its plan) is the
  // same for a batch of one and of sixty-four
  const input = JSON.stringify(
    o.updates.map((u, i) => ({
      update_id: u.update_id,
      chat_id: chatIdOf(u),
      user_id: senderOf(u),
      claim: i < claimable,
      payload: redactForStorage(storableUpdate(u), o.botId),
    })),
  );
  const result = await db.execute(sql`
    with input as materialized (
      select i.update_id, i.chat_id, i.user_id, i.payload,
        not i.claim or exists (select 1 from telegram_updates e
          where e.chat_id = i.chat_id and e.handled_at is null) as busy
      from jsonb_to_recordset(${input}::jsonb)
        as i(update_id bigint, chat_id bigint, user_id bigint, claim boolean, payload jsonb)
    ),
    stored as (
      insert into telegram_updates as t
        (bot_id, update_id, chat_id, user_id, payload, claimed_by, claimed_until, attempts)
      select ${o.botId}, i.update_id, i.chat_id, i.user_id, i.payload,
        case when i.busy then null else ${o.worker} end,
        case when i.busy then null
          else now() + make_interval(secs => ${o.leaseMs / 1000}) end,
        case when i.busy then 0 else 1 end
      from input i
      on conflict (bot_id, update_id) do update set
        chat_id = excluded.chat_id, user_id = excluded.user_id, payload = excluded.payload,
        received_at = now(), claimed_by = excluded.claimed_by,
        claimed_until = excluded.claimed_until, attempts = excluded.attempts,
        handled_at = null, error = null
      where t.handled_at is not null
        and t.received_at < now() - make_interval(secs => ${REDELIVERY_WINDOW_SECONDS})
      returning t.bot_id, t.update_id, t.chat_id, t.user_id, t.payload, t.attempts,
        t.claimed_by, t.received_at
    )
    select s.bot_id, s.update_id, s.chat_id, s.payload, s.attempts,
      s.claimed_by is not null as claimed,
      (select to_jsonb(x) from users x where x.telegram_id = s.user_id) as user_row,
      (select jsonb_build_object('value', b.value, 'revision', b.revision,
          'applied', coalesce(b.bot_id = s.bot_id and b.update_id = s.update_id
            and b.updated_at >= s.received_at, false))
        from bot_state b
        where b.key = ${CONVERSATION_KEY_PREFIX} || s.chat_id) as state_row
    from stored s`);
  const rows = new Map(
    rowsOf<ClaimedRow & { claimed: unknown }>(result).map((r) => [toNumber(r.update_id), r]),
  );
  return o.updates.map((u) => {
    const row = rows.get(u.update_id);
    if (!row) return { fresh: false, claimed: undefined };
    if (row.claimed !== true) return { fresh: true, claimed: undefined };
    return { fresh: true, claimed: claimedRows([row], o.worker)[0] };
  });
}

/**
 * rows stored before updates were keyed by bot (bot 0) become the running bot's, so its
 * redeliveries of them are still recognised
 */
export async function adoptUpdates(db: Executor, botId: number): Promise<number> {
  const result = await db.execute(sql`
    update telegram_updates t set bot_id = ${botId}
    where t.bot_id = 0 and not exists (
      select 1 from telegram_updates o where o.bot_id = ${botId} and o.update_id = t.update_id)
    returning t.update_id`);
  return rowsOf(result).length;
}

/** the highest update_id stored for a bot (0 for none): where a new counter must start */
export async function lastUpdateId(db: Executor, botId: number): Promise<number> {
  const result = await db.execute(
    sql`select coalesce(max(update_id), 0) as id from telegram_updates where bot_id = ${botId}`,
  );
  return toNumber(rowsOf<{ id: unknown }>(result)[0]?.id);
}

/** the rows of these keys, for a WHERE */
function keysIn(keys: readonly UpdateKey[]): SQL {
  const list = sql.join(
    keys.map((k) => sql`(${k.botId}::bigint, ${k.updateId}::bigint)`),
    sql`, `,
  );
  return sql`(${telegramUpdates.botId}, ${telegramUpdates.updateId}) in (${list})`;
}

export interface ClaimedUpdate extends UpdateKey {
  chatId: number;
  update: Update;
  /** this claim included: 1 on the first try */
  attempts: number;
  /** the worker (lease generation) the claim is of: what it writes is fenced by it */
  worker: string;
  /**
   * the chat's state was written by this very update: it ran before, and its worker died
   * before marking it handled. Running it again would contradict what it already answered.
   */
  applied: boolean;
  /** the sender's user row and the chat's flow state, read in the same statement */
  preloaded: Preloaded;
}

/**
 * claims up to `limit` updates for `worker`: of each chat only its oldest unhandled update,
 * and only while nobody holds a live claim on it, so a chat's updates run one at a time and
 * in order, whichever process runs them. Rows another claimer has locked are skipped, never
 * waited for.
 */
export async function claimUpdates(
  db: Executor,
  o: { worker: string; limit: number; leaseMs: number },
): Promise<ClaimedUpdate[]> {
  const result = await againOnClaimConflict(() =>
    db.execute(sql`with ${claimingCtes(o, null)} select * from claimed`),
  );
  return claimedRows(rowsOf<ClaimedRow>(result), o.worker);
}

/**
 * a claim statement run again when the table refused it a second claim in a chat (a store
 * elsewhere claimed an update of that chat after this statement's snapshot, migration
 * 0039): nothing of it committed, and the next run sees that claim
 */
async function againOnClaimConflict<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= 3 || !isExclusionConflict(err)) throw err;
    }
  }
}

/** a handled update's chat state, written in its finish */
export interface StateWithFinish {
  key: UpdateKey;
  state: PendingStateWrite;
}

/**
 * marks a worker's handled updates handled and claims up to `limit` more, in one statement:
 * a worker's next claim rides on its finish. An update of a chat finished here frees that
 * chat's next update for the same claim. `writes` are the chat states some of them leave
 * (each over the revision it was read at): written in the same statement, and such an
 * update is finished only if its write went through. Every write and finish holds only
 * while the update's claim is still `worker`'s (design rule 18). `conflicts` are the
 * updates still claimed whose state another process wrote since: not finished, to be run
 * again.
 */
export async function finishAndClaimUpdates(
  db: Executor,
  o: {
    worker: string;
    keys: readonly UpdateKey[];
    writes?: readonly StateWithFinish[];
    limit: number;
    leaseMs: number;
  },
): Promise<{ finished: UpdateKey[]; conflicts: UpdateKey[]; claimed: ClaimedUpdate[] }> {
  if (o.keys.length === 0) {
    return { finished: [], conflicts: [], claimed: await claimUpdates(db, o) };
  }
  const writes = JSON.stringify(
    (o.writes ?? []).map((w) => ({
      bot_id: w.key.botId,
      update_id: w.key.updateId,
      key: w.state.key,
      value: JSON.parse(w.state.json) as unknown,
      revision: w.state.revision,
    })),
  );
  const same = (a: string, b: string) =>
    sql.raw(`${a}.bot_id = ${b}.bot_id and ${a}.update_id = ${b}.update_id`);
  const result = await againOnClaimConflict(() =>
    db.execute(sql`
    with writes as (
      select * from jsonb_to_recordset(${writes}::jsonb)
        as w(bot_id bigint, update_id bigint, key text, value jsonb, revision int)
    ),
    held as (
      select bot_id, update_id from telegram_updates
      where ${keysIn(o.keys)} and claimed_by = ${o.worker} and handled_at is null
      for update
    ),
    wrote_over as (
      update bot_state s
      set value = w.value, revision = s.revision + 1, updated_at = now(),
          bot_id = w.bot_id, update_id = w.update_id
      from writes w join held h on ${same("h", "w")}
      where w.revision > 0 and s.key = w.key and s.revision = w.revision
      returning w.bot_id, w.update_id
    ),
    wrote_new as (
      insert into bot_state (key, value, revision, bot_id, update_id)
      select w.key, w.value, 1, w.bot_id, w.update_id
      from writes w join held h on ${same("h", "w")}
      where w.revision = 0
      on conflict do nothing
      returning bot_id, update_id
    ),
    finished as (
      update telegram_updates u
      set handled_at = now(), claimed_until = null, error = null
      from held h
      where ${same("u", "h")}
        and (not exists (select 1 from writes w where ${same("w", "h")})
          or exists (select 1 from wrote_over x where ${same("x", "h")})
          or exists (select 1 from wrote_new x where ${same("x", "h")}))
      returning u.bot_id, u.update_id
    ),
    written_states as (
      select w.key, w.value, w.revision + 1 as revision from writes w
      where exists (select 1 from wrote_over x where ${same("x", "w")})
         or exists (select 1 from wrote_new x where ${same("x", "w")})
    ),
    ${claimingCtes(o, sql`finished`, sql`written_states`)}
    select f.keys as finished_keys, hk.keys as held_keys, c.*
    from (select coalesce(jsonb_agg(jsonb_build_array(bot_id, update_id)), '[]'::jsonb) as keys
          from finished) f
    cross join (select coalesce(jsonb_agg(jsonb_build_array(bot_id, update_id)), '[]'::jsonb)
          as keys from held) hk
    left join claimed c on true`),
  );
  const rows = rowsOf<ClaimedRow & { finished_keys: unknown; held_keys: unknown }>(result);
  const keysOf = (v: unknown) =>
    (jsonOf<[unknown, unknown][]>(v) ?? []).map(([botId, updateId]) => ({
      botId: toNumber(botId),
      updateId: toNumber(updateId),
    }));
  const finished = keysOf(rows[0]?.finished_keys);
  const done = new Set(finished.map((k) => `${k.botId}:${k.updateId}`));
  return {
    finished,
    conflicts: keysOf(rows[0]?.held_keys).filter((k) => !done.has(`${k.botId}:${k.updateId}`)),
    claimed: claimedRows(
      rows.filter((r) => r.update_id !== null),
      o.worker,
    ),
  };
}

/**
 * the claim's CTEs, `free` and `claimed`. It walks the unhandled updates oldest first and
 * keeps each that has no older unhandled update in its chat (an index probe), so a long
 * backlog costs a claim only the rows it looks at before it has `limit` of them. The rows
 * of `finishing` (a CTE of keys marked handled by the same statement, which it cannot see
 * yet) count as handled.
 */
function claimingCtes(
  o: { worker: string; limit: number; leaseMs: number },
  finishing: SQL | null,
  /**
   * a CTE of chat states (key, value, revision) the same statement writes: a chat's next
   * update claimed here must see them, and the statement's snapshot does not
   */
  writtenStates: SQL | null = null,
) {
  const stored = sql`(select jsonb_build_object('value', s.value, 'revision', s.revision,
            'applied', coalesce(s.bot_id = u.bot_id and s.update_id = u.update_id
              and s.updated_at >= u.received_at, false))
          from bot_state s
          where s.key = ${CONVERSATION_KEY_PREFIX} || u.chat_id)`;
  const state = writtenStates
    ? sql`coalesce((select jsonb_build_object('value', ws.value, 'revision', ws.revision,
            'applied', false)
          from ${writtenStates} ws where ws.key = ${CONVERSATION_KEY_PREFIX} || u.chat_id),
        ${stored})`
    : stored;
  const notFinishing = finishing
    ? sql`and not exists (select 1 from ${finishing} f
            where f.bot_id = e.bot_id and f.update_id = e.update_id)`
    : sql``;
  // a chat's claim is its one claimed update (the table allows one: migration 0039), taken
  // over when its lease ran out; with none, its oldest unhandled update
  return sql`free as (
      select t.bot_id, t.update_id
      from telegram_updates t
      where t.handled_at is null
        and (t.claimed_until is null or t.claimed_until < now())
        and not exists (
          select 1 from telegram_updates e
          where e.chat_id = t.chat_id and e.handled_at is null
            and (e.bot_id, e.update_id) <> (t.bot_id, t.update_id)
            and (e.claimed_by is not null or (t.claimed_by is null
              and (e.update_id < t.update_id or (e.update_id = t.update_id and e.bot_id < t.bot_id))))
            ${notFinishing}
        )
      order by t.update_id, t.bot_id
      limit ${o.limit}
      for update of t skip locked
    ),
    claimed as (
      update telegram_updates u
      set claimed_by = ${o.worker},
          claimed_until = now() + make_interval(secs => ${o.leaseMs / 1000}),
          attempts = u.attempts + 1
      from free
      where u.bot_id = free.bot_id and u.update_id = free.update_id
        and u.handled_at is null
        and (u.claimed_until is null or u.claimed_until < now())
      returning u.bot_id, u.update_id, u.chat_id, u.payload, u.attempts,
        (select to_jsonb(x) from users x where x.telegram_id = u.user_id) as user_row,
        ${state} as state_row
    )`;
}

type ClaimedRow = {
  bot_id: unknown;
  update_id: unknown;
  chat_id: unknown;
  payload: unknown;
  attempts: unknown;
  user_row: unknown;
  state_row: unknown;
};

function claimedRows(rows: ClaimedRow[], worker: string): ClaimedUpdate[] {
  return rows
    .map((r) => {
      const botId = toNumber(r.bot_id);
      const updateId = toNumber(r.update_id);
      const chatId = toNumber(r.chat_id);
      const state = jsonOf<{ value: unknown; revision: number; applied: boolean }>(r.state_row);
      return {
        botId,
        updateId,
        chatId,
        update: jsonOf<Update>(r.payload)!,
        attempts: toNumber(r.attempts),
        worker,
        applied: state?.applied === true,
        preloaded: {
          chatId,
          user: userFromJson(jsonOf<Record<string, unknown>>(r.user_row)),
          state: state ? { value: state.value, revision: toNumber(state.revision) } : null,
          claim: { botId, updateId, worker },
        },
      };
    })
    .sort((a, b) => a.updateId - b.updateId || a.botId - b.botId);
}

/**
 * marks claimed updates handled, all with the same error (none, mostly) in one statement;
 * answers the ones that were still this worker's (a claim that ran out is not)
 */
export async function finishUpdates(
  db: Executor,
  o: { worker: string; keys: readonly UpdateKey[]; error?: string | undefined },
): Promise<UpdateKey[]> {
  if (o.keys.length === 0) return [];
  const t = telegramUpdates;
  const rows = await db
    .update(t)
    .set({ handledAt: sql`now()`, claimedUntil: null, error: o.error ?? null })
    .where(and(keysIn(o.keys), sql`${t.claimedBy} = ${o.worker} and ${t.handledAt} is null`))
    .returning({ botId: t.botId, updateId: t.updateId });
  return rows;
}

/**
 * gives a claimed update back to be tried again after `delayMs` (by any worker); false
 * when the claim was no longer this worker's
 */
export async function retryUpdate(
  db: Executor,
  o: { worker: string; key: UpdateKey; delayMs: number; error: string },
): Promise<boolean> {
  const t = telegramUpdates;
  const rows = await db
    .update(t)
    .set({
      claimedBy: null,
      claimedUntil: sql`now() + make_interval(secs => ${o.delayMs / 1000})`,
      error: o.error,
    })
    .where(and(keysIn([o.key]), sql`${t.claimedBy} = ${o.worker} and ${t.handledAt} is null`))
    .returning({ id: t.updateId });
  return rows.length > 0;
}

/** renews the lease of claims still being handled */
export async function extendClaims(
  db: Executor,
  o: { worker: string; keys: readonly UpdateKey[]; leaseMs: number },
): Promise<void> {
  if (o.keys.length === 0) return;
  const t = telegramUpdates;
  await db
    .update(t)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${o.leaseMs / 1000})` })
    .where(and(keysIn(o.keys), sql`${t.claimedBy} = ${o.worker} and ${t.handledAt} is null`));
}

/** the workers that hold live claims now */
export async function claimHolders(db: Executor): Promise<string[]> {
  const rows = await db
    .selectDistinct({ worker: telegramUpdates.claimedBy })
    .from(telegramUpdates)
    .where(
      sql`${telegramUpdates.handledAt} is null and ${telegramUpdates.claimedBy} is not null
          and ${telegramUpdates.claimedUntil} > now()`,
    );
  return rows.flatMap((r) => (r.worker === null ? [] : [r.worker]));
}

/** frees the claims of workers that are gone, so their updates run again at once */
export async function freeClaimsOf(db: Executor, workers: readonly string[]): Promise<number> {
  if (workers.length === 0) return 0;
  const rows = await db
    .update(telegramUpdates)
    .set({ claimedBy: null, claimedUntil: null })
    .where(
      and(
        inArray(telegramUpdates.claimedBy, [...workers]),
        sql`${telegramUpdates.handledAt} is null`,
      ),
    )
    .returning({ id: telegramUpdates.updateId });
  return rows.length;
}

export interface InboxStats {
  /** updates stored and not yet handled */
  depth: number;
  /** how long the oldest of them has waited, in seconds (0 when none) */
  oldestAgeSeconds: number;
}

export async function inboxStats(db: Executor): Promise<InboxStats> {
  const result = await db.execute(sql`
    select count(*) as depth,
           coalesce(extract(epoch from now() - min(received_at)), 0) as oldest
    from telegram_updates where handled_at is null`);
  const [row] = rowsOf<{ depth: unknown; oldest: unknown }>(result);
  return { depth: toNumber(row?.depth), oldestAgeSeconds: toNumber(row?.oldest) };
}

/**
 * forgets handled updates received before `before` (Telegram never redelivers after a day).
 * Unhandled ones stay, whatever their age.
 */
export async function pruneHandledUpdates(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(telegramUpdates)
    .where(and(isNotNull(telegramUpdates.handledAt), lt(telegramUpdates.receivedAt, before)))
    .returning({ id: telegramUpdates.updateId });
  return rows.length;
}

/**
 * writes a chat's state and marks its update handled, in one statement, both only while the
 * update's claim is still `worker`'s (design rule 18) and the state still has the revision
 * it was read at. Answers whether the claim was held and whether it was written (and so
 * finished): held but not written is a conflict (another process wrote the chat's state
 * since), and the update stays claimed for a retry.
 */
export async function finishWithState(
  db: Executor,
  o: { worker: string; key: UpdateKey; error?: string | undefined; state: PendingStateWrite },
): Promise<{ held: boolean; finished: boolean }> {
  const { key, state } = o;
  const claim = sql`held as (
      select 1 from telegram_updates t
      where t.bot_id = ${key.botId} and t.update_id = ${key.updateId}
        and t.claimed_by = ${o.worker} and t.handled_at is null
      for update
    )`;
  const write =
    state.revision === 0
      ? sql`insert into bot_state (key, value, revision, bot_id, update_id)
          select ${state.key}, ${state.json}::jsonb, 1, ${key.botId}, ${key.updateId}
          where exists (select 1 from held)
          on conflict do nothing
          returning 1`
      : sql`update bot_state set value = ${state.json}::jsonb, revision = revision + 1,
            updated_at = now(), bot_id = ${key.botId}, update_id = ${key.updateId}
          where key = ${state.key} and revision = ${state.revision}
            and exists (select 1 from held)
          returning 1`;
  const result = await db.execute(sql`
    with ${claim},
    written as (${write}),
    finished as (
      update telegram_updates
      set handled_at = now(), claimed_until = null, error = ${o.error ?? null}
      where bot_id = ${key.botId} and update_id = ${key.updateId}
        and claimed_by = ${o.worker} and handled_at is null
        and exists (select 1 from written)
      returning 1
    )
    select exists (select 1 from held) as held, exists (select 1 from finished) as finished`);
  const [row] = rowsOf<{ held: unknown; finished: unknown }>(result);
  return { held: row?.held === true, finished: row?.finished === true };
}
