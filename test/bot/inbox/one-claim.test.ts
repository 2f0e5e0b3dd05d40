import { DEFAULT_BOT } from "@kios/bot-api-server";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  claimUpdates,
  finishAndClaimUpdates,
  storeAndClaimUpdate,
  storeAndClaimUpdates,
  storeUpdates,
} from "../../../src/bot/storage/updates.ts";
import type { Database } from "../../../src/db/client.ts";
import { rowsOf, toNumber } from "../../../src/db/sql-rows.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { patient } from "../../helpers/patience.ts";
import { textUpdate } from "../../helpers/updates.ts";

// one live claim per chat in the update inbox (docs/scaling.md#the-path-of-an-update): the
// claim query takes only a chat's head, and a statement that stores an update claims it
// only when its chat has nothing waiting. That check reads the statement's snapshot, so two
// processes storing two updates of one chat at the same instant both saw the chat free and
// both claimed: two workers ran one chat side by side. The table now refuses a second
// claim (an exclusion constraint checked at the end of each statement, so a finish that
// hands its chat's claim to the next update in the same statement passes), and the store
// that loses stores its update unclaimed, for the chat's turn.

const BOT = DEFAULT_BOT.id;
const CHAT = 4242;

async function liveClaims(db: Database, chatId: number): Promise<number> {
  const result = await db.execute(sql`select count(*) as n from telegram_updates
    where chat_id = ${chatId} and claimed_by is not null and handled_at is null`);
  return toNumber(rowsOf(result)[0]?.n);
}

