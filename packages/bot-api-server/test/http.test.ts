import type { Message, UserFromGetMe } from "@grammyjs/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBotApiServer, DEFAULT_BOT, type RunningBotApiServer } from "../index.ts";
import { call, expectBotMessage, ok, start, TOKEN } from "./helpers.ts";

describe("Bot API over HTTP", () => {
  let server: RunningBotApiServer;
  beforeAll(async () => {
    server = await start({
      bots: [
        DEFAULT_BOT,
        {
          token: "7000000002:second-bot-token-aaaaaaaaaaaaaaaaa",
          username: "kios_two_bot",
          firstName: "Two",
        },
      ],
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    server.user(42, { first_name: "Budi", username: "budi", language_code: "id" });
    server.sendText(42, "/start");
  });

  it("answers getMe like Telegram", async () => {
    const me = await ok<UserFromGetMe>(server, "getMe");
    expect(me).toMatchObject({
      id: DEFAULT_BOT.id,
      is_bot: true,
      first_name: "Kios",
      username: "kios_playground_bot",
      can_join_groups: true,
      can_read_all_group_messages: false,
      // the playground's bot has inline mode on, as if set with BotFather
      supports_inline_queries: true,
    });
  });

  it("takes the id of a second bot from its token and keeps its chats apart", async () => {
    const two = await call<UserFromGetMe>(
      server,
      "getMe",
      {},
      "7000000002:second-bot-token-aaaaaaaaaaaaaaaaa",
    );
    expect(two.body).toMatchObject({
      ok: true,
      result: { id: 7000000002, username: "kios_two_bot" },
    });
    // Budi started only the first bot
    const res = await call(
      server,
      "sendMessage",
      { chat_id: 42, text: "hi" },
      "7000000002:second-bot-token-aaaaaaaaaaaaaaaaa",
    );
    expect(res.body).toMatchObject({
      ok: false,
      error_code: 403,
      description: "Forbidden: bot can't initiate conversation with a user",
    });
  });

  it("treats method names case-insensitively", async () => {
    for (const name of ["getme", "GETME", "GetMe"]) {
      expect((await call(server, name)).body.ok).toBe(true);
    }
  });

  it("answers an unknown method with 404, an unknown token with 401, a malformed one with 404", async () => {
    expect(await call(server, "sendTelepathy")).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: "Not Found: method not found" },
    });
    expect(await call(server, "getMe", {}, "123456:unknown-token-aaaaaaaaaaaaaaaaaaa")).toEqual({
      status: 401,
      body: { ok: false, error_code: 401, description: "Unauthorized" },
    });
    expect(await call(server, "getMe", {}, "not-a-token")).toEqual({
      status: 404,
      body: { ok: false, error_code: 404, description: "Not Found" },
    });
  });

  it("reads parameters from the query string", async () => {
    const markup = encodeURIComponent(
      JSON.stringify({ inline_keyboard: [[{ text: "A", callback_data: "a" }]] }),
    );
    const res = await fetch(
      `${server.url}/bot${TOKEN}/sendMessage?chat_id=42&text=${encodeURIComponent("<b>hi</b>")}&parse_mode=HTML&reply_markup=${markup}`,
    );
    const body = (await res.json()) as { ok: true; result: Message };
    expect(res.status).toBe(200);
    expectBotMessage(body.result, 42);
    expect(body.result).toMatchObject({
      text: "hi",
      entities: [{ type: "bold", offset: 0, length: 2 }],
      reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "a" }]] },
    });
  });

  it("reads urlencoded bodies, where nested objects are JSON strings", async () => {
    const form = new URLSearchParams({
      chat_id: "42",
      text: "pilih",
      reply_markup: JSON.stringify({
        keyboard: [["Pulsa", { text: "Data" }]],
        resize_keyboard: true,
      }),
    });
    const res = await fetch(`${server.url}/bot${TOKEN}/sendMessage`, {
      method: "POST",
      body: form,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: true; result: Message };
    // a reply keyboard isn't part of the Message; the user's client shows it
    expect(body.result.reply_markup).toBeUndefined();
    expect(server.messages(42).reply_keyboard).toEqual({
      keyboard: [[{ text: "Pulsa" }, { text: "Data" }]],
      resize_keyboard: true,
    });
  });

  it("reads multipart bodies, including grammY's unquoted form", async () => {
    const boundary = "----------kios";
    const body = [
      `--${boundary}`,
      'content-disposition:form-data;name="chat_id"',
      "",
      "42",
      `--${boundary}`,
      'content-disposition:form-data;name="text"',
      "",
      "halo",
      `--${boundary}--`,
      "",
    ].join("\r\n");
    const res = await fetch(`${server.url}/bot${TOKEN}/sendMessage`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: Message }).result.text).toBe("halo");
  });

  it("refuses a broken reply_markup JSON string and a broken JSON body", async () => {
    const form = new URLSearchParams({ chat_id: "42", text: "x", reply_markup: "{nope" });
    const res = await fetch(`${server.url}/bot${TOKEN}/sendMessage`, {
      method: "POST",
      body: form,
    });
    expect(await res.json()).toEqual({
      ok: false,
      error_code: 400,
      description: "Bad Request: can't parse reply keyboard markup JSON object",
    });
    const broken = await fetch(`${server.url}/bot${TOKEN}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(broken.status).toBe(400);
  });

  it("answers unknown paths with Telegram's 404", async () => {
    const res = await fetch(`${server.url}/nothing/here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error_code: 404, description: "Not Found" });
  });
});

describe("createBotApiServer without listening", () => {
  it("serves the same API through app.request", async () => {
    const server = createBotApiServer();
    const res = await server.app.request(`/bot${DEFAULT_BOT.token}/getMe`);
    expect(await res.json()).toMatchObject({
      ok: true,
      result: { username: DEFAULT_BOT.username },
    });
    server.dispose();
  });
});
