import { ManualClock } from "@kios/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../../src/commerce/notifications/drain.ts";
import {
  claimNotifications,
  enqueueNotification,
  hasDueNotifications,
  markSent,
  type Notification,
  STALE_CLAIM_MS,
  startSending,
} from "../../../src/commerce/notifications/outbox.ts";
import { createSendLimiter } from "../../../src/commerce/notifications/send-limiter.ts";
import { notifications } from "../../../src/db/schema.ts";
import { createLogger } from "../../../src/logger.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

describe(`notification outbox (${testDriver})`, () => {
  let t: TestDatabase;
  const clock = new ManualClock();
  const logger = createLogger({ level: "silent" });
  const noWait = { wait: async () => {} };
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  async function drain(send: (n: Notification) => Promise<"sent" | "gone">) {
    return drainOutbox({ db: t.handle.db, send, limiter: noWait, clock, logger });
  }

  it("queues a notification once per key and delivers it once", async () => {
    const payload = { type: "broadcast" as const, text: "halo" };
    expect(await enqueueNotification(t.handle.db, { key: "n1", chatId: 1, payload })).toBe(true);
    expect(await enqueueNotification(t.handle.db, { key: "n1", chatId: 1, payload })).toBe(false);
    const seen: string[] = [];
    await drain(async (n) => {
      seen.push(n.key);
      return "sent";
    });
    await drain(async (n) => {
      seen.push(n.key);
      return "sent";
    });
    expect(seen).toEqual(["n1"]);
  });

  it("retries a failed delivery later, with backoff", async () => {
    await enqueueNotification(t.handle.db, {
      key: "n2",
      chatId: 2,
      payload: { type: "broadcast", text: "x" },
    });
    let calls = 0;
    const flaky = async () => {
      calls += 1;
      if (calls === 1) throw new Error("network down");
      return "sent" as const;
    };
    await drain(flaky);
    expect(calls).toBe(1);
    await drain(flaky); // not due yet
    expect(calls).toBe(1);
    clock.advance(5_000);
    await drain(flaky);
    expect(calls).toBe(2);
    const [row] = await t.handle.db.select().from(notifications).where(eq(notifications.key, "n2"));
    expect(row?.status).toBe("sent");
  });

  it("gives up at once on a chat that is gone", async () => {
    await enqueueNotification(t.handle.db, {
      key: "n3",
      chatId: 3,
      payload: { type: "broadcast", text: "x" },
    });
    await drain(async () => "gone");
    clock.advance(60 * 60_000);
    let calls = 0;
    await drain(async () => {
      calls += 1;
      return "sent";
    });
    expect(calls).toBe(0);
    const [row] = await t.handle.db.select().from(notifications).where(eq(notifications.key, "n3"));
    expect(row?.status).toBe("failed");
  });

  it("a claim left by a sender that died mid-send is taken again, marked as recovered", async () => {
    await enqueueNotification(t.handle.db, {
      key: "n4",
      chatId: 4,
      payload: { type: "order_final", orderId: 4, late: true },
    });
    const [claimed] = await claimNotifications(t.handle.db, new Date(clock.now()));
    expect(claimed?.recovered).toBe(false);
    const sending = await startSending(t.handle.db, claimed!, new Date(clock.now()));
    expect(sending).not.toBeNull();
    // the process dies here, mid-send: no markSent, no more heartbeats
    expect(await claimNotifications(t.handle.db, new Date(clock.now()))).toEqual([]);
    clock.advance(STALE_CLAIM_MS + 1);
    const [again] = await claimNotifications(t.handle.db, new Date(clock.now()));
    expect(again).toMatchObject({ key: "n4", recovered: true });
    await markSent(t.handle.db, again!.id, new Date(clock.now()));
  });

  it("a notification claimed but never started comes back as an ordinary one", async () => {
    await enqueueNotification(t.handle.db, {
      key: "n5",
      chatId: 5,
      payload: { type: "order_final", orderId: 5, late: true },
    });
    const [claimed] = await claimNotifications(t.handle.db, new Date(clock.now()));
    expect(claimed?.key).toBe("n5");
    // the process dies before sending it: the reservation lapses, nothing was sent
    expect(await claimNotifications(t.handle.db, new Date(clock.now()))).toEqual([]);
    clock.advance(STALE_CLAIM_MS);
    const [again] = await claimNotifications(t.handle.db, new Date(clock.now()));
    expect(again).toMatchObject({ key: "n5", recovered: false });
    await markSent(t.handle.db, again!.id, new Date(clock.now()));
  });

  it("a live sender's heartbeat keeps a slow send its own", async () => {
    await enqueueNotification(t.handle.db, {
      key: "n6",
      chatId: 6,
      payload: { type: "broadcast", text: "slow" },
    });
    let release!: () => void;
    const slow = new Promise<void>((r) => {
      release = r;
    });
    let started!: () => void;
    const inFlight = new Promise<void>((r) => {
      started = r;
    });
    const draining = drainOutbox(
      {
        db: t.handle.db,
        send: async () => {
          started();
          await slow;
          return "sent";
        },
        limiter: noWait,
        clock,
        logger,
      },
      { heartbeatMs: 20 },
    );
    await inFlight;
    // long past the stale age, but the sender renews its claim: nobody else takes it
    clock.advance(STALE_CLAIM_MS * 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(await claimNotifications(t.handle.db, new Date(clock.now()))).toEqual([]);
    release();
    expect(await draining).toEqual({ handled: 1, more: false });
  });

  it("a drain stops when its time is up and gives back what it did not start", async () => {
    for (let i = 0; i < 3; i++) {
      await enqueueNotification(t.handle.db, {
        key: `b${i}`,
        chatId: 200 + i,
        payload: { type: "broadcast", text: "x" },
      });
    }
    const seen: string[] = [];
    const first = await drainOutbox(
      {
        db: t.handle.db,
        send: async (n) => {
          seen.push(n.key);
          // one send outlasts the whole budget (generous, so a loaded machine still starts one)
          await new Promise((r) => setTimeout(r, 1500));
          return "sent";
        },
        limiter: noWait,
        clock,
        logger,
      },
      // one lane: the budget is what this is about
      { budgetMs: 500, concurrency: 1 },
    );
    expect(first).toEqual({ handled: 1, more: true });
    // the rest are due again at once, as ordinary notifications
    const rest = await claimNotifications(t.handle.db, new Date(clock.now()));
    expect(rest.map((n) => [n.key, n.recovered])).toEqual([
      ["b1", false],
      ["b2", false],
    ]);
    for (const n of rest) await markSent(t.handle.db, n.id, new Date(clock.now()));
    expect(seen).toEqual(["b0"]);
  });

  it("sends to different chats side by side, and each chat's notifications in order", async () => {
    for (const [key, chatId] of [
      ["o1", 310],
      ["r1", 301],
      ["o2", 310],
      ["r2", 302],
      ["r3", 303],
      ["o3", 310],
    ] as const) {
      await enqueueNotification(t.handle.db, {
        key,
        chatId,
        payload: { type: "broadcast", text: key },
      });
    }
    let inFlight = 0;
    let most = 0;
    const events: string[] = [];
    // the first send waits until a second is under way (or 3 s, one at a time)
    let overlapped!: () => void;
    const second = new Promise<void>((r) => {
      overlapped = r;
    });
    const result = await drain(async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (inFlight > 1) overlapped();
      events.push(`start ${n.key}`);
      await Promise.race([second, new Promise((r) => setTimeout(r, 3000))]);
      events.push(`end ${n.key}`);
      inFlight -= 1;
      return "sent";
    });
    expect(result.handled).toBe(6);
    expect(most).toBeGreaterThan(1);
    // chat 310's three, one after another in the order they were queued
    const mine = events.filter((e) => / o\d$/.test(e));
    expect(mine).toEqual(["start o1", "end o1", "start o2", "end o2", "start o3", "end o3"]);
  });

  it("a send that never answers is given up on and later recovered in the safe mode", async () => {
    await enqueueNotification(t.handle.db, {
      key: "n7",
      chatId: 7,
      payload: { type: "broadcast", text: "hang" },
    });
    const result = await drainOutbox(
      {
        db: t.handle.db,
        send: () => new Promise(() => {}),
        limiter: noWait,
        clock,
        logger,
      },
      { maxSendMs: 50 },
    );
    expect(result).toEqual({ handled: 1, more: false });
    expect(await hasDueNotifications(t.handle.db, new Date(clock.now()))).toBe(false);
    clock.advance(STALE_CLAIM_MS + 1);
    expect(await hasDueNotifications(t.handle.db, new Date(clock.now()))).toBe(true);
    const recovered: boolean[] = [];
    await drain(async (n) => {
      recovered.push(n.recovered);
      return "sent";
    });
    expect(recovered).toEqual([true]);
  });

  it("two workers never claim the same notification", async () => {
    for (let i = 0; i < 20; i++) {
      await enqueueNotification(t.handle.db, {
        key: `p${i}`,
        chatId: 100 + i,
        payload: { type: "broadcast", text: "x" },
      });
    }
    const now = new Date(clock.now());
    const [a, b] = await Promise.all([
      claimNotifications(t.handle.db, now, 15),
      claimNotifications(t.handle.db, now, 15),
    ]);
    const keys = [...a, ...b].map((n) => n.key).filter((k) => k.startsWith("p"));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(20);
  });
});

