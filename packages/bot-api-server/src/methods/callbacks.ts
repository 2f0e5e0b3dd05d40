import { badRequest, DESCRIPTIONS } from "../errors.ts";
import { optBool, optInt, optString, requireString } from "../params.ts";
import type { MethodContext, MethodTable } from "./context.ts";

// Telegram's limit on a callback answer's notification text
const ANSWER_TEXT_LIMIT = 200;

function answerCallbackQuery(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const id = requireString(params, "callback_query_id", DESCRIPTIONS.queryTooOld);
  const text = optString(params, "text");
  const showAlert = optBool(params, "show_alert") ?? false;
  const url = optString(params, "url");
  optInt(params, "cache_time");
  if (text !== undefined && [...text].length > ANSWER_TEXT_LIMIT)
    throw badRequest("MESSAGE_TOO_LONG");

  const pending = bot.callbacks.get(id);
  // an answered query can't be answered again
  if (!pending || pending.answered) throw badRequest(DESCRIPTIONS.queryTooOld);
  pending.answered = true;
  const chat = bot.chats.get(pending.userId);
  if (chat) {
    chat.callbackAnswers.push({
      callback_query_id: id,
      message_id: pending.messageId,
      data: pending.data,
      text,
      show_alert: showAlert,
      url,
      date: world.nowSeconds(),
    });
    world.touch(bot, pending.userId);
  }
  return true;
}

export const callbackMethods: MethodTable = {
  answercallbackquery: answerCallbackQuery,
};
