import { uniformStorage } from "@grammyjs/conversations";
import type { Update } from "@grammyjs/types";
import { DEFAULT_BOT, startBotApiServer } from "@kios/bot-api-server";
import { eq, sql } from "drizzle-orm";
import { Api, type Context } from "grammy";
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  onTestFailed,
} from "vitest";
import {
  createInboxDrain,
  type InboxDrain,
  MAX_UPDATE_ATTEMPTS,
  type UpdateOutcome,
} from "../../../src/bot/inbox/drain.ts";
import { createPoller, type Poller } from "../../../src/bot/inbox/poller.ts";
import { conversationStorage, StateConflictError } from "../../../src/bot/storage/chat-state.ts";
import { preload } from "../../../src/bot/storage/preload.ts";
import {
  adoptUpdates,
  type ClaimedUpdate,
  claimUpdates,
  finishAndClaimUpdates,
  finishUpdates,
  freeClaimsOf,
  inboxStats,
  storeUpdates,
} from "../../../src/bot/storage/updates.ts";
import type { Database, DatabaseHandle } from "../../../src/db/client.ts";
import { botState, telegramUpdates } from "../../../src/db/schema.ts";
import { createLeases, type Leases } from "../../../src/jobs/lease.ts";
import { createLogger } from "../../../src/logger.ts";
import { memorySink } from "../../helpers/app.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { patient } from "../../helpers/patience.ts";
import { textUpdate } from "../../helpers/updates.ts";

// the update inbox: stored before acknowledged, each chat one update at a time and in order
// across workers, a dead worker's updates taken back, retries bounded, one poller at a time.
// On postgres every drain has leases of its own, as separate processes would.

const logger = createLogger({ level: "silent" });
/** the bot the updates come to */
const BOT = DEFAULT_BOT.id;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** a promise and the function that resolves it */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    open = r;
  });
  return { promise, open };
}

/** writes the chat's flow state as the bot does at the end of a claimed update */
async function writeState(db: Database, c: ClaimedUpdate, value: string): Promise<void> {
  preload(c.update, c.preloaded);
  const ctx = { chatId: c.chatId, update: c.update } as unknown as Context;
  const state = uniformStorage(conversationStorage(db, "v1"))(ctx);
  await state.read();
  await state.write({ note: [value] } as never);
}

// ms is a quiet machine's cap: it scales with the load (helpers/patience.ts)
async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + patient(ms);
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(20);
  }
}

