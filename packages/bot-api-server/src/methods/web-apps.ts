import type { SentWebAppMessage } from "@grammyjs/types";
import { commitUserMessage } from "../chat-ops.ts";
import { badRequest, DESCRIPTIONS } from "../errors.ts";
import { parseResult, viaBotContent } from "../inline-results.ts";
import { optJson, requireString } from "../params.ts";
import type { MethodContext, MethodTable } from "./context.ts";

/** the answer to a Mini App opened from the menu button: a message the user sends via the bot */
// the id is there only when the message has a keyboard (the types say always; the docs don't)
function answerWebAppQuery(ctx: MethodContext): Partial<SentWebAppMessage> {
  const { world, bot, params } = ctx;
  const id = requireString(params, "web_app_query_id", DESCRIPTIONS.queryTooOld);
  const session = [...bot.webApps.values()].find((s) => s.queryId === id);
  // a query is answered once
  if (!session || session.done) throw badRequest(DESCRIPTIONS.queryTooOld);
  const result = parseResult(optJson(params, "result", "inline query result"), world);
  const chat = world.targetChat(bot, session.userId);
  const user = world.users.get(session.userId);
  if (!user) throw badRequest(DESCRIPTIONS.queryTooOld);
  const { message } = commitUserMessage(world, bot, chat, user, viaBotContent(bot, result));
  session.done = true;
  const inlineMessageId = chat.messages.get(message.message_id)?.inlineMessageId;
  return inlineMessageId ? { inline_message_id: inlineMessageId } : {};
}

export const webAppMethods: MethodTable = {
  answerwebappquery: answerWebAppQuery,
};
