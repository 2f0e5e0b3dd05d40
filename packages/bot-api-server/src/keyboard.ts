import type {
  ForceReply,
  InlineKeyboardButton,
  InlineKeyboardMarkup,
  KeyboardButton,
  ReplyKeyboardMarkup,
  ReplyKeyboardRemove,
} from "@grammyjs/types";
import { badRequest } from "./errors.ts";

export type ReplyMarkup =
  | InlineKeyboardMarkup
  | ReplyKeyboardMarkup
  | ReplyKeyboardRemove
  | ForceReply;

const CALLBACK_DATA_MAX_BYTES = 64;
const COPY_TEXT_MAX_CHARS = 256;

// an inline button does exactly one of these
const INLINE_ACTIONS = [
  "url",
  "callback_data",
  "web_app",
  "login_url",
  "switch_inline_query",
  "switch_inline_query_current_chat",
  "switch_inline_query_chosen_chat",
  "copy_text",
  "callback_game",
  "pay",
] as const;

const REPLY_ACTIONS = [
  "request_users",
  "request_chat",
  "request_contact",
  "request_location",
  "request_poll",
  "web_app",
] as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const buttonError = (why: string) => badRequest(`can't parse inline keyboard button: ${why}`);

function rows(value: unknown, field: string): unknown[][] {
  if (!Array.isArray(value) || !value.every(Array.isArray))
    throw badRequest(`field "${field}" of the reply markup must be an Array of Arrays`);
  return value as unknown[][];
}

function validUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return ["http:", "https:", "tg:", "ton:", "tonsite:"].includes(parsed.protocol);
  } catch {
    return false;
  }
}

/**
 * a Web App URL, with Telegram's error texts; `what` names the place ("inline keyboard button",
 * "menu button", …). http is allowed: the playground's apps run on this machine without TLS.
 */