describe(`the update inbox (${testDriver})`, () => {
  let database: TestDatabase;
  let db: Database;
  const drains: InboxDrain[] = [];
  const leaseSets: Leases[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
    db = database.handle.db;
  });
  afterEach(async () => {
    for (const d of drains.splice(0)) await d.stop();
    for (const l of leaseSets.splice(0)) await l.close();
    await database.destroy();
  });

  function leasesOf(handle: DatabaseHandle): Leases {
    const l = createLeases(handle);
    leaseSets.push(l);
    return l;
  }

  async function drain(
    handle: (u: Update) => Promise<UpdateOutcome>,
    o: { concurrency?: number; onResult?: (r: string) => void } = {},
  ) {
    const d = createInboxDrain({
      database: database.handle,
      leases: leasesOf(database.handle),
      handle: (claimed) => handle(claimed.update),
      concurrency: o.concurrency ?? 8,
      logger,
      idleMs: 100,
      reclaimMs: 200,
      onResult: o.onResult,
    });
    drains.push(d);
    await d.start();
    return d;
  }

  const unhandled = async () => (await inboxStats(db)).depth;

  it("stores an update once, whole, with its chat; a redelivery is ignored", async () => {
    const u = textUpdate(10, 77);
    expect(await storeUpdates(db, BOT, [u])).toEqual([10]);
    expect(await storeUpdates(db, BOT, [u, textUpdate(11, 78)])).toEqual([11]);
    const [row] = await db.select().from(telegramUpdates).where(eq(telegramUpdates.updateId, 10));
    expect(row?.chatId).toBe(77);
    expect(row?.payload).toEqual(u);
    expect(row?.handledAt).toBeNull();
  });

  it("keys an update by its bot: another bot's update_id of the same number is new", async () => {
    expect(await storeUpdates(db, BOT, [textUpdate(5, 81)])).toEqual([5]);
    // a new token (another bot) on the same database counts its own update_ids
    expect(await storeUpdates(db, BOT + 1, [textUpdate(5, 81, "new bot")])).toEqual([5]);
    expect(await storeUpdates(db, BOT + 1, [textUpdate(5, 81, "new bot")])).toEqual([]);
    const rows = await db.select().from(telegramUpdates).where(eq(telegramUpdates.updateId, 5));
    expect(rows.map((r) => r.botId).sort()).toEqual([BOT, BOT + 1]);
  });

  it("gives rows stored before updates had a bot to the bot that runs now", async () => {
    // bot 0: what the migration gives the rows it finds
    await storeUpdates(db, 0, [textUpdate(3, 83)]);
    expect(await adoptUpdates(db, BOT)).toBe(1);
    // so Telegram's redelivery of it is still recognised
    expect(await storeUpdates(db, BOT, [textUpdate(3, 83)])).toEqual([]);
    expect(await adoptUpdates(db, BOT)).toBe(0);
  });

  it("takes an update_id seen more than a day ago as a new update, not a redelivery", async () => {
    await storeUpdates(db, BOT, [textUpdate(7, 82, "last week")]);
    const [c] = await claimUpdates(db, { worker: "w", limit: 1, leaseMs: 30_000 });
    await finishUpdates(db, { worker: "w", keys: [c!] });
    // within the day: Telegram's redelivery, ignored
    expect(await storeUpdates(db, BOT, [textUpdate(7, 82, "last week")])).toEqual([]);
    // a day on, Telegram (or a restarted local server) uses the id again
    await db
      .update(telegramUpdates)
      .set({ receivedAt: sql`now() - interval '25 hours'` })
      .where(eq(telegramUpdates.updateId, 7));
    expect(await storeUpdates(db, BOT, [textUpdate(7, 82, "today")])).toEqual([7]);
    const [again] = await claimUpdates(db, { worker: "w", limit: 1, leaseMs: 30_000 });
    expect(again?.update.message?.text).toBe("today");
    expect(again?.attempts).toBe(1);
  });

  it("finishes updates and claims the next ones in one go, a chat's next one included", async () => {
    await storeUpdates(db, BOT, [
      textUpdate(40, 901, "first"),
      textUpdate(41, 901, "second"),
      textUpdate(42, 902, "other chat"),
    ]);
    const [first, other] = await claimUpdates(db, { worker: "w", limit: 5, leaseMs: 30_000 });
    expect([first?.updateId, other?.updateId]).toEqual([40, 42]);
    // the chat's second update waits behind its first; the first's finish frees it at once
    const out = await finishAndClaimUpdates(db, {
      worker: "w",
      keys: [first!],
      limit: 5,
      leaseMs: 30_000,
    });
    expect(out.finished).toEqual([{ botId: BOT, updateId: 40 }]);
    expect(out.claimed.map((c) => [c.updateId, c.update.message?.text])).toEqual([[41, "second"]]);
    // a claim that is not the worker's is not finished, and nothing is left to claim
    const none = await finishAndClaimUpdates(db, {
      worker: "someone else",
      keys: [other!],
      limit: 5,
      leaseMs: 30_000,
    });
    expect(none).toEqual({ finished: [], conflicts: [], claimed: [] });
    const done = await finishAndClaimUpdates(db, {
      worker: "w",
      keys: [other!, out.claimed[0]!],
      limit: 0,
      leaseMs: 30_000,
    });
    expect(done.finished).toHaveLength(2);
  });

  it("writes a chat's state in its update's finish, only over the revision read and under a held claim", async () => {
    await storeUpdates(db, BOT, [
      textUpdate(50, 950, "a"),
      textUpdate(51, 951, "b"),
      textUpdate(52, 950, "a's next"),
    ]);
    const [a, b] = await claimUpdates(db, { worker: "w", limit: 5, leaseMs: 30_000 });
    const write = (key: string, note: string, revision: number) => ({
      key,
      json: JSON.stringify({ note: [note] }),
      revision,
    });
    // another process wrote chat 951's state since this worker read it (there was none)
    await db.insert(botState).values({ key: "conv:951", value: { note: ["theirs"] } });
    const out = await finishAndClaimUpdates(db, {
      worker: "w",
      keys: [a!, b!],
      writes: [
        { key: a!, state: write("conv:950", "a", 0) },
        { key: b!, state: write("conv:951", "b", 0) },
      ],
      limit: 5,
      leaseMs: 30_000,
    });
    expect(out.finished).toEqual([{ botId: BOT, updateId: 50 }]);
    // the chat's next update, claimed in the same statement, comes with the state just
    // written (the statement's snapshot alone would show the one before)
    expect(out.claimed.map((c) => [c.updateId, c.preloaded.state])).toEqual([
      [52, { value: { note: ["a"] }, revision: 1 }],
    ]);
    // not finished: still claimed, to be run again on top of what the other wrote
    expect(out.conflicts).toEqual([{ botId: BOT, updateId: 51 }]);
    const states = await db.select().from(botState).where(sql`${botState.key} like 'conv:95%'`);
    const byKey = new Map(states.map((r) => [r.key, r]));
    expect(byKey.get("conv:950")).toMatchObject({
      value: { note: ["a"] },
      revision: 1,
      updateId: 50,
    });
    expect(byKey.get("conv:951")?.value).toEqual({ note: ["theirs"] });
    expect(await unhandled()).toBe(2);
    // over the revision it now has, the write goes through and the update is finished
    const again = await finishAndClaimUpdates(db, {
      worker: "w",
      keys: [b!],
      writes: [{ key: b!, state: write("conv:951", "b", 1) }],
      limit: 0,
      leaseMs: 30_000,
    });
    expect(again.finished).toEqual([{ botId: BOT, updateId: 51 }]);
    expect(await unhandled()).toBe(1);
  });

  it("a finish whose claim was taken back writes no chat state (design rule 18)", async () => {
    await storeUpdates(db, BOT, [textUpdate(60, 960)]);
    const [mine] = await claimUpdates(db, { worker: "slow", limit: 1, leaseMs: 30_000 });
    await freeClaimsOf(db, ["slow"]);
    const out = await finishAndClaimUpdates(db, {
      worker: "slow",
      keys: [mine!],
      writes: [{ key: mine!, state: { key: "conv:960", json: '{"x":1}', revision: 0 } }],
      limit: 0,
      leaseMs: 30_000,
    });
    expect(out).toEqual({ finished: [], conflicts: [], claimed: [] });
    expect(await db.select().from(botState).where(eq(botState.key, "conv:960"))).toEqual([]);
    expect(await unhandled()).toBe(1);
  });

  it("a worker whose claim was taken back writes no chat state", async () => {
    await storeUpdates(db, BOT, [textUpdate(1, 700)]);
    const [mine] = await claimUpdates(db, { worker: "slow", limit: 1, leaseMs: 30_000 });
    // its lease was seen gone: another worker took the update back and is handling it
    await freeClaimsOf(db, ["slow"]);
    const [theirs] = await claimUpdates(db, { worker: "other", limit: 1, leaseMs: 30_000 });
    // the first worker's handling ends meanwhile: its write must not land
    await expect(writeState(db, mine!, "slow")).rejects.toBeInstanceOf(StateConflictError);
    await writeState(db, theirs!, "other");
    await finishUpdates(db, { worker: "other", keys: [theirs!] });
    const [row] = await db.select().from(botState).where(eq(botState.key, "conv:700"));
    expect(JSON.stringify(row?.value)).toContain('"other"');
    expect(JSON.stringify(row?.value)).not.toContain('"slow"');
  });

  it("keeps renewing the claim of an update in hand while it stops", async () => {
    await storeUpdates(db, BOT, [textUpdate(1, 800)]);
    const release = gate();
    const inside = gate();
    let runs = 0;
    const d = createInboxDrain({
      database: database.handle,
      leases: leasesOf(database.handle),
      handle: async () => {
        runs += 1;
        inside.open();
        await release.promise;
        return { kind: "handled" };
      },
      concurrency: 2,
      logger,
      leaseMs: 1500,
      idleMs: 100,
    });
    drains.push(d);
    await d.start();
    await inside.promise;
    const claimOf = async () =>
      (await db.select().from(telegramUpdates).where(eq(telegramUpdates.updateId, 1)))[0]!;
    const before = (await claimOf()).claimedUntil!.getTime();
    const stopping = d.stop();
    // the update is still being handled: its claim must not run out under it
    await until(async () => ((await claimOf()).claimedUntil?.getTime() ?? 0) > before, 10_000);
    release.open();
    await stopping;
    expect((await claimOf()).handledAt).not.toBeNull();
    expect(runs).toBe(1);
  });

  // a lease connection cut under a live worker (a proxy, an idle timeout): only a server has one
  if (testDriver === "postgres") {
    it("a worker whose lease connection drops goes on under a new lease, and what it held commits nothing", async () => {
      const release = gate();
      const inside = gate<ClaimedUpdate>();
      let firstId = "";
      // its first update blocks until told; under a later lease it handles at once
      const slow = createInboxDrain({
        database: database.handle,
        leases: leasesOf(database.handle),
        handle: async (c) => {
          if (c.worker === firstId) {
            inside.open(c);
            await release.promise;
          }
          await writeState(db, c, c.worker);
          return { kind: "handled" };
        },
        concurrency: 4,
        logger,
        idleMs: 100,
        reclaimMs: 200,
      });
      drains.push(slow);
      await slow.start();
      firstId = slow.id;
      await storeUpdates(db, BOT, [textUpdate(1, 900)]);
      const held = await inside.promise;
      // the connection holding its lease is cut: the server drops the lease with it
      await database.handle.executeSql(
        `select pg_terminate_backend(l.pid) from pg_locks l
         where l.locktype = 'advisory' and l.objsubid = 1
           and l.classid = ((hashtextextended('kios.lease:inbox-worker:' || $1, 0) >> 32) & 4294967295)::oid
           and l.objid = (hashtextextended('kios.lease:inbox-worker:' || $1, 0) & 4294967295)::oid`,
        [firstId],
      );
      // it notices, and claims under a new lease from then on; the update the dead lease
      // held is taken back and handled again under the new one
      await until(async () => slow.id !== firstId, 10_000);
      await until(async () => (await unhandled()) === 0, 10_000);
      const [done] = await db.select().from(telegramUpdates).where(eq(telegramUpdates.updateId, 1));
      expect(done?.claimedBy).not.toBe(firstId);
      // the first handling ends only now: neither its state nor its "handled" lands
      release.open();
      await until(async () => slow.inFlight === 0, 10_000);
      const [row] = await db.select().from(botState).where(eq(botState.key, "conv:900"));
      expect(JSON.stringify(row?.value)).toContain(slow.id);
      expect(JSON.stringify(row?.value)).not.toContain(firstId);
      expect(held.worker).toBe(firstId);
    });
  }

  it("claims only the oldest unhandled update of each chat, and never one claimed alive", async () => {
    await storeUpdates(db, BOT, [
      textUpdate(1, 100),
      textUpdate(2, 100),
      textUpdate(3, 200),
      textUpdate(4, 100),
    ]);
    const a = await claimUpdates(db, { worker: "a", limit: 10, leaseMs: 30_000 });
    expect(a.map((c) => c.updateId)).toEqual([1, 3]);
    const b = await claimUpdates(db, { worker: "b", limit: 10, leaseMs: 30_000 });
    expect(b).toEqual([]);
  });

  it("handles every chat's updates in order, one at a time, across workers", async () => {
    const chats = 12;
    const perChat = 15;
    const updates: Update[] = [];
    let id = 1000;
    for (let i = 0; i < perChat; i++) {
      for (let c = 0; c < chats; c++) updates.push(textUpdate(id++, 5000 + c));
    }
    const seen = new Map<number, number[]>();
    const busy = new Set<number>();
    let overlaps = 0;
    const handle = async (u: Update): Promise<UpdateOutcome> => {
      const chat = u.message!.chat.id;
      if (busy.has(chat)) overlaps++;
      busy.add(chat);
      await sleep(Math.random() * 8);
      seen.set(chat, [...(seen.get(chat) ?? []), u.update_id]);
      busy.delete(chat);
      return { kind: "handled" };
    };
    await drain(handle, { concurrency: 4 });
    await drain(handle, { concurrency: 4 });
    await drain(handle, { concurrency: 4 });
    // arriving in several batches while the workers run
    for (let i = 0; i < updates.length; i += 20) {
      await storeUpdates(db, BOT, updates.slice(i, i + 20));
      await sleep(5);
    }
    await until(async () => (await unhandled()) === 0);
    expect(overlaps).toBe(0);
    for (let c = 0; c < chats; c++) {
      const expected = updates
        .filter((u) => u.message!.chat.id === 5000 + c)
        .map((u) => u.update_id);
      expect(seen.get(5000 + c)).toEqual(expected);
    }
  });

  it("takes back the claims of a worker that is gone, at once", async () => {
    await storeUpdates(db, BOT, [textUpdate(1, 300), textUpdate(2, 300)]);
    // claimed by a worker whose lease nobody holds: its process died
    expect(await claimUpdates(db, { worker: "ghost", limit: 10, leaseMs: 600_000 })).toHaveLength(
      1,
    );
    const handled: number[] = [];
    await drain(async (u) => {
      handled.push(u.update_id);
      return { kind: "handled" };
    });
    await until(async () => (await unhandled()) === 0, 5000);
    expect(handled).toEqual([1, 2]);
    const [row] = await db.select().from(telegramUpdates).where(eq(telegramUpdates.updateId, 1));
    expect(row?.attempts).toBe(2);
  });

  it("tries an update again when it asks to, and records its error when it fails", async () => {
    await storeUpdates(db, BOT, [textUpdate(1, 400), textUpdate(2, 400), textUpdate(3, 401)]);
    const calls: number[] = [];
    const results: string[] = [];
    await drain(
      async (u) => {
        calls.push(u.update_id);
        if (u.update_id === 1 && calls.filter((c) => c === 1).length === 1) {
          return { kind: "retry", error: "state conflict" };
        }
        if (u.update_id === 3) return { kind: "handled", error: "boom" };
        return { kind: "handled" };
      },
      { onResult: (r) => results.push(r) },
    );
    await until(async () => (await unhandled()) === 0, 5000);
    // update 2 waited for update 1's retry: its chat's order holds
    expect(calls.filter((c) => c !== 3)).toEqual([1, 1, 2]);
    const rows = await db.select().from(telegramUpdates);
    expect(rows.find((r) => r.updateId === 3)?.error).toBe("boom");
    expect(rows.find((r) => r.updateId === 1)?.attempts).toBe(2);
    expect(results.sort()).toEqual(["failed", "handled", "handled", "retried"]);
  });

  it("gives up on an update whose workers keep dying, without running it again", async () => {
    await storeUpdates(db, BOT, [textUpdate(1, 500), textUpdate(2, 500)]);
    for (let i = 0; i < MAX_UPDATE_ATTEMPTS; i++) {
      await claimUpdates(db, { worker: "doomed", limit: 1, leaseMs: 600_000 });
      await freeClaimsOf(db, ["doomed"]);
    }
    const calls: number[] = [];
    await drain(async (u) => {
      calls.push(u.update_id);
      return { kind: "handled" };
    });
    await until(async () => (await unhandled()) === 0, 5000);
    expect(calls).toEqual([2]);
    const [row] = await db.select().from(telegramUpdates).where(eq(telegramUpdates.updateId, 1));
    expect(row?.error).toMatch(/gave up/);
  });

  it("wakes an idle worker as soon as an update is stored", async () => {
    const at: number[] = [];
    const d = createInboxDrain({
      database: database.handle,
      leases: leasesOf(database.handle),
      handle: async () => {
        at.push(Date.now());
        return { kind: "handled" };
      },
      concurrency: 2,
      logger,
      // without the notification it would look only after a minute
      idleMs: 60_000,
    });
    drains.push(d);
    await d.start();
    await sleep(100);
    const stored = Date.now();
    await storeUpdates(db, BOT, [textUpdate(1, 600)]);
    await until(async () => at.length === 1, 5000);
    expect(at[0]! - stored).toBeLessThan(5000);
  });
});

