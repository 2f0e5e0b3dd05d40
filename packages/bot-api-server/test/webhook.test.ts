import type { Update, WebhookInfo } from "@grammyjs/types";
import { listen, type RunningServer } from "@kios/kit";
import { Bot, webhookCallback } from "grammy";
import { Hono } from "hono";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningBotApiServer } from "../index.ts";
import { call, ok, start, TOKEN } from "./helpers.ts";

interface Received {
  secret: string | null;
  update: Update;
}

describe("webhook mode", () => {
  let server: RunningBotApiServer;
  let receiver: RunningServer;
  let received: Received[];
  // how many deliveries the receiver fails before accepting
  let failuresLeft: number;
  let waiters: (() => void)[];

  beforeAll(async () => {
    server = await start({ webhookRetry: { initialDelayMs: 20, maxDelayMs: 80 } });
    const app = new Hono().post("/hook", async (c) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        return c.text("nope", 500);
      }
      received.push({
        secret: c.req.header("x-telegram-bot-api-secret-token") ?? null,
        update: await c.req.json<Update>(),
      });
      for (const w of waiters.splice(0)) w();
      return c.text("ok");
    });
    receiver = await listen(app, 0, "127.0.0.1");
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });
  beforeEach(() => {
    server.reset();
    server.user(42, { first_name: "Budi" });
    received = [];
    failuresLeft = 0;
    waiters = [];
  });
  afterEach(async () => {
    await ok(server, "deleteWebhook", { drop_pending_updates: true });
  });

  /** resolves once the receiver holds n updates (woken by deliveries, not by polling) */
  async function receivedCount(n: number): Promise<void> {
    while (received.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  }

  const hookUrl = () => `http://127.0.0.1:${receiver.port}/hook`;

  it("pushes updates with the secret header, in order, and getUpdates gets 409", async () => {
    const set = await call(server, "setWebhook", {
      url: hookUrl(),
      secret_token: "s3cret_TOKEN-1",
    });
    expect(set.body).toEqual({ ok: true, result: true, description: "Webhook was set" });

    server.sendText(42, "satu");
    server.sendText(42, "dua");
    server.sendText(42, "tiga");
    await receivedCount(3);
    expect(received.map((r) => [r.secret, r.update.message?.text])).toEqual([
      ["s3cret_TOKEN-1", "satu"],
      ["s3cret_TOKEN-1", "dua"],
      ["s3cret_TOKEN-1", "tiga"],
    ]);

    expect(await call(server, "getUpdates")).toEqual({
      status: 409,
      body: {
        ok: false,
        error_code: 409,
        description:
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      },
    });
    expect(await ok<WebhookInfo>(server, "getWebhookInfo")).toEqual({
      url: hookUrl(),
      has_custom_certificate: false,
      pending_update_count: 0,
      max_connections: 40,
    });
  });

  it("retries failed deliveries with backoff and records the last error", async () => {
    failuresLeft = 2;
    await ok(server, "setWebhook", { url: hookUrl() });
    server.sendText(42, "pertama");
    server.sendText(42, "kedua");
    await receivedCount(2);
    // the failed update was retried before the next one went out
    expect(received.map((r) => r.update.message?.text)).toEqual(["pertama", "kedua"]);
    expect(received[0]!.secret).toBeNull();
    const info = await ok<WebhookInfo>(server, "getWebhookInfo");
    expect(info).toMatchObject({
      pending_update_count: 0,
      last_error_message: "Wrong response from the webhook: 500 Internal Server Error",
    });
    expect(Number.isInteger(info.last_error_date)).toBe(true);
  });

  it("counts pending updates while the webhook is unreachable, and switches back to polling", async () => {
    await ok(server, "setWebhook", { url: "http://127.0.0.1:1/unreachable" });
    server.sendText(42, "x");
    server.sendText(42, "y");
    const info = await ok<WebhookInfo>(server, "getWebhookInfo");
    expect(info.pending_update_count).toBe(2);
    expect(await call(server, "deleteWebhook")).toMatchObject({
      body: { ok: true, result: true, description: "Webhook was deleted" },
    });
    expect((await ok<Update[]>(server, "getUpdates")).map((u) => u.message?.text)).toEqual([
      "x",
      "y",
    ]);
    expect((await call(server, "deleteWebhook")).body.description).toBe(
      "Webhook is already deleted",
    );
  });

  it("drops pending updates on request", async () => {
    server.sendText(42, "lama");
    await ok(server, "setWebhook", { url: hookUrl(), drop_pending_updates: true });
    server.sendText(42, "baru");
    await receivedCount(1);
    expect(received.map((r) => r.update.message?.text)).toEqual(["baru"]);
  });

  it("refuses a bad webhook URL or secret", async () => {
    expect((await call(server, "setWebhook", { url: "ftp://x.example/" })).body).toMatchObject({
      ok: false,
      description: "Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
    });
    expect(
      (await call(server, "setWebhook", { url: hookUrl(), secret_token: "spaces not allowed" }))
        .body,
    ).toMatchObject({
      ok: false,
      error_code: 400,
    });
  });

  it("drives a real grammY webhook bot, including replies in the webhook response", async () => {
    const bot = new Bot(TOKEN, {
      client: { apiRoot: server.url, canUseWebhookReply: (m) => m === "sendMessage" },
    });
    bot.command("start", async (ctx) => {
      // goes back in the webhook's HTTP response, not as a call of its own
      await ctx.reply(`Halo ${ctx.from?.first_name}!`);
      await ctx.api.sendMessage(ctx.chat.id, "Ketik /menu");
    });
    // std/http sends the reply JSON as is (grammY's hono adapter double-encodes it)
    const handle = webhookCallback(bot, "std/http", { secretToken: "abc" });
    const app = new Hono().post("/grammy", (c) => handle(c.req.raw));
    const botServer = await listen(app, 0, "127.0.0.1");
    try {
      await bot.api.setWebhook(`http://127.0.0.1:${botServer.port}/grammy`, {
        secret_token: "abc",
      });
      server.sendText(42, "/start");
      const chat = await server.waitFor(42, (c) => c.messages.length === 3);
      expect(chat.messages.map((m) => [m.sender, m.text]).sort()).toEqual([
        ["bot", "Halo Budi!"],
        ["bot", "Ketik /menu"],
        ["user", "/start"],
      ]);
    } finally {
      await botServer.close();
    }
  });
});
