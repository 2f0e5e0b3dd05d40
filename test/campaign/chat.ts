import type { InlineKeyboardButton } from "@grammyjs/types";
import type { BotApiServer, ChatView, MessageView } from "@kios/bot-api-server";

// a person's hands and eyes in a chat, through the local Bot API server's control API.
// Nothing here throws on a slow bot: a wait that runs out answers undefined, and the
// customer decides what a person would do (wait, tap again, give up).

export interface Chat {
  say(text: string): number;
  /** presses a button by its callback_data; false when the message no longer offers it */
  press(message: MessageView, data: string): boolean;
  view(): ChatView;
  /** the chat once `found` finds something, or undefined after ms */
  waitFor<T>(found: (chat: ChatView) => T | undefined, ms: number): Promise<T | undefined>;
}

export function chatOf(telegram: BotApiServer, userId: number): Chat {
  return {
    say: (text) => telegram.sendText(userId, text).message.message_id,
    press(message, data) {
      try {
        telegram.press(userId, message.message_id, data);
        return true;
      } catch {
        // the button is gone (the bot already answered, or the card changed)
        return false;
      }
    },
    view: () => telegram.messages(userId),
    async waitFor(found, ms) {
      let hit: ReturnType<typeof found>;
      try {
        await telegram.waitFor(
          userId,
          (v) => {
            hit = found(v);
            return hit !== undefined;
          },
          ms,
        );
      } catch {
        return undefined;
      }
      return hit;
    },
  };
}

export function callbackDataOf(m: MessageView): string[] {
  return (m.reply_markup?.inline_keyboard ?? [])
    .flat()
    .flatMap((b: InlineKeyboardButton) => ("callback_data" in b ? [b.callback_data] : []));
}

export function buttonByLabel(m: MessageView, label: RegExp): string | undefined {
  const b = (m.reply_markup?.inline_keyboard ?? [])
    .flat()
    .find((x: InlineKeyboardButton) => label.test(x.text));
  return b && "callback_data" in b ? b.callback_data : undefined;
}

/** the bot's messages after message `after` */
export function botMessagesAfter(chat: ChatView, after: number): MessageView[] {
  return chat.messages.filter((m) => m.sender === "bot" && !m.deleted && m.message_id > after);
}

export function messageById(chat: ChatView, id: number): MessageView | undefined {
  return chat.messages.find((m) => m.message_id === id);
}