function checkWebAppUrl(url: unknown, what: string): string {
  if (typeof url !== "string" || url === "") throw badRequest(`${what} Web App URL is empty`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`${what} Web App URL '${url}' is invalid: Wrong HTTP URL`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw badRequest(`${what} Web App URL '${url}' is invalid: Only HTTPS links are allowed`);
  return url;
}

/** a WebAppInfo object: just its url, checked */
export function webAppInfo(value: unknown, what: string, fail: (why: string) => Error) {
  if (!isObj(value)) throw fail('Field "web_app" must be of type Object');
  return { url: checkWebAppUrl(value.url, what) };
}

function copyTextOf(value: unknown) {
  if (!isObj(value)) throw buttonError('Field "copy_text" must be of type Object');
  if (typeof value.text !== "string") throw badRequest("BUTTON_COPY_TEXT_INVALID");
  const length = [...value.text].length;
  if (length < 1 || length > COPY_TEXT_MAX_CHARS) throw badRequest("BUTTON_COPY_TEXT_INVALID");
  return { text: value.text };
}

function inlineButton(value: unknown): InlineKeyboardButton {
  if (!isObj(value)) throw buttonError("InlineKeyboardButton must be an Object");
  if (typeof value.text !== "string") throw buttonError('Field "text" must be of type String');
  if (value.text.trim() === "") throw badRequest("BUTTON_TEXT_INVALID");
  const used = INLINE_ACTIONS.filter((k) => value[k] !== undefined && value[k] !== null);
  if (used.length === 0) throw buttonError("Text buttons are unallowed in the inline keyboard");
  if (used.length > 1)
    throw buttonError(`exactly one of the optional fields must be used, found ${used.join(", ")}`);
  const action = used[0]!;
  let actionValue = value[action];
  if (action === "callback_data") {
    if (typeof actionValue !== "string")
      throw buttonError('Field "callback_data" must be of type String');
    const bytes = Buffer.byteLength(actionValue, "utf8");
    if (bytes < 1 || bytes > CALLBACK_DATA_MAX_BYTES) throw badRequest("BUTTON_DATA_INVALID");
  }
  if (action === "url") {
    if (typeof actionValue !== "string" || !validUrl(actionValue))
      throw badRequest("BUTTON_URL_INVALID");
  }
  if (action === "web_app")
    actionValue = webAppInfo(actionValue, "inline keyboard button", buttonError);
  if (action === "copy_text") actionValue = copyTextOf(actionValue);
  // Telegram returns buttons with just their known fields
  const button: Obj = { text: value.text, [action]: actionValue };
  if (typeof value.style === "string") button.style = value.style;
  if (typeof value.icon_custom_emoji_id === "string")
    button.icon_custom_emoji_id = value.icon_custom_emoji_id;
  return button as unknown as InlineKeyboardButton;
}

function replyButton(value: unknown): KeyboardButton {
  // a bare string is a text button
  const obj: Obj = typeof value === "string" ? { text: value } : isObj(value) ? value : {};
  if (typeof obj.text !== "string" || obj.text === "")
    throw badRequest('can\'t parse keyboard button: Field "text" must be of type String');
  const used = REPLY_ACTIONS.filter(
    (k) => obj[k] !== undefined && obj[k] !== null && obj[k] !== false,
  );
  const button: Obj = { text: obj.text };
  for (const k of used) button[k] = obj[k];
  if (button.web_app !== undefined)
    button.web_app = webAppInfo(button.web_app, "keyboard button", (why) =>
      badRequest(`can't parse keyboard button: ${why}`),
    );
  return button as unknown as KeyboardButton;
}

function inlineMarkup(value: Obj): InlineKeyboardMarkup {
  const keyboard = rows(value.inline_keyboard, "inline_keyboard").map((row) =>
    row.map(inlineButton),
  );
  return { inline_keyboard: keyboard };
}

/** validates and normalizes a reply_markup parameter (already JSON-decoded) */
export function parseReplyMarkup(value: unknown): ReplyMarkup | undefined {
  if (value === undefined) return undefined;
  if (!isObj(value)) throw badRequest("can't parse reply keyboard markup JSON object");
  if (value.inline_keyboard !== undefined) return inlineMarkup(value);
  if (value.keyboard !== undefined) {
    const keyboard = rows(value.keyboard, "keyboard").map((row) => row.map(replyButton));
    if (keyboard.every((row) => row.length === 0)) throw badRequest("keyboard must be non-empty");
    const markup: ReplyKeyboardMarkup = { keyboard };
    for (const k of [
      "is_persistent",
      "resize_keyboard",
      "one_time_keyboard",
      "selective",
    ] as const) {
      if (value[k] === true) markup[k] = true;
    }
    if (typeof value.input_field_placeholder === "string")
      markup.input_field_placeholder = value.input_field_placeholder;
    return markup;
  }
  if (value.remove_keyboard === true) {
    return value.selective === true
      ? { remove_keyboard: true, selective: true }
      : { remove_keyboard: true };
  }
  if (value.force_reply === true) {
    const markup: ForceReply = { force_reply: true };
    if (typeof value.input_field_placeholder === "string")
      markup.input_field_placeholder = value.input_field_placeholder;
    if (value.selective === true) markup.selective = true;
    return markup;
  }
  throw badRequest("can't parse reply keyboard markup JSON object");
}

/** edits accept only inline keyboards */
export function parseInlineMarkup(value: unknown): InlineKeyboardMarkup | undefined {
  const markup = parseReplyMarkup(value);
  if (markup === undefined) return undefined;
  if (!isInline(markup)) throw badRequest("inline keyboard expected");
  return markup;
}

export function isInline(markup: ReplyMarkup | undefined): markup is InlineKeyboardMarkup {
  return markup !== undefined && "inline_keyboard" in markup;
}

/** the callback buttons of a keyboard, for checking presses */
export function callbackDataOf(markup: InlineKeyboardMarkup | undefined): string[] {
  if (!markup) return [];
  return markup.inline_keyboard.flatMap((row) =>
    row.flatMap((b) => ("callback_data" in b ? [b.callback_data] : [])),
  );
}
