import type { Update } from "@grammyjs/types";
import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import { listen, ManualClock, type RunningServer } from "@kios/kit";
import { count } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { KiosBot } from "../../../src/bot/context.ts";
import type { BotDeps } from "../../../src/bot/deps.ts";
import { createInboxDrain, type InboxDrain } from "../../../src/bot/inbox/drain.ts";
import { updateHandler } from "../../../src/bot/inbox/handle.ts";
import { createUpdatePipeline } from "../../../src/bot/inbox/pipeline.ts";
import {
  createTelegramWebhookRoute,
  SECRET_HEADER,
  setTelegramWebhook,
} from "../../../src/bot/inbox/webhook.ts";
import { createBot } from "../../../src/bot/index.ts";
import { botIdOfToken, inboxStats, pruneHandledUpdates } from "../../../src/bot/storage/updates.ts";
import type { OrderEngine } from "../../../src/commerce/orders/engine.ts";
import type { Database } from "../../../src/db/client.ts";
import { telegramUpdates } from "../../../src/db/schema.ts";
import { createLeases, type Leases } from "../../../src/jobs/lease.ts";
import { createLogger } from "../../../src/logger.ts";
import { createServer } from "../../../src/server/create-server.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/db.ts";
import { createFakeSupplier } from "../../helpers/fake-supplier.ts";

// webhook mode: the secret token, one handling per update_id across instances, a flow
// that moves between instances; and polling into the inbox starting and stopping cleanly.

const SECRET = "webhook-secret-for-tests";

