import type { Update } from "@grammyjs/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OpenedLink, RunningBotApiServer } from "../index.ts";
import { ok, start } from "./helpers.ts";

// t.me links to the bot, opened in the user's client: a start parameter sends /start <param>
// from the user, as Telegram does; anything else is not the bot's business

interface ControlReply<T> {
  status: number;
  body: { ok: true; result: T } | { ok: false; description: string };
}

describe("deep links", () => {
  let server: RunningBotApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.user(42, { first_name: "Budi" });
  });

  async function open(url: string, userId = 42): Promise<ControlReply<OpenedLink>> {
    const res = await fetch(`${server.url}/control/open-link`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: userId, url }),
    });
    return { status: res.status, body: (await res.json()) as ControlReply<OpenedLink>["body"] };
  }

  it("sends /start <param> for a t.me link to this bot with a start parameter", async () => {
    const opened = await open("https://t.me/kios_playground_bot?start=p_TSEL10_081234567890");
    expect(opened.body).toMatchObject({
      ok: true,
      result: {
        action: "start",
        sent: {
          message: {
            from: { id: 42 },
            text: "/start p_TSEL10_081234567890",
            entities: [{ type: "bot_command", offset: 0, length: 6 }],
          },
        },
      },
    });
    const [update] = await ok<Update[]>(server, "getUpdates");
    expect(update?.message?.text).toBe("/start p_TSEL10_081234567890");

    // the same from the other forms Telegram accepts: any case, telegram.me, http, tg://
    for (const url of [
      "https://t.me/Kios_Playground_Bot?start=a-1",
      "http://telegram.me/kios_playground_bot?start=a-1",
      "https://telegram.dog/kios_playground_bot/?start=a-1",
      "tg://resolve?domain=kios_playground_bot&start=a-1",
    ]) {
      const again = await open(url);
      expect(again.body).toMatchObject({
        ok: true,
        result: { action: "start", sent: { message: { text: "/start a-1" } } },
      });
    }
  });

  it("sends nothing for the bot without a valid start parameter, and leaves other links alone", async () => {
    for (const url of [
      "https://t.me/kios_playground_bot",
      "https://t.me/kios_playground_bot?start=",
      "https://t.me/kios_playground_bot?start=bad%20param",
      `https://t.me/kios_playground_bot?start=${"x".repeat(65)}`,
    ]) {
      expect((await open(url)).body).toEqual({ ok: true, result: { action: "chat" } });
    }
    for (const url of [
      "https://t.me/other_bot?start=x",
      "https://t.me/kios_playground_bot/app?startapp=x",
      "https://t.me/+invite",
      "https://example.com/?start=x",
      "not a url",
    ]) {
      expect((await open(url)).body).toEqual({ ok: true, result: { action: "external" } });
    }
    expect(await ok<Update[]>(server, "getUpdates")).toEqual([]);
    expect(server.messages(42).started).toBe(false);
  });

  it("refuses a user who blocked the bot or doesn't exist", async () => {
    server.block(42, true);
    expect((await open("https://t.me/kios_playground_bot?start=x")).status).toBe(409);
    expect((await open("https://t.me/kios_playground_bot?start=x", 77)).status).toBe(404);
  });
});
