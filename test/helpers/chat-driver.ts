import type { InlineKeyboardButton } from "@grammyjs/types";
import type { BotApiServer, ChatView, MessageView } from "@kios/bot-api-server";
import { patient } from "./patience.ts";

// acting as Telegram users against the local Bot API server: what a person does in a
// chat (write, press a button, read what the bot answered), for bot and end-to-end tests.

export interface ChatDriver {
  /** a Telegram user who has not written yet */
  user(
    id: number,
    profile?: { first_name?: string; language_code?: string; username?: string },
  ): void;
  /** the user sends text; returns the message id of what they sent */
  say(userId: number, text: string): number;
  /** presses a button of a message by its label (regex) or exact callback_data */
  tap(userId: number, message: MessageView, button: RegExp | string): string;
  chat(userId: number): ChatView;
  /** the first bot message after `after` (a message id) whose text (or a photo's caption) matches */
  waitMessage(userId: number, re: RegExp, after?: number): Promise<MessageView>;
  /** waits until message `id` reads as `re` */
  waitEdit(userId: number, id: number, re: RegExp): Promise<MessageView>;
  /** waits for a callback answer (toast) matching `re` beyond the first `seen` answers */
  waitToast(userId: number, re: RegExp, seen?: number): Promise<string>;
  /** the last message id in the chat (0 when empty) */
  lastId(userId: number): number;
  /** finds a button by label in a paged list (pressing ▶️ as needed) and presses it */
  tapItem(userId: number, list: MessageView, label: RegExp): Promise<string>;
}

function buttons(m: MessageView): InlineKeyboardButton[] {
  return (m.reply_markup?.inline_keyboard ?? []).flat();
}

export function callbackData(m: MessageView): string[] {
  return buttons(m).flatMap((b) => ("callback_data" in b ? [b.callback_data] : []));
}

/** what a message shows: its text, or a photo's caption */
function shownText(m: MessageView): string {
  return m.text ?? m.caption ?? "";
}

export function labels(m: MessageView): string[] {
  return buttons(m).map((b) => b.text);
}

/** what a message's copy buttons (copy_text) copy, by their label */
export function copyTexts(m: MessageView): Record<string, string> {
  return Object.fromEntries(
    buttons(m).flatMap((b) => ("copy_text" in b ? [[b.text, b.copy_text.text]] : [])),
  );
}

export function createChatDriver(telegram: BotApiServer, waitMs = 8000): ChatDriver {
  const chat = (userId: number) => telegram.messages(userId);
  const botMessages = (c: ChatView) => c.messages.filter((m) => m.sender === "bot" && !m.deleted);
  const driver: ChatDriver = {
    user(id, profile = {}) {
      telegram.user(id, { first_name: `User${id}`, language_code: "id", ...profile });
    },
    say(userId, text) {
      return telegram.sendText(userId, text).message.message_id;
    },
    tap(userId, message, button) {
      const found =
        typeof button === "string"
          ? buttons(message).find((b) => "callback_data" in b && b.callback_data === button)
          : buttons(message).find((b) => button.test(b.text));
      if (!found || !("callback_data" in found)) {
        throw new Error(
          `no button ${String(button)} on message ${message.message_id}: ${labels(message).join(" | ")}`,
        );
      }
      telegram.press(userId, message.message_id, found.callback_data);
      return found.callback_data;
    },
    chat,
    async waitMessage(userId, re, after = 0) {
      const c = await telegram.waitFor(
        userId,
        (v) => botMessages(v).some((m) => m.message_id > after && re.test(shownText(m))),
        patient(waitMs),
      );
      return botMessages(c).find((m) => m.message_id > after && re.test(shownText(m)))!;
    },
    async waitEdit(userId, id, re) {
      const c = await telegram.waitFor(
        userId,
        (v) => {
          const m = v.messages.find((x) => x.message_id === id);
          return m !== undefined && re.test(shownText(m));
        },
        patient(waitMs),
      );
      return c.messages.find((m) => m.message_id === id)!;
    },
    async waitToast(userId, re, seen = 0) {
      const c = await telegram.waitFor(
        userId,
        (v) => v.callback_answers.slice(seen).some((a) => re.test(a.text ?? "")),
        patient(waitMs),
      );
      return c.callback_answers.slice(seen).find((a) => re.test(a.text ?? ""))!.text!;
    },
    lastId(userId) {
      return chat(userId).messages.at(-1)?.message_id ?? 0;
    },
    async tapItem(userId, list, label) {
      let m = list;
      for (let page = 0; page < 30; page++) {
        if (labels(m).some((l) => label.test(l))) return driver.tap(userId, m, label);
        const shown = labels(m).join("|");
        driver.tap(userId, m, /^▶️$/);
        const c = await telegram.waitFor(
          userId,
          (v) => labels(v.messages.find((x) => x.message_id === m.message_id)!).join("|") !== shown,
          patient(waitMs),
        );
        m = c.messages.find((x) => x.message_id === m.message_id)!;
      }
      throw new Error(`no item ${label} in the list`);
    },
  };
  return driver;
}
