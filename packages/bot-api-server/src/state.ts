import type {
  BotCommand,
  ForceReply,
  InlineKeyboardMarkup,
  InlineQueryResultsButton,
  LinkPreviewOptions,
  MenuButton,
  Message,
  MessageEntity,
  ReplyKeyboardMarkup,
  User,
  UserFromGetMe,
} from "@grammyjs/types";
import type { Notifier } from "./notifier.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { UpdateQueue } from "./updates.ts";

export interface BotConfig {
  token: string;
  id: number;
  username: string;
  firstName: string;
  /** the update_id the bot's counter starts after */
  lastUpdateId: number;
  /** inline mode, its placeholder and feedback, as set with BotFather */
  inline: boolean;
  inlinePlaceholder: string;
  inlineFeedback: boolean;
}

/** one earlier version of an edited message */
export interface MessageRevision {
  text?: string;
  entities?: MessageEntity[];
  caption?: string;
  caption_entities?: MessageEntity[];
  reply_markup?: InlineKeyboardMarkup;
  /** when this version was written: the send date, then each edit_date */
  date: number;
}

export interface StoredMessage {
  /** the current state, exactly as the Bot API returns it */
  message: Message;
  sender: "user" | "bot";
  deleted: boolean;
  history: MessageRevision[];
  /** a message a user sent via the bot (inline mode, answerWebAppQuery) with a keyboard */
  inlineMessageId?: string;
}

/** where a Mini App was opened from: it decides what initData holds */
export type WebAppSource =
  | "inline_button"
  | "keyboard_button"
  | "menu_button"
  | "inline_results_button";

/** one opening of a Mini App by a user */
export interface WebAppSession {
  id: string;
  userId: number;
  source: WebAppSource;
  buttonText: string;
  /** answerWebAppQuery's id, for apps opened from the menu button */
  queryId?: string;
  /** answerWebAppQuery or sendData used it up */
  done: boolean;
}

/** an answerCallbackQuery call: what the user's client shows as a toast or alert */
export interface CallbackAnswer {
  callback_query_id: string;
  message_id: number;
  data: string;
  text?: string;
  show_alert: boolean;
  url?: string;
  date: number;
}

interface PendingCallback {
  id: string;
  userId: number;
  messageId: number;
  data: string;
  answered: boolean;
}

export interface ChatState {
  userId: number;
  blocked: boolean;
  nextMessageId: number;
  /** every message ever sent, in order; deleted ones stay with `deleted: true` */
  messages: Map<number, StoredMessage>;
  version: number;
  callbackAnswers: CallbackAnswer[];
  chatAction?: { action: string; date: number };
  /** the reply keyboard the user's client currently shows */
  replyKeyboard?: ReplyKeyboardMarkup;
  forceReply?: ForceReply;
  chatInstance: string;
}

export interface WebhookConfig {
  url: string;
  secretToken?: string;
  maxConnections: number;
  ipAddress?: string;
  lastErrorDate?: number;
  lastErrorMessage?: string;
}

export interface BotState {
  config: BotConfig;
  me: UserFromGetMe;
  /** the bot as `from` of its messages */
  user: User;
  queue: UpdateQueue;
  webhook?: WebhookConfig;
  chats: Map<number, ChatState>;
  callbacks: Map<string, PendingCallback>;
  /** keyed by scope key and language code, see methods/commands.ts */
  commands: Map<string, BotCommand[]>;
  /** setMyName/Description/ShortDescription texts by language code ("" = default) */
  profile: {
    name: Map<string, string>;
    description: Map<string, string>;
    shortDescription: Map<string, string>;
  };
  limiter: RateLimiter;
  chatNotifiers: Map<number, Notifier>;
  /** aborts the pending getUpdates when another one (or setWebhook) arrives */
  poll?: AbortController;
  /** setChatMenuButton per chat; absent means the chat uses the default */
  menuButtons: Map<number, MenuButton>;
  /** setChatMenuButton without chat_id */
  defaultMenuButton: MenuButton;
  /** Mini Apps opened, by launch id */
  webApps: Map<string, WebAppSession>;
  inline: InlineState;
  /** messages sent via the bot that carry a keyboard, by inline_message_id */
  inlineMessages: Map<string, { userId: number; messageId: number }>;
}

/** a result as the user's client shows it and sends it */
export interface StoredResult {
  type: "article";
  id: string;
  title: string;
  description?: string;
  url?: string;
  thumbnail_url?: string;
  /** the message text, parsed */
  text: string;
  entities: MessageEntity[];
  link_preview_options?: LinkPreviewOptions;
  reply_markup?: InlineKeyboardMarkup;
}

/** a bot's answer, as the user's client shows it */
export interface InlineAnswer {
  results: StoredResult[];
  cache_time: number;
  is_personal: boolean;
  next_offset: string;
  button?: InlineQueryResultsButton;
}

export interface InlineQueryState {
  id: string;
  userId: number;
  query: string;
  offset: string;
  /** the server clock's ms when it was sent; answerable for 10 s */
  sentAt: number;
  answer?: InlineAnswer;
}

export interface InlineState {
  queries: Map<string, InlineQueryState>;
  /** answers by cacheKey, until their cache_time runs out */
  cache: Map<string, { answer: InlineAnswer; until: number }>;
  /** wakes waiters when an answer arrives */
  notifier: Notifier;
}
