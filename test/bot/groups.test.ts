import type { Update } from "@grammyjs/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotHarness, startBotHarness } from "../helpers/bot.ts";

// a storefront is personal (wallet, history): what happens in a group or a channel the bot
// was added to is not said to the shop, and the bot says nothing there
describe("groups and channels", () => {
  let h: BotHarness;
  const calls: string[] = [];
  beforeAll(async () => {
    h = await startBotHarness({ catalogue: false });
    h.bot.api.config.use((prev, method, payload, signal) => {
      calls.push(method);
      return prev(method, payload, signal);
    });
  });
  afterAll(() => h?.stop());

  const from = { id: 7101, is_bot: false, first_name: "Sari" };

  it("answers nothing to a command in a group", async () => {
    calls.length = 0;
    const update: Update = {
      update_id: 900_001,
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: -100_555, type: "supergroup", title: "Pulsa murah" },
        from,
        text: "/start",
        entities: [{ type: "bot_command", offset: 0, length: 6 }],
      },
    };
    await h.bot.handleUpdate(update);
    expect(calls).toEqual([]);
  });

  it("answers nothing to a post in a channel", async () => {
    calls.length = 0;
    const update: Update = {
      update_id: 900_002,
      channel_post: {
        message_id: 2,
        date: Math.floor(Date.now() / 1000),
        chat: { id: -100_556, type: "channel", title: "Info" },
        sender_chat: { id: -100_556, type: "channel", title: "Info" },
        text: "/saldo",
        entities: [{ type: "bot_command", offset: 0, length: 6 }],
      },
    };
    await h.bot.handleUpdate(update);
    expect(calls).toEqual([]);
  });

  it("still answers the same command in a private chat", async () => {
    calls.length = 0;
    h.user(7101, { first_name: "Sari" });
    const sent = h.say(7101, "/start");
    await h.waitMessage(7101, /Halo Sari/, sent);
    expect(calls).toContain("sendMessage");
  });
});
