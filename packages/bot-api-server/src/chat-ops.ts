import { randomBytes } from "node:crypto";
import type { InlineKeyboardMarkup, Message, MessageEntity, Update, User } from "@grammyjs/types";
import { badRequest, DESCRIPTIONS, tooManyRequests } from "./errors.ts";
import { isInline, type ReplyMarkup } from "./keyboard.ts";
import { optBool, optInt, optJson, type Params } from "./params.ts";
import type { BotState, ChatState, MessageRevision, StoredMessage } from "./state.ts";
import type { World } from "./world.ts";

/** the parts of a message a send or edit sets */
export interface MessageContent {
  text?: string;
  entities?: MessageEntity[];
  caption?: string;
  caption_entities?: MessageEntity[];
  photo?: Message["photo"];
  document?: Message["document"];
  sticker?: Message["sticker"];
  link_preview_options?: Message["link_preview_options"];
  has_protected_content?: true;
}

/** protect_content shows on the message as has_protected_content */
export function protection(params: Params): Pick<MessageContent, "has_protected_content"> {
  return optBool(params, "protect_content") ? { has_protected_content: true } : {};
}

/** a 429 when the bot exceeds its per-chat or total sending rate */
export function enforceRateLimit(bot: BotState, chatId: number): void {
  const decision = bot.limiter.take(chatId);
  if (!decision.ok) throw tooManyRequests(decision.retryAfter);
}

/** an empty inline keyboard means "no keyboard", as in Telegram */
function effectiveInline(
  markup: InlineKeyboardMarkup | undefined,
): InlineKeyboardMarkup | undefined {
  return markup?.inline_keyboard.some((row) => row.length > 0) ? markup : undefined;
}

function withoutEmpty<T extends object>(obj: T): T {
  // Telegram omits empty entity lists
  const out = { ...obj } as Record<string, unknown>;
  for (const k of ["entities", "caption_entities"]) {
    if (Array.isArray(out[k]) && (out[k] as unknown[]).length === 0) delete out[k];
  }
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as T;
}

/** a message as reply_to_message: without its own reply_to_message */
function asReply(message: Message): Message {
  const { reply_to_message: _nested, ...rest } = message;
  return rest as Message;
}

/** reply_parameters (or the older reply_to_message_id) resolved against the chat */
export function replyTarget(params: Params, chat: ChatState): Message | undefined {
  const raw = optJson(params, "reply_parameters", "reply parameters");
  let messageId: number | undefined;
  let allowMissing = optBool(params, "allow_sending_without_reply") ?? false;
  if (raw !== undefined) {
    if (raw === null || typeof raw !== "object")
      throw badRequest("can't parse reply parameters JSON object");
    const r = raw as {
      message_id?: unknown;
      allow_sending_without_reply?: unknown;
      chat_id?: unknown;
    };
    if (!Number.isSafeInteger(r.message_id))
      throw badRequest('field "message_id" must be of type Integer');
    if (r.chat_id !== undefined && Number(r.chat_id) !== chat.userId)
      throw badRequest("replies to messages in other chats are not supported by the playground");
    messageId = r.message_id as number;
    allowMissing = r.allow_sending_without_reply === true;
  } else {
    messageId = optInt(params, "reply_to_message_id");
  }
  if (messageId === undefined) return undefined;
  const target = chat.messages.get(messageId);
  if (!target || target.deleted) {
    if (allowMissing) return undefined;
    throw badRequest("message to be replied not found");
  }
  return asReply(target.message);
}

/** stores a message the bot sends and updates what the user's client shows */
export function commitBotMessage(
  world: World,
  bot: BotState,
  chat: ChatState,
  content: MessageContent,
  markup: ReplyMarkup | undefined,
  replyTo: Message | undefined,
): Message {
  const message = withoutEmpty({
    message_id: chat.nextMessageId++,
    from: bot.user,
    chat: world.chatObject(chat.userId),
    date: world.nowSeconds(),
    reply_to_message: replyTo,
    ...content,
    reply_markup: isInline(markup) ? effectiveInline(markup) : undefined,
  }) as Message;
  chat.messages.set(message.message_id, { message, sender: "bot", deleted: false, history: [] });
  if (markup && "keyboard" in markup) {
    chat.replyKeyboard = markup;
    chat.forceReply = undefined;
  } else if (markup && "remove_keyboard" in markup) {
    chat.replyKeyboard = undefined;
  } else if (markup && "force_reply" in markup && !isInline(markup)) {
    chat.forceReply = markup;
  }
  // a message replaces the "typing…" status
  chat.chatAction = undefined;
  world.touch(bot, chat.userId);
  return message;
}

