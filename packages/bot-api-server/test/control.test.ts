import type { Message, Update } from "@grammyjs/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatView, Pressed, RunningBotApiServer, Sent } from "../index.ts";
import { later, ok, start } from "./helpers.ts";

interface ControlReply<T> {
  status: number;
  body: { ok: true; result: T } | { ok: false; description: string };
}

describe("control API", () => {
  let server: RunningBotApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

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

  it("creates users and sends their messages as real updates", async () => {
    const user = await result("/users", {
      id: 42,
      first_name: "Budi",
      username: "budi",
      language_code: "id",
    });
    expect(user).toEqual({
      id: 42,
      is_bot: false,
      first_name: "Budi",
      username: "budi",
      language_code: "id",
    });

    const sent = await result<Sent>("/send", { user_id: 42, text: "/start promo" });
    const [update] = await ok<Update[]>(server, "getUpdates");
    expect(update).toEqual({ update_id: sent.update_id, message: sent.message });
    expect(update!.message).toEqual({
      message_id: 1,
      from: user,
      chat: { id: 42, first_name: "Budi", username: "budi", type: "private" },
      date: expect.any(Number),
      text: "/start promo",
      entities: [{ type: "bot_command", offset: 0, length: 6 }],
    });

    expect((await control("/send", { user_id: 99, text: "x" })).status).toBe(404);
    expect((await control("/send", { user_id: 42 })).status).toBe(400);
    expect((await control("/send", { user_id: 42, text: "  " })).body).toEqual({
      ok: false,
      description: "Bad Request: message text is empty",
    });
  });

  it("sends stickers and photos", async () => {
    await result("/users", { id: 42 });
    const sticker = await result<Sent>("/send", { user_id: 42, sticker: { emoji: "👍" } });
    expect(sticker.message.sticker).toMatchObject({ emoji: "👍", width: 512, height: 512 });
    const photo = await result<Sent>("/send", { user_id: 42, photo: true, caption: "bukti" });
    expect(photo.message).toMatchObject({
      caption: "bukti",
      photo: [expect.objectContaining({ width: 1, height: 1 })],
    });
    // the page can show what the user sent
    const image = await fetch(`${server.url}/control/files/${photo.message.photo![0]!.file_id}`);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("lists a chat's messages with edits, deletions and toasts", async () => {
    await result("/users", { id: 42, first_name: "Budi" });
    await result("/send", { user_id: 42, text: "/start" });
    const m = await ok<Message>(server, "sendMessage", {
      chat_id: 42,
      text: "Menu",
      reply_markup: { inline_keyboard: [[{ text: "Beli", callback_data: "buy" }]] },
    });
    const pressed = await result<Pressed>("/press", {
      user_id: 42,
      message_id: m.message_id,
      callback_data: "buy",
    });
    await ok(server, "answerCallbackQuery", {
      callback_query_id: pressed.callback_query.id,
      text: "Siap!",
      show_alert: true,
    });
    await ok(server, "editMessageText", {
      chat_id: 42,
      message_id: m.message_id,
      text: "Diproses",
    });
    const gone = await ok<Message>(server, "sendMessage", { chat_id: 42, text: "sementara" });
    await ok(server, "deleteMessage", { chat_id: 42, message_id: gone.message_id });

    const chat = await result<ChatView>("/chats/42/messages");
    expect(chat).toMatchObject({
      chat_id: 42,
      started: true,
      blocked: false,
      bot: { username: "kios_playground_bot" },
    });
    expect(
      chat.messages.map((x) => ({
        id: x.message_id,
        sender: x.sender,
        text: x.text,
        edited: x.edited,
        deleted: x.deleted,
      })),
    ).toEqual([
      { id: 1, sender: "user", text: "/start", edited: false, deleted: false },
      { id: 2, sender: "bot", text: "Diproses", edited: true, deleted: false },
      { id: 3, sender: "bot", text: "sementara", edited: false, deleted: true },
    ]);
    expect(chat.messages[1]!.history).toEqual([
      {
        text: "Menu",
        reply_markup: { inline_keyboard: [[{ text: "Beli", callback_data: "buy" }]] },
        date: m.date,
      },
    ]);
    expect(chat.callback_answers).toEqual([
      {
        callback_query_id: pressed.callback_query.id,
        message_id: 2,
        data: "buy",
        text: "Siap!",
        show_alert: true,
        date: expect.any(Number),
      },
    ]);
  });

  it("refuses a press of a button that is gone", async () => {
    await result("/users", { id: 42 });
    await result("/send", { user_id: 42, text: "/start" });
    const m = await ok<Message>(server, "sendMessage", {
      chat_id: 42,
      text: "Menu",
      reply_markup: { inline_keyboard: [[{ text: "Beli", callback_data: "buy" }]] },
    });
    await ok(server, "editMessageReplyMarkup", { chat_id: 42, message_id: m.message_id });
    const res = await control("/press", {
      user_id: 42,
      message_id: m.message_id,
      callback_data: "buy",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      ok: false,
      description: expect.stringContaining("no button"),
    });
  });

  it("long-polls a chat for its next change instead of busy-polling", async () => {
    await result("/users", { id: 42 });
    await result("/send", { user_id: 42, text: "/start" });
    const before = await result<ChatView>("/chats/42/messages");

    const events: string[] = [];
    const wait = result<{ changed: boolean; chat: ChatView }>(
      `/chats/42/wait?after=${before.version}&timeout=5000`,
    ).then((r) => {
      events.push("woke");
      return r;
    });
    events.push(await later(100, "bot replies"));
    await ok(server, "sendMessage", { chat_id: 42, text: "Halo!" });
    const woke = await wait;
    expect(events).toEqual(["bot replies", "woke"]);
    expect(woke.changed).toBe(true);
    expect(woke.chat.version).toBeGreaterThan(before.version);
    expect(woke.chat.messages.at(-1)!.text).toBe("Halo!");

    // nothing happens: changed false after the timeout
    const idle = await result<{ changed: boolean; chat: ChatView }>(
      `/chats/42/wait?after=${woke.chat.version}&timeout=200`,
    );
    expect(idle).toMatchObject({ changed: false, chat: { version: woke.chat.version } });
  });

  it("wakes waiters on reset, whose versions never repeat", async () => {
    await result("/users", { id: 42 });
    await result("/send", { user_id: 42, text: "/start" });
    const before = await result<ChatView>("/chats/42/messages");
    const wait = result<{ changed: boolean; chat: ChatView }>(
      `/chats/42/wait?after=${before.version}&timeout=5000`,
    );
    await later(50, "");
    expect(await result("/reset", {})).toBe(true);
    const woke = await wait;
    expect(woke.changed).toBe(true);
    expect(woke.chat.messages).toEqual([]);
    expect(woke.chat.version).toBeGreaterThan(before.version);
    expect(await result("/users")).toEqual([]);
  });

  it("blocks the bot as the user", async () => {
    await result("/users", { id: 42 });
    await result("/send", { user_id: 42, text: "/start" });
    const chat = await result<ChatView>("/block", { user_id: 42 });
    expect(chat.blocked).toBe(true);
    expect((await control("/send", { user_id: 42, text: "x" })).status).toBe(409);
    expect((await result<ChatView>("/block", { user_id: 42, blocked: false })).blocked).toBe(false);
  });

  it("resolves the command menu and lists bots", async () => {
    await result("/users", { id: 42, language_code: "id" });
    await ok(server, "setMyCommands", { commands: [{ command: "start", description: "Mulai" }] });
    expect(await result("/chats/42/commands")).toEqual([
      { command: "start", description: "Mulai" },
    ]);
    expect(await result("/bots")).toEqual([
      {
        id: 7000000001,
        username: "kios_playground_bot",
        first_name: "Kios",
        webhook_url: "",
        pending_update_count: 0,
      },
    ]);
    await ok(server, "deleteMyCommands");
  });

  it("sets rate limits at run time", async () => {
    expect(await result("/rate-limits", { enabled: true, perSecondPerChat: 2 })).toMatchObject({
      enabled: true,
      perSecondPerChat: 2,
      perSecondTotal: 30,
    });
    expect(await result("/rate-limits", { enabled: false })).toMatchObject({ enabled: false });
    expect((await control("/rate-limits", { perSecondTotal: -1 })).status).toBe(400);
  });

  it("answers unknown control paths with 404", async () => {
    expect((await control("/nope")).status).toBe(404);
  });
});
