import type { LinkPreviewOptions, Message } from "@grammyjs/types";
import { badRequest } from "./errors.ts";
import { formatText, MESSAGE_TEXT } from "./formatting.ts";
import { parseInlineMarkup } from "./keyboard.ts";
import type { BotState, StoredResult } from "./state.ts";
import type { World } from "./world.ts";

// InlineQueryResult objects, from answerInlineQuery and answerWebAppQuery, checked when they
// arrive (as Telegram does) and turned into the message the user sends "via @bot"

const MAX_RESULTS = 50;
const ID_MAX_BYTES = 64;
const KNOWN_TYPES = new Set([
  "article",
  "photo",
  "gif",
  "mpeg4_gif",
  "video",
  "audio",
  "voice",
  "document",
  "location",
  "venue",
  "contact",
  "game",
  "sticker",
]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const resultFail = (why: string) => badRequest(`can't parse InlineQueryResult: ${why}`);
const contentFail = (why: string) => badRequest(`can't parse InputMessageContent: ${why}`);

function optText(obj: Obj, key: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw resultFail(`Field "${key}" must be of type String`);
  return v;
}

/** one result, checked; `world` parses the message text's entities */
export function parseResult(raw: unknown, world: World): StoredResult {
  if (!isObj(raw)) throw resultFail("Object expected");
  if (typeof raw.type !== "string") throw resultFail('Field "type" must be of type String');
  if (typeof raw.id !== "string") throw badRequest("RESULT_ID_INVALID");
  const idBytes = Buffer.byteLength(raw.id, "utf8");
  if (idBytes < 1 || idBytes > ID_MAX_BYTES) throw badRequest("RESULT_ID_INVALID");
  const type = raw.type.toLowerCase();
  if (!KNOWN_TYPES.has(type)) throw badRequest("RESULT_TYPE_INVALID");
  // deviation: the other result types need media the playground can't fetch
  if (type !== "article")
    throw resultFail('only "article" results are supported by the playground');
  const title = optText(raw, "title");
  if (title === undefined) throw resultFail('Field "title" must be of type String');

  const content = raw.input_message_content;
  if (!isObj(content)) throw resultFail('Field "input_message_content" must be of type Object');
  if (content.message_text === undefined)
    throw contentFail("only text content is supported by the playground");
  if (typeof content.message_text !== "string")
    throw contentFail('Field "message_text" must be of type String');
  const formatted = formatText(
    {
      text: content.message_text,
      parseMode: typeof content.parse_mode === "string" ? content.parse_mode : undefined,
      entities: content.entities,
    },
    MESSAGE_TEXT,
    world.entities,
  );
  const markup = parseInlineMarkup(raw.reply_markup ?? undefined);
  const result: StoredResult = {
    type: "article",
    id: raw.id,
    title,
    text: formatted.text,
    entities: formatted.entities,
  };
  for (const key of ["description", "url", "thumbnail_url"] as const) {
    const value = optText(raw, key);
    if (value !== undefined) result[key] = value;
  }
  if (isObj(content.link_preview_options))
    result.link_preview_options = content.link_preview_options as LinkPreviewOptions;
  if (markup) result.reply_markup = markup;
  return result;
}

/** answerInlineQuery's results: at most 50, ids unique */
export function parseResults(raw: unknown, world: World): StoredResult[] {
  if (!Array.isArray(raw)) throw badRequest("can't parse inline query results JSON object");
  if (raw.length > MAX_RESULTS) throw badRequest("RESULTS_TOO_MUCH");
  const results = raw.map((r) => parseResult(r, world));
  const ids = new Set<string>();
  for (const r of results) {
    if (ids.has(r.id)) throw badRequest("RESULT_ID_DUPLICATE");
    ids.add(r.id);
  }
  return results;
}

/** what the user's message holds when they send a result via the bot */
export function viaBotContent(bot: BotState, result: StoredResult): Partial<Message> {
  return {
    text: result.text,
    ...(result.entities.length > 0 ? { entities: result.entities } : {}),
    ...(result.link_preview_options ? { link_preview_options: result.link_preview_options } : {}),
    ...(result.reply_markup?.inline_keyboard.some((row) => row.length > 0)
      ? { reply_markup: result.reply_markup }
      : {}),
    via_bot: bot.user,
  };
}
