import { randomBytes } from "node:crypto";
import type { ChosenInlineResult, Message } from "@grammyjs/types";
import { type BotOption, type ControlContext, ControlError } from "./control-context.ts";
import { viaBotContent } from "./inline-results.ts";
import { cacheKey } from "./inline-state.ts";
import { waitUntil } from "./notifier.ts";
import type { BotState, InlineAnswer, InlineQueryState } from "./state.ts";

// the control API's inline mode: a user types "@bot words", sees the answer, picks a result

const MAX_QUERY_CHARS = 256;

export interface InlineQuerySent {
  inline_query_id: string;
  /** undefined when the answer came from the cache or allowed_updates filtered the update */
  update_id: number | undefined;
  query: string;
  offset: string;
  /** the client had the answer cached (cache_time, is_personal): the bot was not asked */
  cached: boolean;
  /** the answer, when there is one already */
  answer: InlineAnswer | null;
}

export interface ChosenResult {
  update_id: number | undefined;
  /** the user's message, sent via the bot */
  message: Message;
  /** what the bot got, when it asked for inline feedback */
  chosen_inline_result?: ChosenInlineResult;
}

export interface InlineControl {
  /** the user types "@bot <query>" (offset: the next page the bot offered) */
  inlineQuery(
    userId: number,
    query: string,
    options?: BotOption & { offset?: string },
  ): InlineQuerySent;
  /** the bot's answer to a query, waiting up to timeoutMs for it; null when none came */
  inlineAnswer(
    queryId: string,
    timeoutMs: number,
    options?: BotOption & { signal?: AbortSignal },
  ): Promise<InlineAnswer | null>;
  /** the user picks a result: it is sent to the chat as their message via the bot */
  chooseInlineResult(
    userId: number,
    queryId: string,
    resultId: string,
    options?: BotOption,
  ): ChosenResult;
}

/** a cached answer the user may see: their own first, then one for everyone */
function cachedAnswer(
  bot: BotState,
  now: number,
  query: string,
  offset: string,
  userId: number,
): InlineAnswer | undefined {
  for (const key of [cacheKey(query, offset, userId), cacheKey(query, offset)]) {
    const hit = bot.inline.cache.get(key);
    if (!hit) continue;
    if (hit.until > now) return hit.answer;
    bot.inline.cache.delete(key);
  }
  return undefined;
}

export function inlineControl(context: ControlContext): InlineControl {
  const { world, botOf, requireUser, userSends } = context;

  const queryOf = (bot: BotState, queryId: string): InlineQueryState => {
    const query = bot.inline.queries.get(queryId);
    if (!query) throw new ControlError(404, `no inline query ${queryId}`);
    return query;
  };

  return {
    inlineQuery(userId, query, options) {
      const bot = botOf(options);
      const user = requireUser(userId);
      if (!bot.config.inline)
        throw new ControlError(
          409,
          `@${bot.config.username} has no inline mode (BotFather's /setinline)`,
        );
      if ([...query].length > MAX_QUERY_CHARS)
        throw new ControlError(400, "an inline query has at most 256 characters");
      const offset = options?.offset ?? "";
      const now = world.clock.now();
      const state: InlineQueryState = {
        // Telegram's ids are large decimal numbers in a string
        id: BigInt(`0x${randomBytes(8).toString("hex")}`).toString(),
        userId,
        query,
        offset,
        sentAt: now,
      };
      bot.inline.queries.set(state.id, state);
      const cached = cachedAnswer(bot, now, query, offset, userId);
      if (cached) {
        state.answer = cached;
        return {
          inline_query_id: state.id,
          update_id: undefined,
          query,
          offset,
          cached: true,
          answer: cached,
        };
      }
      const update = world.queueUpdate(bot, {
        inline_query: { id: state.id, from: user, query, offset, chat_type: "sender" },
      });
      return {
        inline_query_id: state.id,
        update_id: update?.update_id,
        query,
        offset,
        cached: false,
        answer: null,
      };
    },

    async inlineAnswer(queryId, timeoutMs, options) {
      const bot = botOf(options);
      const query = queryOf(bot, queryId);
      await waitUntil(
        () => bot.inline.notifier,
        () => query.answer !== undefined,
        timeoutMs,
        options?.signal,
      );
      return query.answer ? structuredClone(query.answer) : null;
    },

    chooseInlineResult(userId, queryId, resultId, options) {
      const bot = botOf(options);
      const user = requireUser(userId);
      const query = queryOf(bot, queryId);
      if (query.userId !== userId)
        throw new ControlError(404, `inline query ${queryId} is not user ${userId}'s`);
      const result = query.answer?.results.find((r) => r.id === resultId);
      if (!result)
        throw new ControlError(
          400,
          `the answer to inline query ${queryId} has no result ${JSON.stringify(resultId)}`,
        );
      const sent = userSends(userId, viaBotContent(bot, result), options);
      if (!bot.config.inlineFeedback) return sent;
      const inlineMessageId = bot.chats
        .get(userId)
        ?.messages.get(sent.message.message_id)?.inlineMessageId;
      const chosen: ChosenInlineResult = {
        result_id: result.id,
        from: user,
        query: query.query,
        ...(inlineMessageId ? { inline_message_id: inlineMessageId } : {}),
      };
      world.queueUpdate(bot, { chosen_inline_result: chosen });
      return { ...sent, chosen_inline_result: structuredClone(chosen) };
    },
  };
}
