import type { CallbackQuery, Message, Update } from "@grammyjs/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DESCRIPTIONS, type RunningBotApiServer } from "../index.ts";
import { call, expectBotMessage, fails, ok, start } from "./helpers.ts";

const keyboard = (...data: string[]) => ({
  inline_keyboard: [data.map((d) => ({ text: d.toUpperCase(), callback_data: d }))],
});

describe("messages", () => {
  let server: RunningBotApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.user(42, { first_name: "Budi", username: "budi" });
    server.sendText(42, "/start");
  });

  describe("sendMessage", () => {
    it("returns a real Message and shows it in the chat", async () => {
      const m = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "Selamat datang di <b>Kios</b>!",
        parse_mode: "HTML",
        reply_markup: keyboard("menu"),
        link_preview_options: { is_disabled: true },
      });
      expectBotMessage(m, 42);
      expect(m).toEqual({
        message_id: 2,
        from: m.from,
        chat: { id: 42, first_name: "Budi", username: "budi", type: "private" },
        date: m.date,
        text: "Selamat datang di Kios!",
        entities: [{ type: "bold", offset: 18, length: 4 }],
        link_preview_options: { is_disabled: true },
        reply_markup: keyboard("menu"),
      });
      const view = server.messages(42);
      expect(view.messages.map((x) => [x.message_id, x.sender, x.text])).toEqual([
        [1, "user", "/start"],
        [2, "bot", "Selamat datang di Kios!"],
      ]);
    });

    it("finds commands, mentions and links in plain text", async () => {
      const m = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "Ketik /help atau buka https://kios.example",
      });
      expect(m.entities).toEqual([
        { type: "bot_command", offset: 6, length: 5 },
        { type: "url", offset: 22, length: 20 },
      ]);
    });

    it("marks protected content and takes the old disable_web_page_preview", async () => {
      const m = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "kode: 123",
        protect_content: true,
        disable_web_page_preview: true,
      });
      expect(m).toMatchObject({
        has_protected_content: true,
        link_preview_options: { is_disabled: true },
      });
    });

    it("replies to a message", async () => {
      const m = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "ok",
        reply_parameters: { message_id: 1 },
      });
      expect(m.reply_to_message).toMatchObject({ message_id: 1, text: "/start" });
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "x", reply_parameters: { message_id: 99 } },
        400,
        "Bad Request: message to be replied not found",
      );
      const lenient = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "x",
        reply_parameters: { message_id: 99, allow_sending_without_reply: true },
      });
      expect(lenient.reply_to_message).toBeUndefined();
    });

    it("refuses an empty text", async () => {
      for (const text of ["", "   \n "]) {
        await fails(
          server,
          "sendMessage",
          { chat_id: 42, text },
          400,
          "Bad Request: message text is empty",
        );
      }
      await fails(
        server,
        "sendMessage",
        { chat_id: 42 },
        400,
        "Bad Request: message text is empty",
      );
      // a text that only had markup is empty too
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "<b></b>", parse_mode: "HTML" },
        400,
        "Bad Request: message text is empty",
      );
    });

    it("takes 4096 characters and refuses 4097", async () => {
      await ok(server, "sendMessage", { chat_id: 42, text: "a".repeat(4096) });
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "a".repeat(4097) },
        400,
        "Bad Request: message is too long",
      );
    });

    it("refuses unknown chats, unstarted chats and blocked users", async () => {
      await fails(
        server,
        "sendMessage",
        { chat_id: 777, text: "x" },
        400,
        "Bad Request: chat not found",
      );
      await fails(
        server,
        "sendMessage",
        { chat_id: "@someone", text: "x" },
        400,
        "Bad Request: chat not found",
      );
      await fails(server, "sendMessage", { text: "x" }, 400, "Bad Request: chat_id is empty");
      server.user(43);
      await fails(
        server,
        "sendMessage",
        { chat_id: 43, text: "x" },
        403,
        "Forbidden: bot can't initiate conversation with a user",
      );
      server.block(42, true);
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "x" },
        403,
        "Forbidden: bot was blocked by the user",
      );
    });

    it("refuses broken HTML and unescaped MarkdownV2", async () => {
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "<b>Promo", parse_mode: "HTML" },
        400,
        "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
      );
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "<blink>x</blink>", parse_mode: "HTML" },
        400,
        'Bad Request: can\'t parse entities: Unsupported start tag "blink" at byte offset 0',
      );
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "Total: Rp 10.000", parse_mode: "MarkdownV2" },
        400,
        "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
      );
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "x", parse_mode: "bbcode" },
        400,
        "Bad Request: unsupported parse_mode",
      );
    });
  });

  describe("keyboards", () => {
    it("takes 64 bytes of callback_data and refuses 65", async () => {
      await ok(server, "sendMessage", {
        chat_id: 42,
        text: "x",
        reply_markup: keyboard("x".repeat(64)),
      });
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "x", reply_markup: keyboard("x".repeat(65)) },
        400,
        "Bad Request: BUTTON_DATA_INVALID",
      );
      // bytes, not characters: 33 × "é" is 66 bytes
      await fails(
        server,
        "sendMessage",
        { chat_id: 42, text: "x", reply_markup: keyboard("é".repeat(33)) },
        400,
        "Bad Request: BUTTON_DATA_INVALID",
      );
    });

    it("wants exactly one action per inline button", async () => {
      const send = (button: object) =>
        call(server, "sendMessage", {
          chat_id: 42,
          text: "x",
          reply_markup: { inline_keyboard: [[button]] },
        });
      expect((await send({ text: "plain" })).body).toMatchObject({
        ok: false,
        description:
          "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
      });
      expect(
        (await send({ text: "two", url: "https://a.example", callback_data: "x" })).body,
      ).toMatchObject({
        ok: false,
        error_code: 400,
      });
      expect((await send({ text: "bad url", url: "not a url" })).body).toMatchObject({
        ok: false,
        description: "Bad Request: BUTTON_URL_INVALID",
      });
      expect((await send({ text: "site", url: "https://kios.example" })).body.ok).toBe(true);
    });

    it("shows and removes reply keyboards and force replies on the user's side", async () => {
      await ok(server, "sendMessage", {
        chat_id: 42,
        text: "pilih",
        reply_markup: { keyboard: [["A"]], one_time_keyboard: true },
      });
      expect(server.messages(42).reply_keyboard).toEqual({
        keyboard: [[{ text: "A" }]],
        one_time_keyboard: true,
      });
      server.sendText(42, "A");
      expect(server.messages(42).reply_keyboard).toBeNull();
      await ok(server, "sendMessage", {
        chat_id: 42,
        text: "pilih",
        reply_markup: { keyboard: [["B"]] },
      });
      await ok(server, "sendMessage", {
        chat_id: 42,
        text: "ok",
        reply_markup: { remove_keyboard: true },
      });
      expect(server.messages(42).reply_keyboard).toBeNull();
      await ok(server, "sendMessage", {
        chat_id: 42,
        text: "nomor?",
        reply_markup: { force_reply: true, input_field_placeholder: "08…" },
      });
      expect(server.messages(42).force_reply).toEqual({
        force_reply: true,
        input_field_placeholder: "08…",
      });
    });
  });

  describe("editing and deleting", () => {
    it("edits text and keyboard, sets edit_date and keeps the history", async () => {
      const sent = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "Menunggu pembayaran",
        reply_markup: keyboard("cek"),
      });
      const edited = await ok<Message>(server, "editMessageText", {
        chat_id: 42,
        message_id: sent.message_id,
        text: "<b>Lunas</b>",
        parse_mode: "HTML",
        reply_markup: keyboard("struk"),
      });
      expectBotMessage(edited, 42);
      expect(edited).toMatchObject({
        message_id: sent.message_id,
        text: "Lunas",
        entities: [{ type: "bold", offset: 0, length: 5 }],
        reply_markup: keyboard("struk"),
      });
      expect(Number.isInteger(edited.edit_date)).toBe(true);

      const view = server.messages(42).messages.find((m) => m.message_id === sent.message_id)!;
      expect(view).toMatchObject({ text: "Lunas", edited: true, deleted: false });
      expect(view.history).toEqual([
        { text: "Menunggu pembayaran", reply_markup: keyboard("cek"), date: sent.date },
      ]);
    });

    it("removes the keyboard when an edit leaves reply_markup out, as Telegram does", async () => {
      const sent = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "a",
        reply_markup: keyboard("x"),
      });
      const edited = await ok<Message>(server, "editMessageText", {
        chat_id: 42,
        message_id: sent.message_id,
        text: "b",
      });
      expect(edited.reply_markup).toBeUndefined();
      const onlyMarkup = await ok<Message>(server, "editMessageReplyMarkup", {
        chat_id: 42,
        message_id: sent.message_id,
        reply_markup: keyboard("y"),
      });
      expect(onlyMarkup).toMatchObject({ text: "b", reply_markup: keyboard("y") });
    });

    it("refuses an edit that changes nothing", async () => {
      const sent = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "<i>sama</i>",
        parse_mode: "HTML",
        reply_markup: keyboard("x"),
      });
      const notModified = `Bad Request: ${DESCRIPTIONS.notModified}`;
      await fails(
        server,
        "editMessageText",
        {
          chat_id: 42,
          message_id: sent.message_id,
          text: "_sama_",
          parse_mode: "MarkdownV2",
          reply_markup: keyboard("x"),
        },
        400,
        notModified,
      );
      await fails(
        server,
        "editMessageReplyMarkup",
        { chat_id: 42, message_id: sent.message_id, reply_markup: keyboard("x") },
        400,
        notModified,
      );
      // different entities are a change
      await ok(server, "editMessageText", {
        chat_id: 42,
        message_id: sent.message_id,
        text: "sama",
        reply_markup: keyboard("x"),
      });
    });

    it("refuses to edit or delete what isn't there", async () => {
      await fails(
        server,
        "editMessageText",
        { chat_id: 42, message_id: 99, text: "x" },
        400,
        "Bad Request: message to edit not found",
      );
      await fails(
        server,
        "editMessageText",
        { chat_id: 42, message_id: 1, text: "x" },
        400,
        "Bad Request: message can't be edited",
      );
      await fails(
        server,
        "deleteMessage",
        { chat_id: 42, message_id: 99 },
        400,
        "Bad Request: message to delete not found",
      );
      await fails(
        server,
        "editMessageText",
        { inline_message_id: "abc", text: "x" },
        400,
        "Bad Request: MESSAGE_ID_INVALID",
      );
    });

    it("deletes messages: true, then gone for the API and flagged for the control API", async () => {
      const sent = await ok<Message>(server, "sendMessage", { chat_id: 42, text: "hapus aku" });
      expect(await ok(server, "deleteMessage", { chat_id: 42, message_id: sent.message_id })).toBe(
        true,
      );
      await fails(
        server,
        "deleteMessage",
        { chat_id: 42, message_id: sent.message_id },
        400,
        "Bad Request: message to delete not found",
      );
      await fails(
        server,
        "editMessageText",
        { chat_id: 42, message_id: sent.message_id, text: "x" },
        400,
        "Bad Request: message to edit not found",
      );
      expect(server.messages(42).messages.at(-1)).toMatchObject({
        message_id: sent.message_id,
        deleted: true,
        text: "hapus aku",
      });
      // the user's own message can be deleted in a private chat
      expect(await ok(server, "deleteMessages", { chat_id: 42, message_ids: [1, 98] })).toBe(true);
      expect(server.messages(42).messages[0]!.deleted).toBe(true);
    });
  });

  describe("callback queries", () => {
    async function pressFlow() {
      const sent = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "Pilih nominal",
        reply_markup: keyboard("10k", "20k"),
      });
      const pressed = server.press(42, sent.message_id, "20k");
      const [update] = await ok<Update[]>(server, "getUpdates", { offset: -1 });
      return { sent, pressed, update: update! };
    }

    it("turns a press into a callback_query update", async () => {
      const { sent, pressed, update } = await pressFlow();
      const query: CallbackQuery = update.callback_query!;
      expect(update.update_id).toBe(pressed.update_id);
      expect(query).toEqual({
        id: pressed.callback_query.id,
        from: { id: 42, is_bot: false, first_name: "Budi", username: "budi" },
        message: sent,
        chat_instance: expect.stringMatching(/^\d+$/),
        data: "20k",
      });
      expect(query.id).toMatch(/^\d+$/);
      // a second press gets a new id but the same chat_instance
      const again = server.press(42, sent.message_id, "10k");
      expect(again.callback_query.id).not.toBe(query.id);
      expect(again.callback_query.chat_instance).toBe(query.chat_instance);
    });

    it("records the answer as a toast the user sees, once", async () => {
      const { sent, pressed } = await pressFlow();
      expect(
        await ok(server, "answerCallbackQuery", {
          callback_query_id: pressed.callback_query.id,
          text: "Dipilih: 20k",
        }),
      ).toBe(true);
      const view = server.messages(42);
      expect(view.callback_answers).toEqual([
        expect.objectContaining({
          message_id: sent.message_id,
          data: "20k",
          text: "Dipilih: 20k",
          show_alert: false,
        }),
      ]);
      expect(
        view.messages.find((m) => m.message_id === sent.message_id)!.callback_answers,
      ).toHaveLength(1);
      await fails(
        server,
        "answerCallbackQuery",
        { callback_query_id: pressed.callback_query.id },
        400,
        "Bad Request: query is too old and response timeout expired or query ID is invalid",
      );
      await fails(
        server,
        "answerCallbackQuery",
        { callback_query_id: "123" },
        400,
        "Bad Request: query is too old and response timeout expired or query ID is invalid",
      );
    });

    it("refuses presses of buttons that aren't on the message's current keyboard", async () => {
      const { sent } = await pressFlow();
      await ok(server, "editMessageReplyMarkup", {
        chat_id: 42,
        message_id: sent.message_id,
        reply_markup: keyboard("ok"),
      });
      expect(() => server.press(42, sent.message_id, "20k")).toThrow(/no button/);
      expect(() => server.press(42, 1, "x")).toThrow(/no button/);
      expect(() => server.press(42, 99, "ok")).toThrow(/not in the chat/);
      await ok(server, "deleteMessage", { chat_id: 42, message_id: sent.message_id });
      expect(() => server.press(42, sent.message_id, "ok")).toThrow(/not in the chat/);
    });
  });

  it("records chat actions", async () => {
    expect(await ok(server, "sendChatAction", { chat_id: 42, action: "typing" })).toBe(true);
    expect(server.messages(42).chat_action).toMatchObject({ action: "typing" });
    await fails(
      server,
      "sendChatAction",
      { chat_id: 42, action: "dancing" },
      400,
      "Bad Request: wrong parameter action in request",
    );
    // the next message replaces the status
    await ok(server, "sendMessage", { chat_id: 42, text: "done" });
    expect(server.messages(42).chat_action).toBeNull();
  });
});
