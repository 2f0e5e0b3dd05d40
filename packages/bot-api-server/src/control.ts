import { randomBytes } from "node:crypto";
import type { BotCommand, CallbackQuery, User } from "@grammyjs/types";
import {
  type BotOption,
  ControlError,
  createControlContext,
  type SendOptions,
  type Sent,
} from "./control-context.ts";
import { type InlineControl, inlineControl } from "./control-inline.ts";
import { type LinkControl, linkControl } from "./control-links.ts";
import { type WebAppControl, webAppControl } from "./control-web-app.ts";
import { BotApiError } from "./errors.ts";
import { PLACEHOLDER_PNG } from "./files.ts";
import { formatText, MESSAGE_TEXT } from "./formatting.ts";
import { callbackDataOf } from "./keyboard.ts";
import { commandsForChat } from "./methods/commands.ts";
import { waitUntil } from "./notifier.ts";
import type { RateLimitSettings } from "./rate-limit.ts";
import { type ChatView, chatView } from "./views.ts";
import type { World } from "./world.ts";

export interface UserProfile {
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  is_premium?: boolean;
}

export interface Pressed {
  update_id: number | undefined;
  callback_query: CallbackQuery;
}

export interface BotSummary {
  id: number;
  username: string;
  first_name: string;
  webhook_url: string;
  pending_update_count: number;
}

export interface Control extends WebAppControl, InlineControl, LinkControl {
  /** creates or updates a user (a private chat's id is the user's id) */
  user(id: number, profile?: UserProfile): User;
  users(): User[];
  sendText(userId: number, text: string, options?: SendOptions): Sent;
  sendSticker(userId: number, options?: SendOptions & { emoji?: string }): Sent;
  sendPhoto(userId: number, options?: SendOptions & { caption?: string }): Sent;
  /** presses an inline button; refused unless the message's current keyboard has it */
  press(userId: number, messageId: number, data: string, options?: BotOption): Pressed;
  /** blocks or unblocks the bot as the user; the bot gets a my_chat_member update */
  block(userId: number, blocked: boolean, options?: BotOption): ChatView;
  messages(userId: number, options?: BotOption): ChatView;
  /** resolves when the chat's version passes `after`, or with changed: false on timeout */
  waitForChange(
    userId: number,
    after: number,
    timeoutMs: number,
    options?: BotOption & { signal?: AbortSignal },
  ): Promise<{ changed: boolean; chat: ChatView }>;
  /** resolves with the chat once `predicate` holds; rejects after timeoutMs */
  waitFor(
    userId: number,
    predicate: (chat: ChatView) => boolean,
    timeoutMs?: number,
    options?: BotOption,
  ): Promise<ChatView>;
  /** the command menu the user's client shows (scope and language resolved) */
  commandsFor(userId: number, options?: BotOption): BotCommand[];
  setRateLimits(settings: Partial<RateLimitSettings>, options?: BotOption): RateLimitSettings;
  listBots(): BotSummary[];
  reset(): void;
}

export { type BotOption, ControlError, type SendOptions, type Sent } from "./control-context.ts";

const DEFAULT_WAIT_MS = 5000;

