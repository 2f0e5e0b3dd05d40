import type { LinkPreviewOptions, Message, MessageEntity } from "@grammyjs/types";
import {
  applyEdit,
  commitBotMessage,
  editableMessage,
  enforceRateLimit,
  markDeleted,
  protection,
  replyTarget,
} from "../chat-ops.ts";
import { badRequest, DESCRIPTIONS } from "../errors.ts";
import { CAPTION, formatText, MESSAGE_TEXT } from "../formatting.ts";
import { parseInlineMarkup, parseReplyMarkup } from "../keyboard.ts";
import { optBool, optJson, optString, type Params, requireChatId, requireInt } from "../params.ts";
import type { ChatState, StoredMessage } from "../state.ts";
import type { MethodContext, MethodTable } from "./context.ts";

function linkPreview(params: Params): LinkPreviewOptions | undefined {
  const raw = optJson(params, "link_preview_options", "link preview options");
  if (raw !== undefined) {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw))
      throw badRequest("can't parse link preview options JSON object");
    return raw as LinkPreviewOptions;
  }
  // the pre-7.0 parameter still works
  return optBool(params, "disable_web_page_preview") ? { is_disabled: true } : undefined;
}

interface EditTarget {
  chat: ChatState;
  /** the message, looked up when the edit's own parameters have been checked */
  message(): StoredMessage;
  /** an inline message (sent via the bot): an edit answers true, not the Message */
  inline: boolean;
}

/** the message an edit targets: chat_id and message_id, or inline_message_id */
function editTarget(ctx: MethodContext, missing: string): EditTarget {
  const inlineId = optString(ctx.params, "inline_message_id");
  if (inlineId !== undefined) {
    const ref = ctx.bot.inlineMessages.get(inlineId);
    const chat = ref ? ctx.bot.chats.get(ref.userId) : undefined;
    const stored = ref ? chat?.messages.get(ref.messageId) : undefined;
    if (!chat || !stored || stored.deleted) throw badRequest("MESSAGE_ID_INVALID");
    return { chat, message: () => stored, inline: true };
  }
  const chat = ctx.world.targetChat(ctx.bot, requireChatId(ctx.params));
  const messageId = requireInt(ctx.params, "message_id", missing);
  return { chat, message: () => editableMessage(chat, messageId), inline: false };
}

function sendMessage(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const chat = world.targetChat(bot, requireChatId(params));
  const formatted = formatText(
    {
      text: optString(params, "text"),
      parseMode: optString(params, "parse_mode"),
      entities: optJson(params, "entities", "entities"),
    },
    MESSAGE_TEXT,
    world.entities,
  );
  const markup = parseReplyMarkup(optJson(params, "reply_markup", "reply keyboard markup"));
  const replyTo = replyTarget(params, chat);
  const preview = linkPreview(params);
  enforceRateLimit(bot, chat.userId);
  return commitBotMessage(
    world,
    bot,
    chat,
    {
      text: formatted.text,
      entities: formatted.entities,
      link_preview_options: preview,
      ...protection(params),
    },
    markup,
    replyTo,
  );
}

/** what editing a message's text and editing its caption differ in */
const EDITABLE = {
  text: {
    param: "text",
    entities: ["entities", "entities"],
    limit: MESSAGE_TEXT,
    missing: "there is no text in the message to edit",
    has: (m: Message) => m.text !== undefined,
    content: (f: { text: string; entities: MessageEntity[] | undefined }) => ({
      text: f.text,
      entities: f.entities,
    }),
  },
  caption: {
    param: "caption",
    entities: ["caption_entities", "caption entities"],
    limit: CAPTION,
    missing: "there is no caption in the message to edit",
    has: (m: Message) => m.text === undefined && m.sticker === undefined,
    content: (f: { text: string; entities: MessageEntity[] | undefined }) => ({
      caption: f.text,
      caption_entities: f.entities,
    }),
  },
} as const;

/** editMessageText and editMessageCaption: the same checks, on a different field */
function editFormatted(ctx: MethodContext, field: keyof typeof EDITABLE) {
  const spec = EDITABLE[field];
  const { world, bot, params } = ctx;
  const target = editTarget(ctx, "message identifier is not specified");
  const { chat } = target;
  const formatted = formatText(
    {
      text: optString(params, spec.param),
      parseMode: optString(params, "parse_mode"),
      entities: optJson(params, spec.entities[0], spec.entities[1]),
    },
    spec.limit,
    world.entities,
  );
  const markup = parseInlineMarkup(optJson(params, "reply_markup", "reply keyboard markup"));
  const stored = target.message();
  if (!spec.has(stored.message)) throw badRequest(spec.missing);
  enforceRateLimit(bot, chat.userId);
  const edited = applyEdit(world, bot, chat, stored, spec.content(formatted), markup);
  return target.inline ? true : edited;
}

const editMessageText = (ctx: MethodContext) => editFormatted(ctx, "text");
const editMessageCaption = (ctx: MethodContext) => editFormatted(ctx, "caption");

function editMessageReplyMarkup(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const target = editTarget(ctx, "message identifier is not specified");
  const markup = parseInlineMarkup(optJson(params, "reply_markup", "reply keyboard markup"));
  const stored = target.message();
  enforceRateLimit(bot, target.chat.userId);
  const edited = applyEdit(world, bot, target.chat, stored, {}, markup);
  return target.inline ? true : edited;
}

function deleteMessage(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const chat = world.targetChat(bot, requireChatId(params));
  const messageId = requireInt(params, "message_id", "message identifier is not specified");
  if (!markDeleted(world, bot, chat, messageId))
    throw badRequest(DESCRIPTIONS.messageToDeleteNotFound);
  return true;
}

function deleteMessages(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const chat = world.targetChat(bot, requireChatId(params));
  const ids = optJson(params, "message_ids", "message identifiers");
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > 100 || !ids.every(Number.isSafeInteger))
    throw badRequest("message identifiers are not specified");
  // messages that are already gone are skipped, like Telegram does
  for (const id of ids as number[]) markDeleted(world, bot, chat, id);
  return true;
}

export const messageMethods: MethodTable = {
  sendmessage: sendMessage,
  editmessagetext: editMessageText,
  editmessagecaption: editMessageCaption,
  editmessagereplymarkup: editMessageReplyMarkup,
  deletemessage: deleteMessage,
  deletemessages: deleteMessages,
};
