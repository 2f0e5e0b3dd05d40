import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock.ts";
import { deliverDue } from "../../../src/commerce/notifications/deliver.ts";
import {
  claimNotifications,
  enqueueNotification,
  type Notification,
} from "../../../src/commerce/notifications/outbox.ts";
import { createSendLimiter } from "../../../src/commerce/notifications/rate-limit.ts";
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

  async function drain(deliver: (n: Notification) => Promise<"sent" | "gone">) {
    return deliverDue({ db: t.handle.db, deliver, limiter: noWait, clock, logger });
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

  it("a claim left by a crashed sender is taken again, marked as recovered", async () => {
    await enqueueNotification(t.handle.db, {
      key: "n4",
      chatId: 4,
      payload: { type: "order_final", orderId: 4, late: true },
    });
    const [claimed] = await claimNotifications(t.handle.db, new Date(clock.now()));
    expect(claimed?.recovered).toBe(false);
    // the process dies here: no markSent
    expect(await claimNotifications(t.handle.db, new Date(clock.now()))).toEqual([]);
    clock.advance(3 * 60_000);
    const [again] = await claimNotifications(t.handle.db, new Date(clock.now()));
    expect(again).toMatchObject({ key: "n4", recovered: true });
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

  it("keeps the total under the global rate across chats", async () => {
    const time = fakeTime();
    const limiter = createSendLimiter({ perSecond: 30, perChatPerSecond: 1 }, time.now, time.sleep);
    for (let chat = 0; chat < 61; chat++) await limiter.wait(chat);
    // 61 messages at 30 a second need at least two seconds
    expect(time.now()).toBeGreaterThanOrEqual(1999);
    expect(time.now()).toBeLessThan(2100);
  });
});