export function createControl(world: World): Control {
  const context = createControlContext(world);
  const { botOf, requireUser, userSends } = context;

  const control: Control = {
    ...webAppControl(context),
    ...inlineControl(context),
    ...linkControl(context),
    user(id, profile = {}) {
      if (!Number.isSafeInteger(id) || id <= 0)
        throw new ControlError(400, "user id must be a positive integer");
      if (world.bots.some((b) => b.config.id === id))
        throw new ControlError(409, "that id belongs to a bot");
      const existing = world.users.get(id);
      const user: User = {
        id,
        is_bot: false,
        first_name: profile.first_name ?? existing?.first_name ?? `User ${id}`,
      };
      const lastName = profile.last_name ?? existing?.last_name;
      const username = profile.username ?? existing?.username;
      const language = profile.language_code ?? existing?.language_code;
      if (lastName) user.last_name = lastName;
      if (username) user.username = username.replace(/^@/, "");
      if (language) user.language_code = language;
      if (profile.is_premium ?? existing?.is_premium) user.is_premium = true;
      world.users.set(id, user);
      return { ...user };
    },

    users: () => [...world.users.values()].map((u) => ({ ...u })),

    sendText(userId, text, options) {
      let formatted: ReturnType<typeof formatText>;
      try {
        formatted = formatText(
          { text, parseMode: undefined, entities: undefined },
          MESSAGE_TEXT,
          world.entities,
        );
      } catch (err) {
        if (err instanceof BotApiError) throw new ControlError(400, err.description);
        throw err;
      }
      return userSends(
        userId,
        {
          text: formatted.text,
          ...(formatted.entities.length > 0 ? { entities: formatted.entities } : {}),
        },
        options,
      );
    },

    sendSticker(userId, options) {
      requireUser(userId);
      return userSends(userId, { sticker: world.files.sticker(options?.emoji) }, options);
    },

    sendPhoto(userId, options) {
      requireUser(userId);
      const photo = world.files.photo({ data: PLACEHOLDER_PNG, filename: "photo.png" });
      return userSends(
        userId,
        { photo, ...(options?.caption ? { caption: options.caption } : {}) },
        options,
      );
    },

    press(userId, messageId, data, options) {
      const bot = botOf(options);
      const user = requireUser(userId);
      const chat = bot.chats.get(userId);
      const stored = chat?.messages.get(messageId);
      if (!chat || !stored || stored.deleted)
        throw new ControlError(400, `message ${messageId} is not in the chat`);
      if (chat.blocked) throw new ControlError(409, "the user blocked the bot; unblock it first");
      if (!callbackDataOf(stored.message.reply_markup).includes(data))
        throw new ControlError(
          400,
          `message ${messageId} has no button with callback_data ${JSON.stringify(data)} on its current keyboard`,
        );
      // Telegram's ids are large decimal numbers in a string
      const id = BigInt(`0x${randomBytes(8).toString("hex")}`).toString();
      bot.callbacks.set(id, { id, userId, messageId, data, answered: false });
      // a message sent via the bot is an inline message: its queries carry only its id
      const callback_query: CallbackQuery = stored.inlineMessageId
        ? {
            id,
            from: user,
            inline_message_id: stored.inlineMessageId,
            chat_instance: chat.chatInstance,
            data,
          }
        : { id, from: user, message: stored.message, chat_instance: chat.chatInstance, data };
      const update = world.queueUpdate(bot, { callback_query });
      return { update_id: update?.update_id, callback_query: structuredClone(callback_query) };
    },

    block(userId, blocked, options) {
      const bot = botOf(options);
      const user = requireUser(userId);
      const chat = world.openChat(bot, userId);
      if (chat.blocked !== blocked) {
        chat.blocked = blocked;
        const member = { status: "member" as const, user: bot.user };
        const kicked = { status: "kicked" as const, user: bot.user, until_date: 0 };
        world.queueUpdate(bot, {
          my_chat_member: {
            chat: world.chatObject(userId),
            from: user,
            date: world.nowSeconds(),
            old_chat_member: blocked ? member : kicked,
            new_chat_member: blocked ? kicked : member,
          },
        });
        world.touch(bot, userId);
      }
      return chatView(world, bot, userId);
    },

    messages: (userId, options) => chatView(world, botOf(options), userId),

    async waitForChange(userId, after, timeoutMs, options) {
      const bot = botOf(options);
      const changed = await waitUntil(
        () => world.notifierFor(bot, userId),
        () => world.versionOf(bot, userId) > after,
        timeoutMs,
        options?.signal,
      );
      return { changed, chat: chatView(world, bot, userId) };
    },

    async waitFor(userId, predicate, timeoutMs = DEFAULT_WAIT_MS, options) {
      const bot = botOf(options);
      let last = chatView(world, bot, userId);
      const ok = await waitUntil(
        () => world.notifierFor(bot, userId),
        () => {
          last = chatView(world, bot, userId);
          return predicate(last);
        },
        timeoutMs,
      );
      if (!ok) {
        const summary = last.messages
          .map(
            (m) =>
              `#${m.message_id} ${m.sender}${m.deleted ? " (deleted)" : ""}: ${m.text ?? m.caption ?? "[media]"}`,
          )
          .join("\n  ");
        throw new Error(
          `waitFor timed out after ${timeoutMs} ms; chat ${userId}:\n  ${summary || "(empty)"}`,
        );
      }
      return last;
    },

    commandsFor(userId, options) {
      const bot = botOf(options);
      return structuredClone(commandsForChat(bot, userId, world.users.get(userId)?.language_code));
    },

    setRateLimits(settings, options) {
      const targets = options?.bot === undefined ? world.bots : [botOf(options)];
      for (const bot of targets) bot.limiter.configure(settings);
      return targets[0]!.limiter.settings();
    },

    listBots: () =>
      world.bots.map((b) => ({
        id: b.config.id,
        username: b.config.username,
        first_name: b.config.firstName,
        webhook_url: b.webhook?.url ?? "",
        pending_update_count: b.queue.size(),
      })),

    reset: () => world.reset(),
  };
  return control;
}
