import type { Transformer } from "grammy";
import type { MessageEntity } from "grammy/types";

// kios writes every chat text as Telegram HTML, so the parse mode is said once, here: a
// transformer on the bot's Api (and on the Api the conversations plugin rebuilds) adds
// parse_mode HTML to each text or caption that does not say how it is formatted itself.
// User text inside such a text goes through escapeHtml (format.ts). A text that must reach
// the chat exactly as written passes PLAIN: its empty entities say "no formatting".

/** the methods whose text or caption Telegram formats */
const FORMATTED_METHODS = new Set([
  "sendMessage",
  "editMessageText",
  "sendPhoto",
  "sendVideo",
  "sendAnimation",
  "sendAudio",
  "sendDocument",
  "sendVoice",
  "editMessageCaption",
  "copyMessage",
]);

/** no formatting: the text is shown as written (an admin's broadcast, the history list) */
export const PLAIN: { entities: MessageEntity[] } = { entities: [] };

export const htmlByDefault: Transformer = (prev, method, payload, signal) => {
  if (!FORMATTED_METHODS.has(method)) return prev(method, payload, signal);
  const p = payload as Record<string, unknown>;
  const hasText = typeof p.text === "string" || typeof p.caption === "string";
  const formatted =
    p.parse_mode !== undefined || p.entities !== undefined || p.caption_entities !== undefined;
  if (!hasText || formatted) return prev(method, payload, signal);
  return prev(method, { ...payload, parse_mode: "HTML" } as typeof payload, signal);
};
