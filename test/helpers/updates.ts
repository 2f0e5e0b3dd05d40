import type { Update } from "grammy/types";

/** a private chat's text message, as Telegram sends it (the chat is its sender) */
export function textUpdate(updateId: number, chatId: number, text = `#${updateId}`): Update {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 1_700_000_000,
      chat: { id: chatId, type: "private", first_name: "T" },
      from: { id: chatId, is_bot: false, first_name: "T" },
      text,
    },
  };
}
