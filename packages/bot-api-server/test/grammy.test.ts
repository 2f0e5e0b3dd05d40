import { autoRetry } from "@grammyjs/auto-retry";
import type { Message } from "@grammyjs/types";
import { Bot, GrammyError, InlineKeyboard, InputFile } from "grammy";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningBotApiServer } from "../index.ts";
import { expectBotMessage, pngHeader, start, TOKEN } from "./helpers.ts";

describe("a real grammY bot against the server", () => {
  let server: RunningBotApiServer;
  let bot: Bot;
  let running: Promise<void> | undefined;

  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.user(42, { first_name: "Budi", username: "budi", language_code: "id" });
    bot = new Bot(TOKEN, { client: { apiRoot: server.url } });
  });
  afterEach(async () => {
    if (bot.isRunning()) await bot.stop();
    await running;
    running = undefined;
  });

  function startPolling(): Promise<void> {
    return new Promise((resolve) => {
      running = bot.start({ timeout: 5, onStart: () => resolve() });
    });
  }

  it("answers /start sent through the control API", async () => {
    bot.command("start", (ctx) =>
      ctx.reply(`Halo <b>${ctx.from?.first_name}</b>! Mau beli apa?`, {
        parse_mode: "HTML",
        reply_markup: new InlineKeyboard().text("Pulsa", "menu:pulsa").text("Data", "menu:data"),
      }),
    );
    await startPolling();
    expect(bot.botInfo.username).toBe("kios_playground_bot");

    server.sendText(42, "/start");
    const chat = await server.waitFor(42, (c) => c.messages.length === 2);
    expect(chat.messages[1]).toMatchObject({
      sender: "bot",
      text: "Halo Budi! Mau beli apa?",
      entities: [{ type: "bold", offset: 5, length: 4 }],
      reply_markup: {
        inline_keyboard: [
          [
            { text: "Pulsa", callback_data: "menu:pulsa" },
            { text: "Data", callback_data: "menu:data" },
          ],
        ],
      },
    });
  });

  it("runs a button flow: press, answer, edit", async () => {
    bot.command("start", (ctx) =>
      ctx.reply("Pilih produk", {
        reply_markup: new InlineKeyboard().text("Pulsa 10k", "buy:10k"),
      }),
    );
    bot.callbackQuery(/^buy:(.+)$/, async (ctx) => {
      await ctx.answerCallbackQuery({ text: `Dipilih ${ctx.match[1]}` });
      await ctx.editMessageText(`Pesanan ${ctx.match[1]} dibuat`);
    });
    await startPolling();

    server.sendText(42, "/start");
    const menu = await server.waitFor(42, (c) => c.messages.length === 2);
    server.press(42, menu.messages[1]!.message_id, "buy:10k");
    const done = await server.waitFor(42, (c) => c.messages[1]?.edited === true);
    expect(done.messages[1]).toMatchObject({
      text: "Pesanan 10k dibuat",
      history: [
        {
          text: "Pilih produk",
          reply_markup: { inline_keyboard: [[{ text: "Pulsa 10k", callback_data: "buy:10k" }]] },
        },
      ],
    });
    // the edit dropped the keyboard, so the old button is gone
    expect(done.messages[1]!.reply_markup).toBeUndefined();
    expect(done.callback_answers).toMatchObject([{ text: "Dipilih 10k", show_alert: false }]);
    expect(() => server.press(42, menu.messages[1]!.message_id, "buy:10k")).toThrow(/no button/);
  });

  it("sees the server's errors as GrammyError with Telegram's descriptions", async () => {
    server.sendText(42, "/start");
    const error = await bot.api.sendMessage(42, "").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect((error as GrammyError).error_code).toBe(400);
    expect((error as GrammyError).description).toBe("Bad Request: message text is empty");
  });

  it("uploads photos and documents with grammY's multipart encoding", async () => {
    server.sendText(42, "/start");
    const photo: Message.PhotoMessage = await bot.api.sendPhoto(
      42,
      new InputFile(pngHeader(1600, 900), "promo.png"),
      {
        caption: "<i>Promo</i> hari ini",
        parse_mode: "HTML",
      },
    );
    expectBotMessage(photo, 42);
    expect(photo.caption).toBe("Promo hari ini");
    expect(photo.caption_entities).toEqual([{ type: "italic", offset: 0, length: 5 }]);
    expect(photo.photo.map((p) => [p.width, p.height])).toEqual([
      [90, 51],
      [320, 180],
      [800, 450],
      [1280, 720],
      [1600, 900],
    ]);
    for (const size of photo.photo) {
      expect(size).toEqual({
        file_id: expect.any(String),
        file_unique_id: expect.any(String),
        width: size.width,
        height: size.height,
        file_size: expect.any(Number),
      });
    }

    // a file_id sends the same photo again; a URL is taken as is
    const again = await bot.api.sendPhoto(42, photo.photo.at(-1)!.file_id);
    expect(again.photo).toEqual(photo.photo);
    const byUrl = await bot.api.sendPhoto(42, "https://cdn.kios.example/banner.jpg");
    expect(byUrl.photo.length).toBeGreaterThan(0);

    const doc = await bot.api.sendDocument(
      42,
      new InputFile(Buffer.from("kode voucher: ABC-123"), "voucher.txt"),
    );
    expect(doc.document).toEqual({
      file_id: expect.any(String),
      file_unique_id: expect.any(String),
      file_name: "voucher.txt",
      mime_type: "text/plain",
      file_size: 21,
    });
    // getFile and the download URL give the bytes back
    const file = await bot.api.getFile(doc.document.file_id);
    const res = await fetch(`${server.url}/file/bot${TOKEN}/${file.file_path}`);
    expect(await res.text()).toBe("kode voucher: ABC-123");

    await expect(
      bot.api.sendPhoto(42, new InputFile(Buffer.from("not an image"), "x.jpg")),
    ).rejects.toThrow("Bad Request: IMAGE_PROCESS_FAILED");
    await expect(bot.api.sendPhoto(42, doc.document.file_id)).rejects.toThrow(
      "Bad Request: can't use file of type Document as Photo",
    );
    await expect(bot.api.sendDocument(42, "no-such-file-id")).rejects.toThrow(
      "Bad Request: wrong file identifier/HTTP URL specified",
    );
  });

  it("stores commands per scope and language and resolves a user's menu", async () => {
    server.user(43, { first_name: "Sari", language_code: "en" });
    server.sendText(42, "/start");
    await bot.api.setMyCommands([{ command: "help", description: "Help" }]);
    await bot.api.setMyCommands([{ command: "bantuan", description: "Bantuan" }], {
      scope: { type: "all_private_chats" },
      language_code: "id",
    });
    await bot.api.setMyCommands([{ command: "admin", description: "Panel admin" }], {
      scope: { type: "chat", chat_id: 43 },
    });

    expect(await bot.api.getMyCommands()).toEqual([{ command: "help", description: "Help" }]);
    expect(
      await bot.api.getMyCommands({ scope: { type: "all_private_chats" }, language_code: "id" }),
    ).toEqual([{ command: "bantuan", description: "Bantuan" }]);
    // getMyCommands reads exactly the given scope and language: no fallback
    expect(await bot.api.getMyCommands({ scope: { type: "all_private_chats" } })).toEqual([]);
    expect(await bot.api.getMyCommands({ scope: { type: "chat", chat_id: 43 } })).toEqual([
      { command: "admin", description: "Panel admin" },
    ]);

    // the menu a client shows resolves chat, then all_private_chats, then default
    expect(server.commandsFor(42)).toEqual([{ command: "bantuan", description: "Bantuan" }]);
    expect(server.commandsFor(43)).toEqual([{ command: "admin", description: "Panel admin" }]);
    server.user(44, { language_code: "en" });
    expect(server.commandsFor(44)).toEqual([{ command: "help", description: "Help" }]);

    await bot.api.deleteMyCommands({ scope: { type: "chat", chat_id: 43 } });
    expect(server.commandsFor(43)).toEqual([{ command: "help", description: "Help" }]);
    await expect(
      bot.api.setMyCommands([{ command: "Bad Command!", description: "x" }]),
    ).rejects.toThrow("Bad Request: BOT_COMMAND_INVALID");
    await expect(
      bot.api.setMyCommands([{ command: "x", description: "x" }], {
        scope: { type: "chat", chat_id: 999 },
      }),
    ).rejects.toThrow("Bad Request: chat not found");
  });

  it("recovers from 429 with @grammyjs/auto-retry", async () => {
    server.setRateLimits({ enabled: true });
    try {
      server.sendText(42, "/start");
      // the recorder goes in first so it sits inside autoRetry and sees every attempt
      const attempts: (true | number)[] = [];
      bot.api.config.use(async (prev, method, payload, signal) => {
        const res = await prev(method, payload, signal);
        attempts.push(res.ok ? true : res.error_code);
        return res;
      });
      bot.api.config.use(autoRetry({ maxRetryAttempts: 3 }));
      const sent: number[] = [];
      // the burst allowance is 3 per chat; the 4th waits retry_after and then goes through
      for (let i = 1; i <= 4; i++)
        sent.push((await bot.api.sendMessage(42, `pesan ${i}`)).message_id);
      expect(sent).toEqual([2, 3, 4, 5]);
      expect(attempts).toEqual([true, true, true, 429, true]);
      expect(
        server
          .messages(42)
          .messages.slice(1)
          .map((m) => m.text),
      ).toEqual(["pesan 1", "pesan 2", "pesan 3", "pesan 4"]);
    } finally {
      server.setRateLimits({ enabled: false });
    }
  });
});
