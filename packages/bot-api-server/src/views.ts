import type {
  ForceReply,
  InlineKeyboardMarkup,
  Message,
  MessageEntity,
  ReplyKeyboardMarkup,
  User,
} from "@grammyjs/types";
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
  blocked: boolean;
  messages: MessageView[];
  callback_answers: CallbackAnswer[];
  /** the reply keyboard the user's client shows now */
  reply_keyboard: ReplyKeyboardMarkup | null;
  force_reply: ForceReply | null;
  chat_action: { action: string; date: number } | null;
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
    blocked: chat?.blocked ?? false,
    messages: chat ? [...chat.messages.values()].map((m) => messageView(m, answers)) : [],
    callback_answers: answers,
    reply_keyboard: chat?.replyKeyboard ?? null,
    force_reply: chat?.forceReply ?? null,
    chat_action: chat?.chatAction ?? null,
  };
  // a snapshot: callers may keep or mutate it without touching the server's state
  return structuredClone(view);
}
