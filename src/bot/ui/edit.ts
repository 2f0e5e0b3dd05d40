import { type Api, GrammyError, type InlineKeyboard, type Transformer } from "grammy";
import type { InlineKeyboardMarkup, Message } from "grammy/types";
import { PLAIN } from "./html.ts";

// the one way kios edits a chat message. Telegram answers 400 "message is not modified"
// to an edit that changes nothing, so an edit whose text and keyboard equal what the
// message shows is not sent, and the 400, if one still comes (a race), counts as done.

export type EditResult = "edited" | "unchanged" | "gone";

export interface EditRequest {
  chatId: number;
  messageId: number;
  /** HTML */
  text: string;
  /** undefined or an empty keyboard: no buttons */
  keyboard?: InlineKeyboard | InlineKeyboardMarkup | undefined;
  /** what the message shows now, when known (a pressed button's message) */
  shown?: Pick<Message, "text" | "caption" | "reply_markup"> | undefined;
  /** the text is plain, not HTML */
  plain?: boolean;
  /** the message is a photo: the text is its caption */
  caption?: boolean;
}

const notModified = (err: unknown) =>
  err instanceof GrammyError &&
  err.error_code === 400 &&
  /message is not modified/i.test(err.description);

/** the message can't be edited any more: deleted, too old, or not the bot's */
const cannotEdit = (err: unknown) =>
  err instanceof GrammyError &&
  err.error_code === 400 &&
  /message to edit not found|message can't be edited|message_id_invalid/i.test(err.description);

function buttonsOf(k: EditRequest["keyboard"] | InlineKeyboardMarkup | undefined): string {
  const rows = k ? k.inline_keyboard : [];
  return JSON.stringify(rows.filter((r) => r.length > 0));
}

/** the text Telegram shows for an HTML text: tags dropped, the entities kios uses decoded */
function plainOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** true when the message already shows this text and these buttons */
function showsAlready(req: EditRequest): boolean {
  if (!req.shown) return false;
  const shownText = req.caption ? req.shown.caption : req.shown.text;
  if (shownText === undefined) return false;
  return (
    shownText === (req.plain ? req.text : plainOf(req.text)).trim() &&
    buttonsOf(req.shown.reply_markup) === buttonsOf(req.keyboard)
  );
}

/** edits a message's text and buttons; throws only what is worth retrying or reporting */
export async function editMessage(api: Api, req: EditRequest): Promise<EditResult> {
  if (showsAlready(req)) return "unchanged";
  try {
    const options = {
      reply_markup: { inline_keyboard: req.keyboard?.inline_keyboard ?? [] },
    };
    // HTML unless plain: the bot's Api adds the parse mode (html.ts) where entities are unset
    if (req.caption) {
      await api.editMessageCaption(req.chatId, req.messageId, {
        caption: req.text,
        caption_entities: req.plain ? PLAIN.entities : undefined,
        ...options,
      });
    } else {
      await api.editMessageText(req.chatId, req.messageId, req.text, {
        entities: req.plain ? PLAIN.entities : undefined,
        ...options,
      });
    }
    return "edited";
  } catch (err) {
    if (notModified(err)) return "unchanged";
    if (cannotEdit(err)) return "gone";
    throw err;
  }
}

/** edits the message whose button was pressed (nothing when there is none) */
export async function editPressed(
  ctx: { api: Api; callbackQuery?: { message?: Message | undefined } | undefined },
  text: string,
  options: { keyboard?: EditRequest["keyboard"]; plain?: boolean } = {},
): Promise<EditResult> {
  const message = ctx.callbackQuery?.message;
  if (!message) return "gone";
  return editMessage(ctx.api, {
    chatId: message.chat.id,
    messageId: message.message_id,
    text,
    keyboard: options.keyboard,
    shown: message,
    plain: options.plain,
  });
}

/** takes the buttons off the message whose button was pressed */
export async function clearPressed(ctx: {
  api: Api;
  callbackQuery?: { message?: Message | undefined } | undefined;
}): Promise<EditResult> {
  const message = ctx.callbackQuery?.message;
  if (!message) return "gone";
  return clearButtons(ctx.api, message.chat.id, message.message_id, message);
}

/** takes a message's buttons away (its question was answered or left) */
export async function clearButtons(
  api: Api,
  chatId: number,
  messageId: number,
  shown?: Pick<Message, "reply_markup">,
): Promise<EditResult> {
  if (shown && buttonsOf(shown.reply_markup) === "[]") return "unchanged";
  try {
    await api.editMessageReplyMarkup(chatId, messageId, { reply_markup: { inline_keyboard: [] } });
    return "edited";
  } catch (err) {
    if (notModified(err)) return "unchanged";
    if (cannotEdit(err)) return "gone";
    throw err;
  }
}

/** changes only the buttons of the message whose button was pressed (its text stays) */
export async function editPressedButtons(
  ctx: { api: Api; callbackQuery?: { message?: Message | undefined } | undefined },
  keyboard: InlineKeyboard,
): Promise<EditResult> {
  const message = ctx.callbackQuery?.message;
  if (!message) return "gone";
  if (buttonsOf(message.reply_markup) === buttonsOf(keyboard)) return "unchanged";
  try {
    await ctx.api.editMessageReplyMarkup(message.chat.id, message.message_id, {
      reply_markup: { inline_keyboard: keyboard.inline_keyboard },
    });
    return "edited";
  } catch (err) {
    if (notModified(err)) return "unchanged";
    if (cannotEdit(err)) return "gone";
    throw err;
  }
}

/**
 * a tap's answer is a courtesy: a redelivered update (or a slow one) finds its query
 * already answered or expired, and that must not stop the work the tap asked for
 */
export const staleAnswersAreDone: Transformer = async (prev, method, payload, signal) => {
  const res = await prev(method, payload, signal);
  if (
    method === "answerCallbackQuery" &&
    !res.ok &&
    res.error_code === 400 &&
    /query is too old|query id is invalid/i.test(res.description)
  ) {
    return { ok: true, result: true as never };
  }
  return res;
};
