import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// the owner moves the shop to a new bot (another token) on the same database. The new bot
// counts its update_ids from its own start, through numbers the old bot used: the inbox
// keys updates by bot, so none of the new bot's is taken for a redelivery.

const NEW_BOT = {
  token: "7000000002:SECOND-kios-local-bot-token-000000",
  username: "kios_second_bot",
  firstName: "Kios Baru",
};

describe(`a shop moved to a new bot token (${testDriver})`, () => {
  let telegram: RunningBotApiServer;
  let folder = "";
  let server: TestDatabase | undefined;
  let env: Record<string, string>;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    telegram = await startBotApiServer({
      bots: [DEFAULT_BOT, NEW_BOT],
      rateLimits: { enabled: false },
    });
    if (testDriver === "postgres") {
      server = await createTestDatabase();
      env = { DATABASE_URL: server.url! };
    } else {
      folder = mkdtempSync(join(tmpdir(), "kios-token-"));
      env = { PGLITE_DIR: join(folder, "pglite") };
    }
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
    await telegram?.close();
    await server?.destroy();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function start(token: string): Promise<TestApp> {
    const app = await bootApp({
      env: { ...env, BOT_TOKEN: token, TELEGRAM_API_ROOT: telegram.url },
      databaseFromEnv: true,
    });
    apps.push(app);
    return app;
  }

  /** the user writes to a bot and gets its next answer */
  async function say(user: number, bot: string, text: string): Promise<string> {
    const before = telegram.messages(user, { bot }).messages.length;
    telegram.sendText(user, text, { bot });
    const chat = await telegram.waitFor(
      user,
      (c) => c.messages.slice(before).some((m) => m.sender === "bot"),
      20_000,
      { bot },
    );
    return chat.messages.slice(before).find((m) => m.sender === "bot")?.text ?? "";
  }

  it("answers the new bot's first messages", { timeout: 120_000 }, async () => {
    const user = 8_801;
    telegram.user(user, { first_name: "Dewi" });
    const old = await start(DEFAULT_BOT.token);
    expect(await say(user, DEFAULT_BOT.username, "/start")).toMatch(/^Halo Dewi/);
    expect(await say(user, DEFAULT_BOT.username, "/saldo")).toMatch(/Saldo kamu/);
    await old.stop();
    apps.splice(apps.indexOf(old), 1);

    await start(NEW_BOT.token);
    expect(await say(user, NEW_BOT.username, "/start")).toMatch(/^Halo Dewi/);
    expect(await say(user, NEW_BOT.username, "/saldo")).toMatch(/Saldo kamu/);
  });
});
