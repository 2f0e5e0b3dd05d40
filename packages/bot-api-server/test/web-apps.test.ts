import type { MenuButton, Message, Update } from "@grammyjs/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  checkInitData,
  checkInitDataSignature,
  DEFAULT_BOT,
  type RunningBotApiServer,
  type WebAppLaunch,
} from "../index.ts";
import { call, fails, ok, start } from "./helpers.ts";

// Mini Apps: web_app and copy_text buttons, the menu button, opening an app as a user
// (the URL and the signed initData it loads), sendData and answerWebAppQuery

const APP = "https://shop.example/app";

interface ControlReply<T> {
  status: number;
  body: { ok: true; result: T } | { ok: false; description: string };
}

describe("Mini Apps", () => {
  let server: RunningBotApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    server.reset();
    // a bot setting: a reset keeps it, as it keeps commands
    await ok(server, "setChatMenuButton", {});
    server.user(42, { first_name: "Budi", username: "budi", language_code: "id" });
    server.sendText(42, "/start");
  });

  async function control<T>(path: string, body?: unknown): Promise<ControlReply<T>> {
    const res = await fetch(`${server.url}/control${path}`, {
      method: body === undefined ? "GET" : "POST",
      ...(body === undefined
        ? {}
        : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as ControlReply<T>["body"] };
  }

  async function result<T>(path: string, body?: unknown): Promise<T> {
    const res = await control<T>(path, body);
    if (!res.body.ok) throw new Error(`${path}: ${res.body.description}`);
    return res.body.result;
  }

  const sendButton = (button: object) =>
    call<Message>(server, "sendMessage", {
      chat_id: 42,
      text: "Katalog",
      reply_markup: { inline_keyboard: [[button]] },
    });

  describe("buttons", () => {
    it("takes web_app buttons and refuses bad Web App URLs with Telegram's errors", async () => {
      const sent = await sendButton({ text: "🛍 Katalog", web_app: { url: APP, extra: 1 } });
      expect(sent.body.ok && sent.body.result.reply_markup).toEqual({
        inline_keyboard: [[{ text: "🛍 Katalog", web_app: { url: APP } }]],
      });
      // http is allowed locally (a deviation, as for webhooks)
      expect(
        (await sendButton({ text: "x", web_app: { url: "http://127.0.0.1:8080/app" } })).body.ok,
      ).toBe(true);
      expect((await sendButton({ text: "x", web_app: { url: "not a url" } })).body).toMatchObject({
        ok: false,
        description:
          "Bad Request: inline keyboard button Web App URL 'not a url' is invalid: Wrong HTTP URL",
      });
      expect(
        (await sendButton({ text: "x", web_app: { url: "ftp://shop.example/" } })).body,
      ).toMatchObject({
        ok: false,
        description:
          "Bad Request: inline keyboard button Web App URL 'ftp://shop.example/' is invalid: Only HTTPS links are allowed",
      });
      expect((await sendButton({ text: "x", web_app: "https://shop.example" })).body).toMatchObject(
        {
          ok: false,
          description:
            'Bad Request: can\'t parse inline keyboard button: Field "web_app" must be of type Object',
        },
      );
      const keyboard = await call(server, "sendMessage", {
        chat_id: 42,
        text: "x",
        reply_markup: { keyboard: [[{ text: "Katalog", web_app: { url: "javascript:1" } }]] },
      });
      expect(keyboard.body).toMatchObject({
        ok: false,
        description:
          "Bad Request: keyboard button Web App URL 'javascript:1' is invalid: Only HTTPS links are allowed",
      });
    });

    it("takes copy_text buttons of 1 to 256 characters", async () => {
      const token = "1234 5678 9012 3456 7890";
      const sent = await sendButton({ text: "📋 Salin token", copy_text: { text: token } });
      expect(sent.body.ok && sent.body.result.reply_markup).toEqual({
        inline_keyboard: [[{ text: "📋 Salin token", copy_text: { text: token } }]],
      });
      // characters, not bytes or UTF-16 units
      expect((await sendButton({ text: "x", copy_text: { text: "🔑".repeat(256) } })).body.ok).toBe(
        true,
      );
      for (const text of ["", "x".repeat(257)]) {
        expect((await sendButton({ text: "x", copy_text: { text } })).body).toMatchObject({
          ok: false,
          error_code: 400,
          description: "Bad Request: BUTTON_COPY_TEXT_INVALID",
        });
      }
      expect((await sendButton({ text: "x", copy_text: "abc" })).body).toMatchObject({
        ok: false,
        description:
          'Bad Request: can\'t parse inline keyboard button: Field "copy_text" must be of type Object',
      });
      // copying sends nothing to the bot, so there is nothing to press
      const id = sent.body.ok ? sent.body.result.message_id : 0;
      const press = await control("/press", { user_id: 42, message_id: id, callback_data: token });
      expect(press.status).toBe(400);
    });
  });

  describe("the menu button", () => {
    const webApp = (text: string, url = APP): MenuButton => ({
      type: "web_app",
      text,
      web_app: { url },
    });

    it("is the command list until the bot sets one, per chat or as its default", async () => {
      expect(await ok(server, "getChatMenuButton")).toEqual({ type: "commands" });
      expect(await ok(server, "getChatMenuButton", { chat_id: 42 })).toEqual({ type: "default" });
      expect(server.messages(42).menu_button).toEqual({ type: "commands" });

      await ok(server, "setChatMenuButton", { menu_button: webApp("Katalog") });
      expect(await ok(server, "getChatMenuButton")).toEqual(webApp("Katalog"));
      expect(await ok(server, "getChatMenuButton", { chat_id: 42 })).toEqual({ type: "default" });
      expect(server.messages(42).menu_button).toEqual(webApp("Katalog"));

      // a chat's own button wins over the default, and "default" gives the chat back to it
      await ok(server, "setChatMenuButton", { chat_id: 42, menu_button: { type: "commands" } });
      expect(server.messages(42).menu_button).toEqual({ type: "commands" });
      await ok(server, "setChatMenuButton", { chat_id: 42, menu_button: webApp("Toko Budi") });
      expect(await ok(server, "getChatMenuButton", { chat_id: 42 })).toEqual(webApp("Toko Budi"));
      expect(server.messages(42).menu_button).toEqual(webApp("Toko Budi"));
      await ok(server, "setChatMenuButton", { chat_id: 42 });
      expect(await ok(server, "getChatMenuButton", { chat_id: 42 })).toEqual({ type: "default" });
      expect(server.messages(42).menu_button).toEqual(webApp("Katalog"));
      // the default reset is the command list again
      await ok(server, "setChatMenuButton", {});
      expect(await ok(server, "getChatMenuButton")).toEqual({ type: "commands" });
    });

    it("wakes the chat page when it changes", async () => {
      const before = server.messages(42).version;
      await ok(server, "setChatMenuButton", { menu_button: webApp("Katalog") });
      expect(server.messages(42).version).toBeGreaterThan(before);
    });

    it("refuses unknown chats, unknown types, empty texts and bad URLs", async () => {
      await fails(
        server,
        "setChatMenuButton",
        { chat_id: 77, menu_button: { type: "commands" } },
        400,
        "Bad Request: chat not found",
      );
      await fails(server, "getChatMenuButton", { chat_id: 77 }, 400, "Bad Request: chat not found");
      await fails(
        server,
        "setChatMenuButton",
        { menu_button: { type: "app" } },
        400,
        "Bad Request: can't parse menu button: unsupported menu button type",
      );
      await fails(
        server,
        "setChatMenuButton",
        { menu_button: webApp("") },
        400,
        "Bad Request: BUTTON_TEXT_INVALID",
      );
      await fails(
        server,
        "setChatMenuButton",
        { menu_button: webApp("Katalog", "shop") },
        400,
        "Bad Request: menu button Web App URL 'shop' is invalid: Wrong HTTP URL",
      );
      await fails(
        server,
        "setChatMenuButton",
        { menu_button: "commands" },
        400,
        "Bad Request: can't parse menu button JSON object",
      );
    });
  });

  describe("opening a Mini App", () => {
    async function katalog(): Promise<Message> {
      const sent = await sendButton({
        text: "🛍 Katalog",
        web_app: { url: `${APP}?tab=pulsa#top` },
      });
      if (!sent.body.ok) throw new Error(sent.body.description);
      return sent.body.result;
    }

    it("from an inline button: the URL with initData signed for the bot, as Telegram does", async () => {
      const message = await katalog();
      const launch = await result<WebAppLaunch>("/web-app", {
        user_id: 42,
        message_id: message.message_id,
      });
      expect(launch).toMatchObject({
        source: "inline_button",
        url: `${APP}?tab=pulsa#top`,
        button_text: "🛍 Katalog",
      });
      const check = checkInitData(DEFAULT_BOT.token, launch.init_data, { maxAgeSeconds: 86_400 });
      expect(check).toMatchObject({
        ok: true,
        user: {
          id: 42,
          first_name: "Budi",
          last_name: "",
          username: "budi",
          language_code: "id",
          allows_write_to_pm: true,
        },
        fields: { chat_type: "private", chat_instance: server.messages(42).chat_instance },
      });
      // no query_id from an inline button; the app talks to its own server
      expect(new URLSearchParams(launch.init_data).has("query_id")).toBe(false);
      expect(checkInitDataSignature(launch.init_data, DEFAULT_BOT.id)).toBe(true);
      expect(launch.init_data_unsafe).toMatchObject({
        user: { id: 42 },
        chat_type: "private",
        auth_date: expect.stringMatching(/^\d+$/),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });

      // what the client loads: the URL with the launch parameters in the fragment
      const loaded = new URL(launch.launch_url);
      expect(`${loaded.origin}${loaded.pathname}${loaded.search}`).toBe(`${APP}?tab=pulsa`);
      const fragment = new URLSearchParams(loaded.hash.slice(1));
      expect(fragment.get("tgWebAppData")).toBe(launch.init_data);
      expect(fragment.get("tgWebAppPlatform")).toBe("weba");
      expect(fragment.get("tgWebAppVersion")).toMatch(/^\d+\.\d+$/);
      expect(JSON.parse(fragment.get("tgWebAppThemeParams") ?? "{}")).toEqual(launch.theme_params);
      expect(launch.theme_params).toMatchObject({ bg_color: "#ffffff", button_color: "#3390ec" });
    });

    it("from the menu button: with a query_id the bot answers once with answerWebAppQuery", async () => {
      await ok(server, "setChatMenuButton", {
        chat_id: 42,
        menu_button: { type: "web_app", text: "Katalog", web_app: { url: APP } },
      });
      const launch = await result<WebAppLaunch>("/web-app", { user_id: 42, menu: true });
      expect(launch).toMatchObject({ source: "menu_button", url: APP, button_text: "Katalog" });
      const fields = new URLSearchParams(launch.init_data);
      const queryId = fields.get("query_id") ?? "";
      expect(queryId).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(fields.has("chat_type")).toBe(false);
      expect(checkInitData(DEFAULT_BOT.token, launch.init_data).ok).toBe(true);

      await ok(server, "getUpdates", { offset: -1 });
      const sent = await ok<{ inline_message_id?: string }>(server, "answerWebAppQuery", {
        web_app_query_id: queryId,
        result: {
          type: "article",
          id: "order-1",
          title: "Pesanan",
          input_message_content: { message_text: "🧾 <b>TSEL10</b> Rp10.500", parse_mode: "HTML" },
        },
      });
      expect(sent).toEqual({});
      const chat = server.messages(42);
      const last = chat.messages.at(-1)!;
      expect(last).toMatchObject({
        sender: "user",
        text: "🧾 TSEL10 Rp10.500",
        entities: [{ type: "bold", offset: 3, length: 6 }],
        via_bot: { id: DEFAULT_BOT.id, username: DEFAULT_BOT.username },
      });
      // the bot sees it in its private chat as the user's message, via itself
      const updates = await ok<Update[]>(server, "getUpdates", { offset: 0 });
      expect(updates.at(-1)?.message).toMatchObject({ text: "🧾 TSEL10 Rp10.500", via_bot: {} });

      await fails(
        server,
        "answerWebAppQuery",
        {
          web_app_query_id: queryId,
          result: {
            type: "article",
            id: "again",
            title: "x",
            input_message_content: { message_text: "x" },
          },
        },
        400,
        "Bad Request: query is too old and response timeout expired or query ID is invalid",
      );
    });

    it("from a reply keyboard button: no initData, and sendData reaches the bot", async () => {
      await ok(server, "sendMessage", {
        chat_id: 42,
        text: "Pilih",
        reply_markup: { keyboard: [[{ text: "🛍 Katalog", web_app: { url: APP } }]] },
      });
      const launch = await result<WebAppLaunch>("/web-app", {
        user_id: 42,
        keyboard_button: "🛍 Katalog",
      });
      expect(launch).toMatchObject({
        source: "keyboard_button",
        init_data: "",
        init_data_unsafe: {},
      });
      await ok(server, "getUpdates", { offset: -1 });
      const sent = await result<{ message: Message }>("/web-app/data", {
        user_id: 42,
        launch_id: launch.id,
        data: '{"code":"TSEL10"}',
      });
      expect(sent.message.web_app_data).toEqual({
        data: '{"code":"TSEL10"}',
        button_text: "🛍 Katalog",
      });
      const updates = await ok<Update[]>(server, "getUpdates", { offset: 0 });
      expect(updates.at(-1)?.message?.web_app_data?.data).toBe('{"code":"TSEL10"}');
      // once: the app closes after sendData
      expect(
        (await control("/web-app/data", { user_id: 42, launch_id: launch.id, data: "x" })).status,
      ).toBe(409);
    });

    it("refuses what a user could not open or send", async () => {
      const message = await katalog();
      const plain = await ok<Message>(server, "sendMessage", {
        chat_id: 42,
        text: "x",
        reply_markup: { inline_keyboard: [[{ text: "ok", callback_data: "ok" }]] },
      });
      expect(
        (await control("/web-app", { user_id: 42, message_id: plain.message_id })).body,
      ).toMatchObject({ ok: false, description: expect.stringContaining("no web_app button") });
      expect(
        (
          await control("/web-app", {
            user_id: 42,
            message_id: message.message_id,
            button_text: "Lain",
          })
        ).status,
      ).toBe(400);
      // the command list is not a Mini App
      expect((await control("/web-app", { user_id: 42, menu: true })).status).toBe(400);
      expect((await control("/web-app", { user_id: 42, keyboard_button: "Katalog" })).status).toBe(
        400,
      );
      expect((await control("/web-app", { user_id: 43, menu: true })).status).toBe(404);

      // sendData only from a keyboard button's app, at most 4096 bytes
      const inline = await result<WebAppLaunch>("/web-app", {
        user_id: 42,
        message_id: message.message_id,
      });
      expect(
        (await control("/web-app/data", { user_id: 42, launch_id: inline.id, data: "x" })).status,
      ).toBe(409);
      await ok(server, "sendMessage", {
        chat_id: 42,
        text: "Pilih",
        reply_markup: { keyboard: [[{ text: "K", web_app: { url: APP } }]] },
      });
      const keyboard = await result<WebAppLaunch>("/web-app", {
        user_id: 42,
        keyboard_button: "K",
      });
      expect(
        (
          await control("/web-app/data", {
            user_id: 42,
            launch_id: keyboard.id,
            data: "x".repeat(4097),
          })
        ).status,
      ).toBe(400);
    });
  });

  it("serves the Mini App script at a stable path, for any origin", async () => {
    for (const path of ["/telegram-web-app.js", "/js/telegram-web-app.js"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      const script = await res.text();
      expect(script).toContain("tgWebAppData");
      expect(script).toContain("web_app_setup_main_button");
    }
  });
});
