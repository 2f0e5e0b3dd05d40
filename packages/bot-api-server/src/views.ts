import type {
  ForceReply,
  InlineKeyboardMarkup,
  MenuButtonCommands,
  MenuButtonWebApp,
  Message,
  MessageEntity,
  ReplyKeyboardMarkup,
  User,
} from "@grammyjs/types";
import { menuButtonFor } from "./methods/menu-button.ts";
import type { BotState, CallbackAnswer, MessageRevision, StoredMessage } from "./state.ts";
import type { World } from "./world.ts";

/** one message as the user's client shows it, with what happened to it */
export interface MessageView {
  message_id: number;
  sender: "user" | "bot";
  from: User | undefined;
  date: number;
  text?: string;
  entities: MessageEntity[];
  caption?: string;
  caption_entities: MessageEntity[];
  photo?: Message["photo"];
  document?: Message["document"];
  sticker?: Message["sticker"];
  reply_markup?: InlineKeyboardMarkup;
  reply_to_message_id?: number;
  /** the bot a user's message was sent via (inline mode, answerWebAppQuery) */
  via_bot?: User;
  /** such a message's id for the bot, when it has a keyboard */
  inline_message_id?: string;
  edited: boolean;
  edit_date?: number;
  /** earlier versions, oldest first */
  history: MessageRevision[];
  deleted: boolean;
  /** answers to presses of this message's buttons */
  callback_answers: CallbackAnswer[];
  /** the current Bot API Message object */
  message: Message;
}

/** a bot's private chat with a user, as the control API reports it */
export interface ChatView {
  bot: { id: number; username: string };
  chat_id: number;
  user: User | null;
  /** bumps on every send, edit, delete, callback answer and chat action */
  version: number;
  /** false until the user sent the bot something */
  started: boolean;
  /** the chat's chat_instance, as in callback queries and initData; null before it starts */
  chat_instance: string | null;
  blocked: boolean;
  messages: MessageView[];
  callback_answers: CallbackAnswer[];
  /** the reply keyboard the user's client shows now */
  reply_keyboard: ReplyKeyboardMarkup | null;
  force_reply: ForceReply | null;
  chat_action: { action: string; date: number } | null;
  /** the menu button the client shows: the chat's own, else the bot's default */
  menu_button: MenuButtonCommands | MenuButtonWebApp;
}

function messageView(stored: StoredMessage, answers: CallbackAnswer[]): MessageView {
  const m = stored.message;
  return {
    message_id: m.message_id,
    sender: stored.sender,
    from: m.from,
    date: m.date,
    text: m.text,
    entities: m.entities ?? [],
    caption: m.caption,
    caption_entities: m.caption_entities ?? [],
    photo: m.photo,
    document: m.document,
    sticker: m.sticker,
    reply_markup: m.reply_markup,
    reply_to_message_id: m.reply_to_message?.message_id,
    via_bot: m.via_bot,
    inline_message_id: stored.inlineMessageId,
    edited: m.edit_date !== undefined,
    edit_date: m.edit_date,
    history: stored.history,
    deleted: stored.deleted,
    callback_answers: answers.filter((a) => a.message_id === m.message_id),
    message: m,
  };
}

export function chatView(world: World, bot: BotState, userId: number): ChatView {
  const chat = bot.chats.get(userId);
  const answers = chat?.callbackAnswers ?? [];
  const view: ChatView = {
    bot: { id: bot.config.id, username: bot.config.username },
    chat_id: userId,
    user: world.users.get(userId) ?? null,
    version: world.versionOf(bot, userId),
    started: chat !== undefined,
    chat_instance: chat?.chatInstance ?? null,
    blocked: chat?.blocked ?? false,
    messages: chat ? [...chat.messages.values()].map((m) => messageView(m, answers)) : [],
    callback_answers: answers,
    reply_keyboard: chat?.replyKeyboard ?? null,
    force_reply: chat?.forceReply ?? null,
    chat_action: chat?.chatAction ?? null,
    menu_button: menuButtonFor(bot, userId),
  };
  // a snapshot: callers may keep or mutate it without touching the server's state
  return structuredClone(view);
}
