import type { Update } from "@grammyjs/types";
import { DEFAULT_BOT } from "@kios/bot-api-server";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { InboxDrain } from "../../../src/bot/inbox/drain.ts";
import {
  createStoreCommits,
  MAX_UPDATES_PER_COMMIT,
} from "../../../src/bot/inbox/store-commits.ts";
import type { ClaimedUpdate } from "../../../src/bot/storage/updates.ts";
import type { Database } from "../../../src/db/client.ts";
import { rowsOf, toNumber } from "../../../src/db/sql-rows.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { textUpdate } from "../../helpers/updates.ts";

// the webhook's group commit (src/bot/inbox/store-commits.ts): deliveries that arrive while a
// store is in flight share the next statement; each is answered once its own statement has
// committed; a chat's deliveries keep their order; one update the database refuses does not
// fail the others.

const BOT = DEFAULT_BOT.id;

interface Event {
  kind: "committed" | "answered";
  ids: number[];
}

describe(`the webhook's group commit (${testDriver})`, () => {
  let database: TestDatabase;
  let db: Database;
  let events: Event[];
  let adopted: ClaimedUpdate[];
  let room: number;
  /** the next statement waits for this to open before it is sent */
  let nextGate: { open: Promise<void>; entered(): void } | undefined;

  beforeEach(async () => {
    database = await createTestDatabase();
    db = database.handle.db;
    events = [];
    adopted = [];
    room = 1000;
    nextGate = undefined;
  });
  afterEach(async () => {
    await database.destroy();
  });

  /** the database, telling of each statement the store sends once it has returned */
  function watched(): Database {
    return new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "execute") {
          return async (query: Parameters<Database["execute"]>[0]) => {
            const gate = nextGate;
            nextGate = undefined;
            if (gate) {
              gate.entered();
              await gate.open;
            }
            const result = await target.execute(query);
            const ids = rowsOf<{ update_id: unknown }>(result).map((r) => toNumber(r.update_id));
            events.push({ kind: "committed", ids });
            return result;
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
  }

  const inbox: Pick<InboxDrain, "intake" | "adopt"> = {
    intake: () => ({ worker: "this-process", leaseMs: 30_000, room }),
    adopt: (c) => {
      adopted.push(c);
    },
  };

  function commits() {
    return createStoreCommits({ db: watched(), botId: BOT, inbox });
  }

  /** stores an update, telling when its store answered */
  async function store(c: ReturnType<typeof commits>, update: Update): Promise<boolean> {
    const fresh = await c.store(update);
    events.push({ kind: "answered", ids: [update.update_id] });
    return fresh;
  }

  const statements = () => events.filter((e) => e.kind === "committed");

  async function claimsOf(): Promise<Map<number, string | null>> {
    const result = await db.execute(
      sql`select update_id, claimed_by from telegram_updates order by update_id`,
    );
    return new Map(
      rowsOf<{ update_id: unknown; claimed_by: string | null }>(result).map((r) => [
        toNumber(r.update_id),
        r.claimed_by,
      ]),
    );
  }

  it("a burst from forty chats is stored in one statement, each delivery answered after its commit", async () => {
    const c = commits();
    const burst = Array.from({ length: 40 }, (_, i) => textUpdate(1_000 + i, 5_000 + i));
    const fresh = await Promise.all(burst.map((u) => store(c, u)));
    expect(fresh).toEqual(burst.map(() => true));
    // all came in the same turn of the loop: one statement
    expect(statements().map((e) => e.ids.length)).toEqual([40]);
    for (const u of burst) {
      const committed = events.findIndex(
        (e) => e.kind === "committed" && e.ids.includes(u.update_id),
      );
      const answered = events.findIndex((e) => e.kind === "answered" && e.ids[0] === u.update_id);
      expect(committed).toBeGreaterThanOrEqual(0);
      expect(answered).toBeGreaterThan(committed);
    }
    // every chat was free: all stored claimed for this process, and handed to its drain
    const claims = await claimsOf();
    expect([...claims.values()]).toEqual(burst.map(() => "this-process"));
    expect(adopted.map((a) => a.updateId).sort()).toEqual(burst.map((u) => u.update_id));
    expect(adopted.every((a) => a.attempts === 1 && a.preloaded.chatId === a.chatId)).toBe(true);
  });

  it("deliveries that arrive while a store is in flight share the next statement", async () => {
    let open!: () => void;
    let entered!: () => void;
    const inFlight = new Promise<void>((r) => {
      entered = r;
    });
    nextGate = {
      open: new Promise<void>((r) => {
        open = r;
      }),
      entered,
    };
    const c = commits();
    const first = store(c, textUpdate(1_501, 5_501));
    await inFlight;
    const later = [2, 3, 4].map((i) => store(c, textUpdate(1_500 + i, 5_500 + i)));
    open();
    expect(await Promise.all([first, ...later])).toEqual([true, true, true, true]);
    expect(statements().map((e) => e.ids)).toEqual([[1_501], [1_502, 1_503, 1_504]]);
  });

  it(`a statement takes at most ${MAX_UPDATES_PER_COMMIT} updates`, async () => {
    const c = commits();
    const burst = Array.from({ length: 150 }, (_, i) => textUpdate(2_000 + i, 6_000 + i));
    await Promise.all(burst.map((u) => store(c, u)));
    expect(statements().map((e) => e.ids.length)).toEqual([64, 64, 22]);
  });

  it("claims no more than the drain has room for; the rest are stored for any worker", async () => {
    room = 3;
    const c = commits();
    const burst = Array.from({ length: 6 }, (_, i) => textUpdate(3_000 + i, 7_000 + i));
    expect(await Promise.all(burst.map((u) => store(c, u)))).toEqual(burst.map(() => true));
    const claims = await claimsOf();
    expect([...claims.values()]).toEqual([
      "this-process",
      "this-process",
      "this-process",
      null,
      null,
      null,
    ]);
    expect(adopted).toHaveLength(3);
  });

  it("keeps a chat's deliveries in order: the second waits for the first's commit and stays behind it", async () => {
    const c = commits();
    const chat = 8_100;
    const other = 8_200;
    const all = [
      textUpdate(4_001, chat),
      textUpdate(4_002, chat),
      textUpdate(4_003, chat),
      textUpdate(4_004, other),
    ];
    await Promise.all(all.map((u) => store(c, u)));
    // one update of a chat per statement, so none overtakes the one before it
    expect(statements().map((e) => e.ids)).toEqual([[4_001, 4_004], [4_002], [4_003]]);
    const claims = await claimsOf();
    // the chat's first is claimed; its later ones wait behind it, for its finish to claim
    expect(Object.fromEntries(claims)).toEqual({
      4001: "this-process",
      4002: null,
      4003: null,
      4004: "this-process",
    });
  });

  it("acknowledges a redelivery, in the same batch as new updates, without storing it twice", async () => {
    const c = commits();
    await store(c, textUpdate(5_001, 9_001));
    const again = await Promise.all([
      store(c, textUpdate(5_002, 9_002)),
      store(c, textUpdate(5_001, 9_001)),
      store(c, textUpdate(5_003, 9_003)),
    ]);
    expect(again).toEqual([true, false, true]);
    expect([...(await claimsOf()).keys()]).toEqual([5_001, 5_002, 5_003]);
    expect(adopted.map((a) => a.updateId)).toEqual([5_001, 5_002, 5_003]);
  });

  it("an update the database refuses fails its own delivery only; the others in its statement are stored", async () => {
    const c = commits();
    const first = store(c, textUpdate(6_001, 9_101));
    // a chat id past bigint: PostgreSQL refuses the whole statement
    const refused = store(c, textUpdate(6_002, 2 ** 64));
    const others = [store(c, textUpdate(6_003, 9_103)), store(c, textUpdate(6_004, 9_104))];
    expect(await first).toBe(true);
    await expect(refused).rejects.toThrow();
    expect(await Promise.all(others)).toEqual([true, true]);
    expect([...(await claimsOf()).keys()]).toEqual([6_001, 6_003, 6_004]);
  });

  it("a database that is away fails a batch's deliveries together, not with a statement each", async () => {
    let sent = 0;
    const away = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === "execute") {
          return async () => {
            sent += 1;
            // what postgres.js says of a lost connection: no SQLSTATE
            throw Object.assign(new Error("write CONNECTION_CLOSED"), {
              code: "CONNECTION_CLOSED",
            });
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const c = createStoreCommits({ db: away, botId: BOT, inbox });
    const burst = [6_201, 6_202, 6_203].map((id, i) => c.store(textUpdate(id, 9_201 + i)));
    for (const delivery of burst) await expect(delivery).rejects.toThrow(/CONNECTION_CLOSED/);
    expect(sent).toBe(1);
  });

  it("stores an update whose strings jsonb cannot hold (a NUL, a lone surrogate), as U+FFFD, claimed", async () => {
    const c = commits();
    const tap: Update = {
      update_id: 6_102,
      callback_query: {
        id: "q1",
        chat_instance: "ci",
        from: { id: 9_112, is_bot: false, first_name: "T" },
        // a modified client chooses its callback data
        data: "pay:\u0000\ud800",
      },
    };
    const stored = await Promise.all([
      store(c, textUpdate(6_101, 9_111, "a\u0000b\udc00c 😀")),
      store(c, tap),
    ]);
    expect(stored).toEqual([true, true]);
    expect(statements()).toHaveLength(1);
    expect(adopted.map((a) => a.updateId)).toEqual([6_101, 6_102]);
    expect(adopted[0]?.update.message?.text).toBe("a\uFFFDb\uFFFDc 😀");
    expect(adopted[1]?.update.callback_query?.data).toBe("pay:\uFFFD\uFFFD");
  });

  it("stores unclaimed when this process has no drain to hand them to", async () => {
    const c = createStoreCommits({ db, botId: BOT });
    const burst = Array.from({ length: 5 }, (_, i) => textUpdate(7_000 + i, 9_200 + i));
    expect(await Promise.all(burst.map((u) => c.store(u)))).toEqual(burst.map(() => true));
    expect(await c.store(burst[0]!)).toBe(false);
    expect([...(await claimsOf()).values()]).toEqual(burst.map(() => null));
  });
});