describe("webhook and polling", () => {
  let database: TestDatabase;
  let telegram: RunningBotApiServer;
  let deps: BotDeps;
  let leases: Leases;
  const servers: RunningServer[] = [];
  const pipelines: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    leases = createLeases(database.handle);
    telegram = await startBotApiServer({ rateLimits: { enabled: false } });
    const logger = createLogger({ level: "silent" });
    const clock = new ManualClock();
    const supplier = createFakeSupplier();
    const orders: OrderEngine = { db: database.handle.db, supplier, clock, logger, testing: false };
    deps = {
      token: DEFAULT_BOT.token,
      apiRoot: telegram.url,
      logger,
      db: orders.db,
      clock,
      config: { adminIds: [], supplierTesting: false },
      orders,
    };
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    for (const p of pipelines.splice(0)) await p.stop();
  });
  afterAll(async () => {
    await leases?.close();
    await telegram?.close();
    await database?.destroy();
  });

  /** the HTTP server with this webhook route, on a free port */
  async function serve(route: ReturnType<typeof createTelegramWebhookRoute>) {
    const http = createServer({
      logger: deps.logger,
      health: async () => ({ ok: true, checks: {} }),
      routes: [route],
    });
    const server = await listen(http, 0, "127.0.0.1");
    servers.push(server);
    return server;
  }

  /** a web process: the webhook route alone on its own server (no drain) */
  async function webRoute(path: string, db: Database = deps.orders.db) {
    const route = createTelegramWebhookRoute({
      secret: SECRET,
      path,
      botId: botIdOfToken(deps.token),
      db,
    });
    const server = await serve(route);
    return { server, url: `http://127.0.0.1:${server.port}/telegram/${path}` };
  }

  /** one instance: the HTTP server's webhook route, and a worker draining the inbox */
  async function instance(path = "hook") {
    const bot = createBot(deps);
    const pipeline = createUpdatePipeline({
      bot,
      database: database.handle,
      leases,
      logger: deps.logger,
      concurrency: 4,
      poll: false,
    });
    await pipeline.start();
    pipelines.push(pipeline);
    return { bot, url: (await webRoute(path)).url };
  }

  /** until the inbox is empty: every stored update handled */
  async function handled() {
    for (let i = 0; i < 200; i++) {
      if ((await inboxStats(deps.orders.db)).depth === 0) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("the inbox did not drain");
  }

  function update(id: number, text: string, userId = 8001): Update {
    return {
      update_id: id,
      message: {
        message_id: id,
        date: Math.floor(Date.now() / 1000),
        chat: { id: userId, type: "private", first_name: "Web" },
        from: { id: userId, is_bot: false, first_name: "Web" },
        text,
        ...(text.startsWith("/")
          ? { entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }] }
          : {}),
      },
    };
  }

  async function post(url: string, body: unknown, secret: string | null = SECRET) {
    return fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(secret === null ? {} : { [SECRET_HEADER]: secret }),
      },
      body: JSON.stringify(body),
    });
  }

  it("refuses a missing or wrong secret token with 401 and records nothing", async () => {
    const { url } = await instance();
    expect((await post(url, update(1, "/start"), null)).status).toBe(401);
    expect((await post(url, update(1, "/start"), "wrong")).status).toBe(401);
    expect((await post(url, update(1, "/start"), `${SECRET}x`)).status).toBe(401);
    const [row] = await deps.orders.db.select({ n: count() }).from(telegramUpdates);
    expect(row?.n).toBe(0);
    expect((await post(url, { hello: 1 })).status).toBe(400);
  });

  it("acknowledges an update only once it is stored, for any worker to handle later", async () => {
    // a web process alone: it stores and answers; nothing handles the update yet
    const { server, url: webOnly } = await webRoute("web-only");
    telegram.user(8010, { first_name: "Hana" });
    telegram.sendText(8010, "hai");
    const res = await post(webOnly, update(900_201, "/start", 8010));
    expect(res.status).toBe(200);
    expect((await inboxStats(deps.orders.db)).depth).toBe(1);
    // the web process is gone; a worker started afterwards handles what it acknowledged
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    await instance("worker-later");
    await handled();
    const bot = telegram.messages(8010).messages.filter((m) => m.sender === "bot");
    expect(bot.at(-1)?.text).toMatch(/^Halo Web!/);
  });

  it("reads an update sent chunked (no length declared) as one sent with its length", async () => {
    const { url } = await webRoute("chunked");
    const text = JSON.stringify(update(900_301, "/start", 8011));
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", [SECRET_HEADER]: SECRET },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text.slice(0, 20)));
          controller.enqueue(new TextEncoder().encode(text.slice(20)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(200);
    expect((await post(url, update(900_302, "/start", 8012))).status).toBe(200);
    expect((await post(url, "{not json")).status).toBe(400);
    const stored = await deps.orders.db
      .select({ id: telegramUpdates.updateId })
      .from(telegramUpdates);
    expect(stored.map((r) => r.id)).toEqual(expect.arrayContaining([900_301, 900_302]));
  });

  it("answers 500 when the update cannot be stored, so Telegram sends it again", async () => {
    const failing = new Proxy(deps.orders.db, {
      get(target, prop, receiver) {
        if (prop === "insert") {
          return () => {
            throw new Error("database unavailable");
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const { url } = await webRoute("down", failing);
    const res = await post(url, update(900_301, "/start", 8011));
    expect(res.status).toBe(500);
  });

  it("serves users through Telegram's webhook delivery", async () => {
    const one = await instance();
    await setTelegramWebhook(one.bot, { url: one.url, secret: SECRET });
    telegram.user(8002, { first_name: "Dewi" });
    telegram.sendText(8002, "/start");
    const chat = await telegram.waitFor(8002, (c) => c.messages.length === 2);
    expect(chat.messages[1]!.text).toMatch(/^Halo Dewi!/);
    await one.bot.api.deleteWebhook();
  });

  it("handles an update_id once, whichever instance gets it", async () => {
    const a = await instance("a");
    const b = await instance("b");
    telegram.user(8003, { first_name: "Eko" });
    telegram.sendText(8003, "hai");
    const u = update(900_001, "/start", 8003);
    const replies = await Promise.all([post(a.url, u), post(b.url, u), post(a.url, u)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    await handled();
    const chat = telegram.messages(8003);
    expect(chat.messages.filter((m) => m.sender === "bot")).toHaveLength(1);
    expect(
      await pruneHandledUpdates(deps.orders.db, new Date(Date.now() + 60_000)),
    ).toBeGreaterThan(0);
  });

  it("a flow started on one instance continues on another (state in the database)", async () => {
    const a = await instance("x");
    const b = await instance("y");
    telegram.user(8004, { first_name: "Fajar" });
    telegram.sendText(8004, "hai");
    await post(a.url, update(900_101, "/deposit", 8004));
    await handled();
    let chat = telegram.messages(8004);
    expect(chat.messages.at(-1)!.text).toMatch(/Mau isi saldo berapa/);
    await post(b.url, update(900_102, "sepuluh", 8004));
    await handled();
    chat = telegram.messages(8004);
    expect(chat.messages.at(-1)!.text).toMatch(/^Jumlah tidak valid/);
    await post(a.url, update(900_103, "/cancel", 8004));
    await handled();
    expect(telegram.messages(8004).messages.at(-1)!.text).toBe("Dibatalkan.");
  });

  /**
   * a process that drains the inbox and serves the webhook (role "all"), whose drain no
   * notification wakes and which looks for work only every ten minutes: an update reaches
   * its handler here only through the webhook's own claim, or the finish of the chat's
   * update before it
   */
  async function quietAll(path: string, db: Database = deps.orders.db) {
    const bot = createBot(deps);
    await bot.init();
    const drain: InboxDrain = createInboxDrain({
      database: { ...database.handle, listen: async () => async () => {} },
      leases,
      handle: updateHandler(bot),
      concurrency: 4,
      logger: deps.logger,
      idleMs: 600_000,
      reclaimMs: 600_000,
    });
    await drain.start();
    pipelines.push(drain);
    const route = createTelegramWebhookRoute({
      secret: SECRET,
      path,
      botId: botIdOfToken(deps.token),
      db,
      inbox: drain,
    });
    const server = await serve(route);
    return Object.assign(`http://127.0.0.1:${server.port}/telegram/${path}`, { route });
  }

  it("handles an update in the process that stored it, with no wake-up or claim of its own", async () => {
    const url = await quietAll("all-1");
    telegram.user(8020, { first_name: "Gita" });
    telegram.sendText(8020, "hai");
    expect((await post(url, update(900_401, "/start", 8020))).status).toBe(200);
    const chat = await telegram.waitFor(8020, (c) => c.messages.length === 2, 20_000);
    expect(chat.messages[1]!.text).toMatch(/^Halo Web!/);
    await handled();
  });

  it("keeps a chat's updates in order, one at a time, when they arrive together", async () => {
    const url = await quietAll("all-2");
    telegram.user(8021, { first_name: "Hadi" });
    telegram.sendText(8021, "hai");
    // the second is stored while the first is in hand: it waits for the first's finish,
    // which claims it in the same statement
    const replies = await Promise.all([
      post(url, update(900_501, "/deposit", 8021)),
      post(url, update(900_502, "sepuluh", 8021)),
      post(url, update(900_503, "/cancel", 8021)),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const chat = await telegram.waitFor(
      8021,
      (c) => c.messages.at(-1)?.text === "Dibatalkan.",
      20_000,
    );
    const texts = chat.messages.filter((m) => m.sender === "bot").map((m) => m.text);
    const asked = texts.findIndex((t) => /Mau isi saldo berapa/.test(t ?? ""));
    const refused = texts.findIndex((t) => /^Jumlah tidak valid/.test(t ?? ""));
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(refused).toBeGreaterThan(asked);
    // each ran on the state the one before it left: none was taken for stray text
    expect(texts.filter((t) => /belum paham/.test(t ?? ""))).toEqual([]);
    expect(texts.at(-1)).toBe("Dibatalkan.");
    await handled();
  });

  it("stores a burst of forty users' first updates in a few statements, and answers them all", async () => {
    // the closed loop's opening burst: every user's first POST at once. Stored one statement
    // after another (on PGlite, one at a time), the last waited for all the others' commits
    let stores = 0;
    const counting = new Proxy(deps.orders.db, {
      get(target, prop, receiver) {
        if (prop === "execute" || prop === "insert") stores++;
        return Reflect.get(target, prop, receiver);
      },
    });
    const { route } = await quietAll("all-burst", counting);
    const users = Array.from({ length: 40 }, (_, i) => 8_300 + i);
    for (const id of users) {
      telegram.user(id, { first_name: "Burst" });
      telegram.sendText(id, "hai");
    }
    // all forty handed to the route in one turn of the loop, as one poll of forty sockets
    const replies = await Promise.all(
      users.map((id, i) =>
        route.request("/telegram/all-burst", {
          method: "POST",
          headers: { "content-type": "application/json", [SECRET_HEADER]: SECRET },
          body: JSON.stringify(update(900_600 + i, "/start", id)),
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(users.map(() => 200));
    // one statement stored them all (each its own, before the group commit)
    expect(stores).toBe(1);
    for (const id of users) {
      const chat = await telegram.waitFor(id, (c) => c.messages.length === 2, 20_000);
      expect(chat.messages[1]!.text).toMatch(/^Halo Web!/);
    }
    await handled();
  });

  it("polling starts, answers, and stops", async () => {
    const bot: KiosBot = createBot(deps);
    const pipeline = createUpdatePipeline({
      bot,
      database: database.handle,
      leases,
      logger: deps.logger,
      concurrency: 4,
      poll: true,
      pollingTimeoutSeconds: 1,
    });
    await pipeline.start();
    telegram.user(8005, { first_name: "Gita" });
    telegram.sendText(8005, "/start");
    const chat = await telegram.waitFor(8005, (c) => c.messages.length === 2);
    expect(chat.messages[1]!.text).toMatch(/^Halo Gita!/);
    expect(pipeline.poller?.polling).toBe(true);
    await pipeline.stop();
    expect(pipeline.poller?.polling).toBe(false);
    expect(pipeline.drain.draining).toBe(false);
  });
});
