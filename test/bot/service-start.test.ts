import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";

// the command menus are published after the inbox runs: on Telegram each menu is a round trip
// (one per language, per admin, the Mini App's button), and a person who writes while the shop
// starts is answered without waiting for them. Here the Bot API holds every setMyCommands
// until the test lets them go.

describe(`a bot's start publishes its menus after it answers (${testDriver})`, () => {
  let telegram: RunningBotApiServer;
  let proxy: ReturnType<typeof createServer>;
  let proxyUrl: string;
  const held: (() => void)[] = [];
  let holding = true;
  const menusAsked: string[] = [];

  beforeAll(async () => {
    telegram = await startBotApiServer({ rateLimits: { enabled: false } });
    const target = new URL(telegram.url);
    proxy = createServer((req, res) => {
      const forward = () => {
        const upstream = request(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", () => res.destroy());
        req.pipe(upstream);
      };
      if (req.url?.endsWith("/setMyCommands")) {
        menusAsked.push(req.url);
        if (holding) {
          held.push(forward);
          return;
        }
      }
      forward();
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    holding = false;
    for (const go of held.splice(0)) go();
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await telegram?.close();
  });

  it("answers a /start while the menus are still being set, and sets them after", async () => {
    const user = 991_001;
    telegram.user(user);
    let app: TestApp | undefined;
    const booting = bootApp({
      env: { BOT_TOKEN: DEFAULT_BOT.token, TELEGRAM_API_ROOT: proxyUrl, ADMIN_IDS: "991002" },
      logLevel: "silent",
    }).then((a) => {
      app = a;
      return a;
    });
    try {
      // the start reached the menus: the bot polls, and the first menu waits at Telegram
      await expect.poll(() => held.length, { timeout: patient(30_000), interval: 50 }).toBe(1);
      telegram.sendText(user, "/start");
      await expect
        .poll(() => telegram.messages(user).messages.filter((m) => m.sender === "bot").length, {
          timeout: patient(20_000),
          interval: 50,
        })
        .toBeGreaterThan(0);
      // answered while the menus were held: the start has not finished
      expect(app).toBeUndefined();
      holding = false;
      for (const go of held.splice(0)) go();
      await booting;
      // every language's menu and the admin's were set once the start went on
      expect(menusAsked.length).toBeGreaterThan(1);
    } finally {
      holding = false;
      for (const go of held.splice(0)) go();
      await (await booting.catch(() => undefined))?.stop();
    }
  });
});
