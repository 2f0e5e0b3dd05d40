import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectTelegram } from "../../src/app/connect-telegram.ts";
import { type BotServiceFactory, createApp } from "../../src/app/create-app.ts";
import { parseConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";

// a /start sent while a new shop starts is answered first: on PGlite (one statement at a
// time) the jobs' set-up and the first catalogue wait until the updates waiting at the bot's
// start are answered, and then run as before (jobs running, a catalogue to sell from)

describe(`the first answer of a start (${testDriver})`, () => {
  const folder = mkdtempSync(join(tmpdir(), "kios-first-answer-"));
  let database: TestDatabase | undefined;
  afterAll(async () => {
    await database?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it("answers a /start sent during the start before the jobs are set up; the jobs run after", async () => {
    database = await createTestDatabase();
    const handle = database.handle;
    const config = parseConfig({ PORT: "0", PGLITE_DIR: join(folder, "pglite") });
    const logger = createLogger({ level: "silent", pretty: false });
    const choice = await connectTelegram(config, logger, { pollingTimeoutSeconds: 1 });
    const base = `http://127.0.0.1:${choice.http.port}/control`;
    const user = PLAYGROUND_CUSTOMER.id;
    const botMessages = async () => {
      const res = await fetch(`${base}/chats/${user}/messages`);
      const body = (await res.json()) as { result: { messages: { sender: string }[] } };
      return body.result.messages.filter((m) => m.sender === "bot").length;
    };

    // the bot's start held until the /start is in the local Bot API server, as when a
    // person writes while the shop is still starting
    let releaseBot!: () => void;
    const botHeld = new Promise<void>((r) => {
      releaseBot = r;
    });
    const bot: BotServiceFactory = async (core) => {
      const service = await choice.bot!(core);
      return {
        ...service,
        start: async () => {
          await botHeld;
          await service.start();
        },
      };
    };
    // what the bot had answered when the jobs' set-up (pg-boss, the queues) began
    let answeredBeforeJobs: number | undefined;
    const watched = Object.create(handle, {
      exclusive: {
        value: async <T>(work: () => Promise<T>) => {
          answeredBeforeJobs ??= await botMessages();
          return handle.exclusive(work);
        },
      },
    }) as typeof handle;

    const app = await createApp({
      config: choice.config,
      logger,
      database: watched,
      sandbox: { settleDelayMs: 200 },
      bot,
      http: choice.http,
      adminIds: choice.adminIds,
    });
    const started = app.start();
    try {
      await expect
        .poll(
          () =>
            fetch(`${base}/send`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ user_id: user, text: "/start" }),
            })
              .then((r) => r.ok)
              .catch(() => false),
          { timeout: patient(20_000), interval: 50 },
        )
        .toBe(true);
      releaseBot();
      await started;

      // on PostgreSQL the set-up runs beside the bot on connections of its own, so only the
      // embedded database orders them
      if (testDriver === "pglite") expect(answeredBeforeJobs).toBe(1);
      await expect.poll(botMessages, { timeout: patient(20_000) }).toBe(1);
      // the start went on: jobs running, the sandbox's catalogue synced
      expect(app.jobs.state).toBe("running");
      const { rows } = await handle.executeSql("select count(*)::int as n from products");
      expect(Number(rows[0]?.n)).toBeGreaterThan(0);
      expect(await app.jobs.send("order-check", { orderId: 1 })).toBeTypeOf("string");
    } finally {
      releaseBot();
      await started.catch(() => {});
      await app.stop();
    }
  });
});