/**
 * stores a message a user sends and queues it for the bot. A message sent via the bot (inline
 * mode, answerWebAppQuery) with a keyboard gets an inline_message_id, as in Telegram.
 */
export function commitUserMessage(
  world: World,
  bot: BotState,
  chat: ChatState,
  from: User,
  content: Partial<Message>,
  replyTo?: Message,
): { message: NonNullable<Update["message"]>; update_id: number | undefined } {
  // a user's message always has `from` and a private chat, as Update.message requires
  const message = {
    message_id: chat.nextMessageId++,
    from,
    chat: world.chatObject(chat.userId),
    date: world.nowSeconds(),
    reply_to_message: replyTo,
    ...content,
  } as NonNullable<Update["message"]>;
  const stored: StoredMessage = { message, sender: "user", deleted: false, history: [] };
  if (message.via_bot && message.reply_markup) {
    stored.inlineMessageId = randomBytes(20).toString("base64url");
    bot.inlineMessages.set(stored.inlineMessageId, {
      userId: chat.userId,
      messageId: message.message_id,
    });
  }
  chat.messages.set(message.message_id, stored);
  // the client hides a one-time keyboard and the forced reply once the user sent something
  if (chat.replyKeyboard?.one_time_keyboard) chat.replyKeyboard = undefined;
  chat.forceReply = undefined;
  const update = world.queueUpdate(bot, { message });
  world.touch(bot, chat.userId);
  return { message, update_id: update?.update_id };
}

/** the bot's own, undeleted message for an edit */
export function editableMessage(chat: ChatState, messageId: number): StoredMessage {
  const stored = chat.messages.get(messageId);
  if (!stored || stored.deleted) throw badRequest("message to edit not found");
  if (stored.sender !== "bot") throw badRequest("message can't be edited");
  return stored;
}

function revisionOf(message: Message): MessageRevision {
  return withoutEmpty({
    text: message.text,
    entities: message.entities,
    caption: message.caption,
    caption_entities: message.caption_entities,
    reply_markup: message.reply_markup,
    date: message.edit_date ?? message.date,
  });
}

/** what "not modified" compares: content and keyboard */
const editKey = (m: Message) =>
  JSON.stringify([
    m.text,
    m.entities ?? [],
    m.caption,
    m.caption_entities ?? [],
    m.reply_markup ?? null,
  ]);

/**
 * applies an edit: refuses one that changes nothing, keeps the previous version in the history,
 * sets edit_date. an absent keyboard removes the current one, as in Telegram.
 */
export function applyEdit(
  world: World,
  bot: BotState,
  chat: ChatState,
  stored: StoredMessage,
  next: Pick<MessageContent, "text" | "entities" | "caption" | "caption_entities">,
  markup: InlineKeyboardMarkup | undefined,
): Message {
  const current = stored.message;
  const candidate = withoutEmpty({
    ...current,
    edit_date: world.nowSeconds(),
    ...(next.text !== undefined ? { text: next.text, entities: next.entities } : {}),
    ...(next.caption !== undefined
      ? {
          caption: next.caption === "" ? undefined : next.caption,
          caption_entities: next.caption_entities,
        }
      : {}),
    reply_markup: effectiveInline(markup),
  }) as Message;
  if (editKey(candidate) === editKey(current)) throw badRequest(DESCRIPTIONS.notModified);
  stored.history.push(revisionOf(current));
  stored.message = candidate;
  world.touch(bot, chat.userId);
  return candidate;
}

export function markDeleted(
  world: World,
  bot: BotState,
  chat: ChatState,
  messageId: number,
): boolean {
  const stored = chat.messages.get(messageId);
  if (!stored || stored.deleted) return false;
  stored.deleted = true;
  world.touch(bot, chat.userId);
  return true;
}