describe(`polling into the inbox (${testDriver})`, () => {
  let database: TestDatabase;
  let telegram: Awaited<ReturnType<typeof startBotApiServer>>;
  const pollers: Poller[] = [];
  const leaseSets: Leases[] = [];

  beforeAll(async () => {
    telegram = await startBotApiServer({ rateLimits: { enabled: false } });
  });
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const p of pollers.splice(0)) await p.stop();
    for (const l of leaseSets.splice(0)) await l.close();
    await database.destroy();
  });
  afterAll(async () => {
    await telegram?.close();
  });

  function poller(db: Database = database.handle.db) {
    const leases = createLeases(database.handle);
    leaseSets.push(leases);
    // what the poller said, shown if the test fails (a PostgreSQL run under load once timed
    // out here with nothing to say why)
    const said = memorySink();
    onTestFailed(() => console.error(`the poller's log:\n${said.text()}`));
    const p = createPoller({
      api: new Api(DEFAULT_BOT.token, { apiRoot: telegram.url }),
      db,
      leases,
      logger: createLogger({ level: "debug", destination: said.stream }),
      timeoutSeconds: 1,
      electionMs: 200,
    });
    pollers.push(p);
    p.start();
    return p;
  }

  const stored = async () =>
    (await database.handle.db.select().from(telegramUpdates)).map((r) => r.updateId);

  it("polls from one process at a time; another takes over when it stops", async () => {
    const a = poller();
    await until(async () => a.polling, 5000);
    const b = poller();
    await sleep(600);
    expect(b.polling).toBe(false);
    telegram.user(9101, { first_name: "Ani" });
    telegram.sendText(9101, "hai");
    await until(async () => (await stored()).length === 1, 5000);
    await a.stop();
    await until(async () => b.polling, 5000);
    telegram.sendText(9101, "lagi");
    await until(async () => (await stored()).length === 2, 5000);
  });

  // a lease connection cut under a live poller: only a server has one
  if (testDriver === "postgres") {
    it("a poller whose lease connection drops stops, and polls again only under a new lease", async () => {
      const holder = async () => {
        const { rows } = await database.handle.executeSql(
          `select l.pid from pg_locks l
           where l.locktype = 'advisory' and l.objsubid = 1 and l.granted
             and l.classid = ((hashtextextended('kios.lease:telegram-poller', 0) >> 32) & 4294967295)::oid
             and l.objid = (hashtextextended('kios.lease:telegram-poller', 0) & 4294967295)::oid`,
        );
        return rows[0] === undefined ? undefined : Number(rows[0].pid);
      };
      const a = poller();
      await until(async () => a.polling, 5000);
      const first = await holder();
      expect(first).toBeDefined();
      await database.handle.executeSql("select pg_terminate_backend($1)", [first]);
      // it polls again only once it holds the lease again, on another connection
      await until(async () => {
        const now = await holder();
        return now !== undefined && now !== first;
      }, 10_000);
      await until(async () => a.polling, 5000);
      telegram.user(9103, { first_name: "Citra" });
      telegram.sendText(9103, "masih ada?");
      await until(async () => (await stored()).length === 1, 5000);
    });
  }

  it("a message jsonb cannot hold (a NUL, a lone surrogate) does not stop the poller: stored as U+FFFD, and what follows too", async () => {
    telegram.user(9104, { first_name: "Dewi" });
    telegram.sendText(9104, "a\u0000b");
    telegram.sendText(9104, "c\ud800d");
    telegram.sendText(9104, "lagi");
    poller();
    await until(async () => (await stored()).length === 3, 10_000);
    const rows = await database.handle.db
      .select({ payload: telegramUpdates.payload })
      .from(telegramUpdates)
      .orderBy(telegramUpdates.updateId);
    expect(rows.map((r) => (r.payload as Update).message?.text)).toEqual([
      "a\uFFFDb",
      "c\uFFFDd",
      "lagi",
    ]);
  });

  it("confirms a batch to Telegram only after storing it", async () => {
    const real = database.handle.db;
    let failures = 1;
    // the first insert fails, as a database that is briefly down would
    const flaky = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === "insert" && failures > 0) {
          failures--;
          return () => {
            throw new Error("database unavailable");
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    telegram.user(9102, { first_name: "Budi" });
    telegram.sendText(9102, "satu");
    telegram.sendText(9102, "dua");
    poller(flaky);
    await until(async () => (await stored()).length === 2, 10_000);
    expect(failures).toBe(0);
  });
});