describe(`one live claim per chat (${testDriver})`, () => {
  let database: TestDatabase;
  let db: Database;
  beforeEach(async () => {
    database = await createTestDatabase();
    db = database.handle.db;
  });
  afterEach(async () => {
    await database.destroy();
  });

  /** until this many backends wait on a lock (the stores, on the held rows) */
  async function waitingOnLocks(n: number): Promise<void> {
    await vi.waitFor(
      async () => {
        const waiting = await db.execute(sql`select count(*) as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`);
        expect(toNumber(rowsOf(waiting)[0]?.n)).toBe(n);
      },
      { timeout: patient(20_000), interval: 20 },
    );
  }

  /**
   * a transaction holding uncommitted rows of these update ids: a store of one of them waits
   * on it with its snapshot already taken, and goes on once `release` rolls it back
   */
  async function holdKeys(ids: number[]): Promise<() => Promise<void>> {
    let release!: () => void;
    let held!: () => void;
    const holding = new Promise<void>((r) => {
      held = r;
    });
    const rows = sql.join(
      ids.map((id) => sql`(${BOT}, ${id}, 1, 1, '{}'::jsonb)`),
      sql`, `,
    );
    const blocker = db
      .transaction(async (tx) => {
        await tx.execute(
          sql`insert into telegram_updates (bot_id, update_id, chat_id, user_id, payload) values ${rows}`,
        );
        held();
        await new Promise<void>((r) => {
          release = r;
        });
        throw new Error("rolled back on purpose");
      })
      .catch(() => {});
    await holding;
    return async () => {
      release();
      await blocker;
    };
  }

  if (testDriver === "postgres") {
    it("two processes storing two updates of one free chat at the same instant: one claims, the other waits its turn", async () => {
      // both stores start from the same snapshot: a transaction holds rows of their keys
      // (uncommitted), so each store's insert waits on it after its snapshot was taken, and
      // both go on together once it rolls back
      const release = await holdKeys([11, 12]);
      const stores = [11, 12].map((id, i) =>
        storeAndClaimUpdate(db, {
          botId: BOT,
          update: textUpdate(id, CHAT),
          worker: `process-${i}`,
          leaseMs: 30_000,
        }),
      );
      await waitingOnLocks(2);
      await release();
      const results = await Promise.all(stores);
      // both stored, one claimed
      expect(results.map((r) => r.fresh)).toEqual([true, true]);
      expect(results.filter((r) => r.claimed !== undefined)).toHaveLength(1);
      expect(await liveClaims(db, CHAT)).toBe(1);
      // the other comes when the claimed one is finished, in the same statement
      const claimed = results.find((r) => r.claimed)!.claimed!;
      const out = await finishAndClaimUpdates(db, {
        worker: claimed.worker,
        keys: [claimed],
        limit: 5,
        leaseMs: 30_000,
      });
      expect(out.finished).toEqual([{ botId: BOT, updateId: claimed.updateId }]);
      expect(out.claimed.map((c) => c.updateId)).toEqual([claimed.updateId === 11 ? 12 : 11]);
      expect(await liveClaims(db, CHAT)).toBe(1);
    });

    it("a store that saw its chat free while a worker claimed the chat's older update stores its own unclaimed", async () => {
      // the store's snapshot is taken, then it waits (a transaction holds a row of its key)
      const release = await holdKeys([52]);
      const store = storeAndClaimUpdate(db, {
        botId: BOT,
        update: textUpdate(52, CHAT),
        worker: "web-process",
        leaseMs: 30_000,
      });
      await waitingOnLocks(1);
      // meanwhile another process stored the chat's older update and a worker claimed it
      await storeUpdates(db, BOT, [textUpdate(51, CHAT)]);
      const claims = await claimUpdates(db, { worker: "w", limit: 10, leaseMs: 30_000 });
      expect(claims.map((c) => c.updateId)).toEqual([51]);
      await release();
      const stored = await store;
      expect(stored).toEqual({ fresh: true, claimed: undefined });
      expect(await liveClaims(db, CHAT)).toBe(1);
    });

    it("a batch that loses one chat's claim to another process stores all its updates unclaimed", async () => {
      // as above, but one of the two stores is the webhook's group commit: its chats are
      // 4242 (contested) and 4243 (free). Whichever wins, the chat keeps one claim, and a
      // batch that lost stores every one of its updates unclaimed (the retry is whole)
      const release = await holdKeys([61, 63]);
      const batch = storeAndClaimUpdates(db, {
        botId: BOT,
        updates: [textUpdate(61, CHAT), textUpdate(62, CHAT + 1)],
        worker: "batching-process",
        leaseMs: 30_000,
      });
      const single = storeAndClaimUpdate(db, {
        botId: BOT,
        update: textUpdate(63, CHAT),
        worker: "other-process",
        leaseMs: 30_000,
      });
      await waitingOnLocks(2);
      await release();
      const [batched, alone] = await Promise.all([batch, single]);
      expect([...batched!.map((r) => r.fresh), alone.fresh]).toEqual([true, true, true]);
      expect(await liveClaims(db, CHAT)).toBe(1);
      if (alone.claimed) {
        // the batch lost: both its updates stored unclaimed, the free chat's too
        expect(batched!.map((r) => r.claimed)).toEqual([undefined, undefined]);
        expect(await liveClaims(db, CHAT + 1)).toBe(0);
      } else {
        expect(batched!.map((r) => r.claimed?.updateId)).toEqual([61, 62]);
        expect(await liveClaims(db, CHAT + 1)).toBe(1);
      }
    });

    it("the table refuses a second live claim in a chat", async () => {
      await storeUpdates(db, BOT, [textUpdate(21, CHAT), textUpdate(22, CHAT)]);
      await db.execute(sql`update telegram_updates set claimed_by = 'a',
        claimed_until = now() + interval '30 seconds' where update_id = 21`);
      await expect(
        db.execute(sql`update telegram_updates set claimed_by = 'b',
          claimed_until = now() + interval '30 seconds' where update_id = 22`),
      ).rejects.toThrow();
    });
  }

  it("refuses two updates of one chat in one batch", async () => {
    await expect(
      storeAndClaimUpdates(db, {
        botId: BOT,
        updates: [textUpdate(71, CHAT), textUpdate(72, CHAT)],
        worker: "w",
        leaseMs: 30_000,
      }),
    ).rejects.toThrow(/one update of a chat/);
  });

  it("a chat whose newer update holds its claim (stored claimed while an older one arrived) gives no second claim", async () => {
    // the state the race above leaves when the newer update's store won: the older update
    // unclaimed behind a claimed newer one
    await storeUpdates(db, BOT, [textUpdate(31, CHAT)]);
    const stored = await storeAndClaimUpdate(db, {
      botId: BOT,
      update: textUpdate(32, CHAT),
      worker: "busy",
      leaseMs: 30_000,
    });
    expect(stored.claimed).toBeUndefined();
    await db.execute(sql`update telegram_updates set claimed_by = 'p', attempts = 1,
      claimed_until = now() + interval '30 seconds' where update_id = 32`);
    // another chat's head is claimed; this chat gives nothing while its claim is live
    await storeUpdates(db, BOT, [textUpdate(33, CHAT + 1)]);
    const claims = await claimUpdates(db, { worker: "w", limit: 10, leaseMs: 30_000 });
    expect(claims.map((c) => c.updateId)).toEqual([33]);
    expect(await liveClaims(db, CHAT)).toBe(1);
    // its claim run out (a worker that hangs): taken over, still one
    await db.execute(sql`update telegram_updates set claimed_until = now() - interval '1 second'
      where update_id = 32`);
    const taken = await claimUpdates(db, { worker: "w2", limit: 10, leaseMs: 30_000 });
    expect(taken.map((c) => c.updateId)).toEqual([32]);
    // finished, it hands the chat to the older one in the same statement
    const out = await finishAndClaimUpdates(db, {
      worker: "w2",
      keys: [taken[0]!],
      limit: 10,
      leaseMs: 30_000,
    });
    expect(out.claimed.map((c) => c.updateId)).toEqual([31]);
    expect(await liveClaims(db, CHAT)).toBe(1);
  });
});
