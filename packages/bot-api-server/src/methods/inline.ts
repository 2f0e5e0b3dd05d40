import type { InlineQueryResultsButton } from "@grammyjs/types";
import { badRequest, DESCRIPTIONS } from "../errors.ts";
import { parseResults } from "../inline-results.ts";
import { cacheKey } from "../inline-state.ts";
import { webAppInfo } from "../keyboard.ts";
import { optBool, optInt, optJson, optString, type Params, requireString } from "../params.ts";
import type { InlineAnswer } from "../state.ts";
import type { MethodContext, MethodTable } from "./context.ts";

/** how long a bot has to answer an inline query, as on Telegram */
const INLINE_ANSWER_MS = 10_000;
const DEFAULT_CACHE_SECONDS = 300;
const NEXT_OFFSET_MAX_BYTES = 64;
const START_PARAMETER = /^[A-Za-z0-9_-]{1,64}$/;

const buttonFail = (why: string) => badRequest(`can't parse InlineQueryResultsButton: ${why}`);

/** `button`, or the older switch_pm_text and switch_pm_parameter */
function resultsButton(params: Params): InlineQueryResultsButton | undefined {
  let raw = optJson(params, "button", "inline query results button");
  const pmText = optString(params, "switch_pm_text");
  if (raw === undefined && pmText !== undefined)
    raw = { text: pmText, start_parameter: optString(params, "switch_pm_parameter") };
  if (raw === undefined) return undefined;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw buttonFail("Object expected");
  const b = raw as Record<string, unknown>;
  if (typeof b.text !== "string" || b.text.trim() === "") throw badRequest("BUTTON_TEXT_INVALID");
  const hasApp = b.web_app !== undefined && b.web_app !== null;
  const hasStart = b.start_parameter !== undefined && b.start_parameter !== null;
  if (hasApp === hasStart)
    throw buttonFail("exactly one of web_app and start_parameter must be used");
  if (hasApp)
    return {
      text: b.text,
      web_app: webAppInfo(b.web_app, "inline query results button", buttonFail),
    };
  if (typeof b.start_parameter !== "string" || !START_PARAMETER.test(b.start_parameter))
    throw badRequest("START_PARAM_INVALID");
  return { text: b.text, start_parameter: b.start_parameter };
}

function answerInlineQuery(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const id = requireString(params, "inline_query_id", DESCRIPTIONS.queryTooOld);
  const query = bot.inline.queries.get(id);
  // answered once, within 10 seconds
  if (!query || query.answer || world.clock.now() - query.sentAt > INLINE_ANSWER_MS)
    throw badRequest(DESCRIPTIONS.queryTooOld);
  const results = parseResults(optJson(params, "results", "inline query results"), world);
  const cacheTime = Math.max(0, optInt(params, "cache_time") ?? DEFAULT_CACHE_SECONDS);
  const isPersonal = optBool(params, "is_personal") ?? false;
  const nextOffset = optString(params, "next_offset") ?? "";
  if (Buffer.byteLength(nextOffset, "utf8") > NEXT_OFFSET_MAX_BYTES)
    throw badRequest("NEXT_OFFSET_INVALID");
  const button = resultsButton(params);

  const answer: InlineAnswer = {
    results,
    cache_time: cacheTime,
    is_personal: isPersonal,
    next_offset: nextOffset,
    ...(button ? { button } : {}),
  };
  query.answer = answer;
  if (cacheTime > 0) {
    const key = cacheKey(query.query, query.offset, isPersonal ? query.userId : undefined);
    bot.inline.cache.set(key, { answer, until: world.clock.now() + cacheTime * 1000 });
  }
  bot.inline.notifier.notify();
  return true;
}

export const inlineMethods: MethodTable = {
  answerinlinequery: answerInlineQuery,
};
