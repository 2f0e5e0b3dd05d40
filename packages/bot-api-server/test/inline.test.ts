import type { CallbackQuery, InlineQueryResultArticle, Message, Update } from "@grammyjs/types";
import { ManualClock } from "@kios/kit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ChosenResult,
  DEFAULT_BOT,
  DESCRIPTIONS,
  type InlineAnswer,
  type InlineQuerySent,
  type RunningBotApiServer,
  type WebAppLaunch,
} from "../index.ts";
import { call, fails, ok, start, TOKEN } from "./helpers.ts";

// inline mode: "@bot words" sends an inline_query, answerInlineQuery shows results, picking one
// sends it as the user's message "via @bot" (and a chosen_inline_result when feedback is on)

interface ControlReply<T> {
  status: number;
  body: { ok: true; result: T } | { ok: false; description: string };
}

const TOO_OLD = `Bad Request: ${DESCRIPTIONS.queryTooOld}`;

function article(id: string, extra: Partial<InlineQueryResultArticle> = {}) {
  return {
    type: "article",
    id,
    title: `Produk ${id}`,
    input_message_content: { message_text: `<b>${id}</b> Rp10.500`, parse_mode: "HTML" },
    ...extra,
  };
}

describe("inline mode", () => {
  let server: RunningBotApiServer;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock();
    server = await start({
      clock,
      bots: [
        DEFAULT_BOT,
        {
          token: "7000000002:plain-bot-token-aaaaaaaaaaaaaaaaaaaa",
          username: "plain_bot",
          firstName: "Plain",
        },
      ],
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    // forgets pending updates and cached answers too
    server.reset();
    server.user(42, { first_name: "Budi", username: "budi", language_code: "id" });
    server.user(43, { first_name: "Sari" });
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

  /** the user types "@bot <query>"; returns the query the bot got */
  async function ask(userId: number, query: string, offset?: string) {
    const sent = await result<InlineQuerySent>("/inline-query", {
      user_id: userId,
      query,
      ...(offset === undefined ? {} : { offset }),
    });
    const updates = await ok<Update[]>(server, "getUpdates");
    await ok(server, "getUpdates", { offset: (updates.at(-1)?.update_id ?? 0) + 1 });
    return { sent, updates };
  }

  const answer = (id: string, params: Record<string, unknown>) =>
    call(server, "answerInlineQuery", { inline_query_id: id, ...params });

  it("sends an inline_query update and shows the bot's answer", async () => {
    const { sent, updates } = await ask(42, "tsel 10");
    expect(sent).toMatchObject({ cached: false, answer: null, query: "tsel 10", offset: "" });
    expect(updates).toEqual([
      {
        update_id: sent.update_id,
        inline_query: {
          id: sent.inline_query_id,
          from: {
            id: 42,
            is_bot: false,
            first_name: "Budi",
            username: "budi",
            language_code: "id",
          },
          query: "tsel 10",
          offset: "",
          chat_type: "sender",
        },
      },
    ]);
    expect(sent.inline_query_id).toMatch(/^\d+$/);

    // the control API can wait for the answer: asked before the bot answers, resolved by it
    const waiting = result<InlineAnswer | null>(
      `/inline-query/${sent.inline_query_id}?timeout=5000`,
    );
    const answered = await answer(sent.inline_query_id, {
      results: [
        article("TSEL10", {
          description: "Telkomsel 10.000",
          thumbnail_url: "https://shop.example/tsel.png",
          reply_markup: {
            inline_keyboard: [
              [{ text: "Beli", url: "https://t.me/kios_playground_bot?start=p_TSEL10" }],
              [{ text: "Salin kode", copy_text: { text: "TSEL10" } }],
            ],
          },
        }),
        article("TSEL25"),
      ],
      cache_time: 0,
      is_personal: true,
      next_offset: "2",
      button: { text: "Cara beli", start_parameter: "inline_help" },
    });
    expect(answered.body).toEqual({ ok: true, result: true });
    const shown = await waiting;
    expect(shown).toEqual({
      results: [
        {
          type: "article",
          id: "TSEL10",
          title: "Produk TSEL10",
          description: "Telkomsel 10.000",
          thumbnail_url: "https://shop.example/tsel.png",
          text: "TSEL10 Rp10.500",
          entities: [{ type: "bold", offset: 0, length: 6 }],
          reply_markup: {
            inline_keyboard: [
              [{ text: "Beli", url: "https://t.me/kios_playground_bot?start=p_TSEL10" }],
              [{ text: "Salin kode", copy_text: { text: "TSEL10" } }],
            ],
          },
        },
        {
          type: "article",
          id: "TSEL25",
          title: "Produk TSEL25",
          text: "TSEL25 Rp10.500",
          entities: [{ type: "bold", offset: 0, length: 6 }],
        },
      ],
      cache_time: 0,
      is_personal: true,
      next_offset: "2",
      button: { text: "Cara beli", start_parameter: "inline_help" },
    });

    // the next page is asked for with the offset the bot gave
    const next = await ask(42, "tsel 10", "2");
    expect(next.updates[0]?.inline_query).toMatchObject({ query: "tsel 10", offset: "2" });
  });

  it("sends a chosen result as the user's message via the bot, and chosen_inline_result", async () => {
    const { sent } = await ask(42, "tsel");
    await answer(sent.inline_query_id, {
      results: [
        article("TSEL10", {
          reply_markup: { inline_keyboard: [[{ text: "🔁 Cek harga", callback_data: "price" }]] },
        }),
      ],
      cache_time: 0,
    });
    const chosen = await result<ChosenResult>(`/inline-query/${sent.inline_query_id}/choose`, {
      user_id: 42,
      result_id: "TSEL10",
    });
    const bot = {
      id: DEFAULT_BOT.id,
      is_bot: true,
      first_name: "Kios",
      username: DEFAULT_BOT.username,
    };
    expect(chosen.message).toMatchObject({
      from: { id: 42 },
      chat: { id: 42, type: "private" },
      text: "TSEL10 Rp10.500",
      entities: [{ type: "bold", offset: 0, length: 6 }],
      via_bot: bot,
      reply_markup: { inline_keyboard: [[{ text: "🔁 Cek harga", callback_data: "price" }]] },
    });
    const inlineMessageId = chosen.chosen_inline_result?.inline_message_id ?? "";
    expect(inlineMessageId).not.toBe("");
    const updates = await ok<Update[]>(server, "getUpdates");
    expect(updates.map((u) => Object.keys(u).find((k) => k !== "update_id"))).toEqual([
      "message",
      "chosen_inline_result",
    ]);
    expect(updates[1]?.chosen_inline_result).toEqual({
      result_id: "TSEL10",
      from: { id: 42, is_bot: false, first_name: "Budi", username: "budi", language_code: "id" },
      query: "tsel",
      inline_message_id: inlineMessageId,
    });
    await ok(server, "getUpdates", { offset: (updates.at(-1)?.update_id ?? 0) + 1 });
    const view = server.messages(42).messages.at(-1)!;
    expect(view).toMatchObject({
      sender: "user",
      via_bot: bot,
      inline_message_id: inlineMessageId,
    });

    // its buttons make callback queries of an inline message: its id, no message
    const pressed = await result<{ callback_query: CallbackQuery }>("/press", {
      user_id: 42,
      message_id: view.message_id,
      callback_data: "price",
    });
    expect(pressed.callback_query).toEqual({
      id: expect.any(String),
      from: expect.objectContaining({ id: 42 }),
      inline_message_id: inlineMessageId,
      chat_instance: server.messages(42).chat_instance,
      data: "price",
    });
    await ok(server, "answerCallbackQuery", { callback_query_id: pressed.callback_query.id });

    // the bot edits it by inline_message_id and gets true, as Telegram answers
    expect(
      await ok(server, "editMessageText", {
        inline_message_id: inlineMessageId,
        text: "TSEL10 <i>habis</i>",
        parse_mode: "HTML",
      }),
    ).toBe(true);
    expect(
      await ok(server, "editMessageReplyMarkup", {
        inline_message_id: inlineMessageId,
        reply_markup: { inline_keyboard: [[{ text: "Lain", callback_data: "other" }]] },
      }),
    ).toBe(true);
    expect(server.messages(42).messages.at(-1)).toMatchObject({
      text: "TSEL10 habis",
      edited: true,
      reply_markup: { inline_keyboard: [[{ text: "Lain", callback_data: "other" }]] },
    });
    await fails(
      server,
      "editMessageText",
      { inline_message_id: "nope", text: "x" },
      400,
      "Bad Request: MESSAGE_ID_INVALID",
    );
    // a result without a keyboard has no inline_message_id
    const again = await ask(42, "plain");
    await answer(again.sent.inline_query_id, { results: [article("P1")], cache_time: 0 });
    const plain = await result<ChosenResult>(`/inline-query/${again.sent.inline_query_id}/choose`, {
      user_id: 42,
      result_id: "P1",
    });
    expect(plain.chosen_inline_result).toEqual({
      result_id: "P1",
      from: expect.objectContaining({ id: 42 }),
      query: "plain",
    });
    expect(
      (
        await control(`/inline-query/${again.sent.inline_query_id}/choose`, {
          user_id: 42,
          result_id: "nope",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await control(`/inline-query/${again.sent.inline_query_id}/choose`, {
          user_id: 43,
          result_id: "P1",
        })
      ).status,
    ).toBe(404);
  });

  it("refuses bad answers with Telegram's errors", async () => {
    const { sent } = await ask(42, "x");
    const id = sent.inline_query_id;
    const refused = async (params: Record<string, unknown>, description: string) =>
      expect((await answer(id, params)).body).toMatchObject({
        ok: false,
        error_code: 400,
        description,
      });

    await refused(
      { results: Array.from({ length: 51 }, (_, i) => article(`r${i}`)) },
      "Bad Request: RESULTS_TOO_MUCH",
    );
    await refused({ results: [article("a"), article("a")] }, "Bad Request: RESULT_ID_DUPLICATE");
    await refused({ results: [article("x".repeat(65))] }, "Bad Request: RESULT_ID_INVALID");
    await refused({ results: [article("")] }, "Bad Request: RESULT_ID_INVALID");
    await refused(
      { results: [{ ...article("a"), type: "poll" }] },
      "Bad Request: RESULT_TYPE_INVALID",
    );
    await refused(
      { results: [{ ...article("a"), title: undefined }] },
      'Bad Request: can\'t parse InlineQueryResult: Field "title" must be of type String',
    );
    await refused(
      {
        results: [
          article("a", { input_message_content: { message_text: "<b>x", parse_mode: "HTML" } }),
        ],
      },
      "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    );
    await refused({ results: [], next_offset: "x".repeat(65) }, "Bad Request: NEXT_OFFSET_INVALID");
    await refused(
      { results: [], button: { text: "Mulai", start_parameter: "bad param!" } },
      "Bad Request: START_PARAM_INVALID",
    );
    await refused(
      {
        results: [],
        button: { text: "Mulai", start_parameter: "a", web_app: { url: "https://shop.example" } },
      },
      "Bad Request: can't parse InlineQueryResultsButton: exactly one of web_app and start_parameter must be used",
    );
    // the failures did not use the query up: a good answer still goes through, once
    expect((await answer(id, { results: [article("a")] })).body.ok).toBe(true);
    await fails(server, "answerInlineQuery", { inline_query_id: id, results: [] }, 400, TOO_OLD);
    await fails(server, "answerInlineQuery", { inline_query_id: "123", results: [] }, 400, TOO_OLD);

    // a query is answerable for 10 seconds, on the server's clock
    const late = await ask(42, "late");
    clock.advance(10_001);
    await fails(
      server,
      "answerInlineQuery",
      { inline_query_id: late.sent.inline_query_id, results: [] },
      400,
      TOO_OLD,
    );
    const inTime = await ask(42, "in time");
    clock.advance(9_000);
    expect((await answer(inTime.sent.inline_query_id, { results: [] })).body.ok).toBe(true);
  });

  it("caches answers for cache_time seconds, for everyone unless is_personal", async () => {
    const first = await ask(42, "pulsa");
    await answer(first.sent.inline_query_id, { results: [article("shared")], cache_time: 60 });
    // another user typing the same words gets the cached answer; the bot is not asked
    const other = await ask(43, "pulsa");
    expect(other.updates).toEqual([]);
    expect(other.sent.cached).toBe(true);
    expect(other.sent.update_id).toBeUndefined();
    expect(other.sent.answer?.results.map((r) => r.id)).toEqual(["shared"]);
    // other words, or another page, are other queries
    expect((await ask(43, "pulsa", "2")).updates).toHaveLength(1);
    clock.advance(61_000);
    expect((await ask(43, "pulsa")).updates).toHaveLength(1);

    // personal answers are cached for their user only
    const mine = await ask(42, "saldo");
    await answer(mine.sent.inline_query_id, {
      results: [article("mine")],
      cache_time: 60,
      is_personal: true,
    });
    expect((await ask(42, "saldo")).sent).toMatchObject({ cached: true });
    expect((await ask(43, "saldo")).sent).toMatchObject({ cached: false, answer: null });

    // cache_time 0: never cached
    const fresh = await ask(42, "baru");
    await answer(fresh.sent.inline_query_id, { results: [article("a")], cache_time: 0 });
    expect((await ask(42, "baru")).sent.cached).toBe(false);
  });

  it("opens the Mini App of the results' button, without initData as Telegram documents", async () => {
    const { sent } = await ask(42, "");
    expect(
      (await control("/web-app", { user_id: 42, inline_query_id: sent.inline_query_id })).status,
    ).toBe(400);
    await answer(sent.inline_query_id, {
      results: [],
      cache_time: 0,
      button: { text: "Buka katalog", web_app: { url: "https://shop.example/app" } },
    });
    const launch = await result<WebAppLaunch>("/web-app", {
      user_id: 42,
      inline_query_id: sent.inline_query_id,
    });
    expect(launch).toMatchObject({
      source: "inline_results_button",
      url: "https://shop.example/app",
      button_text: "Buka katalog",
      init_data: "",
    });
  });

  it("without inline mode or feedback, as set with BotFather", async () => {
    const me = await call<{ supports_inline_queries: boolean }>(
      server,
      "getMe",
      {},
      "7000000002:plain-bot-token-aaaaaaaaaaaaaaaaaaaa",
    );
    expect(me.body).toMatchObject({ ok: true, result: { supports_inline_queries: false } });
    expect(
      (await control("/inline-query", { user_id: 42, query: "x", bot: "plain_bot" })).status,
    ).toBe(409);
    expect(
      (await ok<{ supports_inline_queries: boolean }>(server, "getMe")).supports_inline_queries,
    ).toBe(true);
    expect((await control("/inline-query", { user_id: 42, query: "x".repeat(257) })).status).toBe(
      400,
    );
    expect(TOKEN).toBe(DEFAULT_BOT.token);
  });

  it("gives no chosen_inline_result when the bot did not ask for feedback", async () => {
    const quiet = await start({ bots: [{ ...DEFAULT_BOT, inlineFeedback: false }] });
    try {
      quiet.user(42, { first_name: "Budi" });
      const sent = quiet.inlineQuery(42, "tsel");
      await call(quiet, "answerInlineQuery", {
        inline_query_id: sent.inline_query_id,
        results: [article("TSEL10")],
      });
      const chosen = quiet.chooseInlineResult(42, sent.inline_query_id, "TSEL10");
      expect(chosen.chosen_inline_result).toBeUndefined();
      const updates = await ok<Update[]>(quiet, "getUpdates");
      expect(updates.map((u) => Object.keys(u).find((k) => k !== "update_id"))).toEqual([
        "inline_query",
        "message",
      ]);
      const message = updates[1]?.message as Message;
      expect(message.via_bot?.username).toBe(DEFAULT_BOT.username);
    } finally {
      await quiet.close();
    }
  });
});