describe("send limiter", () => {
  function fakeTime() {
    let now = 0;
    const sleeps: number[] = [];
    return {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
      },
      sleeps,
    };
  }

  it("spaces messages to one chat a second apart", async () => {
    const time = fakeTime();
    const limiter = createSendLimiter({ perSecond: 30, perChatPerSecond: 1 }, time.now, time.sleep);
    for (let i = 0; i < 3; i++) await limiter.wait(7);
    expect(time.now()).toBe(2000);
  });

  /** time that moves only when every waiter is asleep: to the earliest one's wake-up */
  function virtualTime() {
    let now = 0;
    const timers: { at: number; wake: () => void }[] = [];
    return {
      now: () => now,
      sleep: (ms: number) =>
        new Promise<void>((wake) => {
          timers.push({ at: now + ms, wake });
        }),
      async runUntil(work: Promise<unknown>) {
        let done = false;
        void work.then(() => {
          done = true;
        });
        while (!done) {
          await new Promise((r) => setImmediate(r));
          timers.sort((x, y) => x.at - y.at);
          const next = timers.shift();
          if (!next) continue;
          now = Math.max(now, next.at);
          next.wake();
        }
      },
    };
  }

  it("a chat waiting out its own limit holds back no other chat", async () => {
    const time = virtualTime();
    const limiter = createSendLimiter({ perSecond: 30, perChatPerSecond: 1 }, time.now, time.sleep);
    const sent: Record<string, number> = {};
    const send = (name: string, chat: number) =>
      limiter.wait(chat).then(() => {
        sent[name] = time.now();
      });
    await send("a1", 7);
    // chat 7's next message must wait a second; chat 8's has nothing of its own to wait for
    await time.runUntil(Promise.all([send("a2", 7), send("b1", 8), send("c1", 9)]));
    expect(sent).toEqual({ a1: 0, a2: 1000, b1: expect.any(Number), c1: expect.any(Number) });
    // the global rate's spacing only (30 a second), not chat 7's second
    expect(sent.b1).toBeLessThan(100);
    expect(sent.c1).toBeLessThan(100);
    expect(sent.c1).toBeGreaterThan(sent.b1!);
  });

  it("a chat's message the bot's rate held back keeps its chat's next a second after it", async () => {
    const time = virtualTime();
    const limiter = createSendLimiter({ perSecond: 30, perChatPerSecond: 1 }, time.now, time.sleep);
    const at: number[] = [];
    // 40 other chats first: chat 7's first message goes out only after them (about 1.3 s)
    const others = Array.from({ length: 40 }, (_, chat) => limiter.wait(100 + chat));
    const seven = (async () => {
      for (let i = 0; i < 2; i++) {
        await limiter.wait(7);
        at.push(time.now());
      }
    })();
    await time.runUntil(Promise.all([...others, seven]));
    expect(at[0]).toBeGreaterThan(1300);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(1000);
  });

  it("keeps the total under the global rate across chats", async () => {
    const time = fakeTime();
    const limiter = createSendLimiter({ perSecond: 30, perChatPerSecond: 1 }, time.now, time.sleep);
    for (let chat = 0; chat < 61; chat++) await limiter.wait(chat);
    // 61 messages at 30 a second need at least two seconds
    expect(time.now()).toBeGreaterThanOrEqual(1999);
    expect(time.now()).toBeLessThan(2100);
  });
});
