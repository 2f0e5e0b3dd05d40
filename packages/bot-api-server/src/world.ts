import { createHash } from "node:crypto";
import type { Chat, User } from "@grammyjs/types";
import type { Clock } from "@kios/kit";
import type { Logger } from "pino";
import type { EntityContext } from "./entities-common.ts";
import { badRequest, forbidden } from "./errors.ts";
import { createFileStore, type FileStore } from "./files.ts";
import { createInlineState } from "./inline-state.ts";
import { createNotifier, type Notifier } from "./notifier.ts";
import { createRateLimiter, type RateLimitSettings } from "./rate-limit.ts";
import type { BotConfig, BotState, ChatState } from "./state.ts";
import { createUpdateQueue, type UpdatePayload } from "./updates.ts";
import { TELEGRAM_UPLOAD_LIMITS, type UploadLimits } from "./upload-limits.ts";

/** everything the server knows: bots, users, chats, files. shared by the Bot API and control API. */
export interface World {
  readonly bots: readonly BotState[];
  readonly users: Map<number, User>;
  readonly files: FileStore;
  /** what one upload may weigh (Telegram's limits unless the server was given others) */
  readonly uploadLimits: Readonly<UploadLimits>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly entities: EntityContext;
  /** unix seconds, as in Message.date */
  nowSeconds(): number;
  botByToken(token: string): BotState | undefined;
  /** a bot by username or id; the first bot when omitted */
  bot(ref?: string | number): BotState;
  /** the private chat of a bot with a user, created on the user's first update */
  openChat(bot: BotState, userId: number): ChatState;
  /** the chat a bot method targets, with Telegram's errors for unknown, unstarted or blocked chats */
  targetChat(bot: BotState, chatId: number | string): ChatState;
  chatObject(userId: number): Chat.PrivateChat;
  queueUpdate(bot: BotState, payload: UpdatePayload): ReturnType<BotState["queue"]["push"]>;
  /** records a change in a chat: new version, waiters woken */
  touch(bot: BotState, userId: number): void;
  /** records a change of a bot setting every chat shows (the default menu button) */
  touchAll(bot: BotState): void;
  versionOf(bot: BotState, userId: number): number;
  notifierFor(bot: BotState, userId: number): Notifier;
  /** forgets users, chats, updates and files; keeps bot settings and the update_id counter */
  reset(): void;
  shutdown(): void;
}

export interface WorldOptions {
  bots: BotConfig[];
  clock: Clock;
  logger: Logger;
  rateLimits?: Partial<RateLimitSettings>;
  uploadLimits?: Partial<UploadLimits>;
}

function createBot(
  config: BotConfig,
  clock: Clock,
  rateLimits?: Partial<RateLimitSettings>,
): BotState {
  // update ids keep counting across resets (see updates.ts), and across restarts from
  // where the caller says the last server stopped
  let lastUpdateId = config.lastUpdateId;
  return {
    config,
    me: {
      id: config.id,
      is_bot: true,
      first_name: config.firstName,
      username: config.username,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: config.inline,
      can_connect_to_business: false,
      has_main_web_app: false,
      has_topics_enabled: false,
      allows_users_to_create_topics: false,
      can_manage_bots: false,
      supports_join_request_queries: false,
    },
    user: { id: config.id, is_bot: true, first_name: config.firstName, username: config.username },
    queue: createUpdateQueue(() => ++lastUpdateId),
    chats: new Map(),
    callbacks: new Map(),
    commands: new Map(),
    profile: { name: new Map(), description: new Map(), shortDescription: new Map() },
    limiter: createRateLimiter(clock, rateLimits),
    chatNotifiers: new Map(),
    menuButtons: new Map(),
    defaultMenuButton: { type: "commands" },
    webApps: new Map(),
    inline: createInlineState(),
    inlineMessages: new Map(),
  };
}

export function createWorld(options: WorldOptions): World {
  const bots = options.bots.map((c) => createBot(c, options.clock, options.rateLimits));
  const users = new Map<number, User>();
  const uploadLimits = { ...TELEGRAM_UPLOAD_LIMITS, ...options.uploadLimits };
  const files = createFileStore(uploadLimits);
  // versions come from one counter so a reset never makes a version repeat
  let lastVersion = 0;
  // the version of chats that don't exist yet: bumped by resets and by settings they show
  let emptyVersion = 0;

  const notifierFor = (bot: BotState, userId: number) => {
    let n = bot.chatNotifiers.get(userId);
    if (!n) {
      n = createNotifier();
      bot.chatNotifiers.set(userId, n);
    }
    return n;
  };

  const chatObject = (userId: number): Chat.PrivateChat => {
    const user = users.get(userId);
    if (!user) throw badRequest("chat not found");
    return {
      id: user.id,
      first_name: user.first_name,
      last_name: user.last_name,
      username: user.username,
      type: "private",
    };
  };

  const world: World = {
    bots,
    users,
    files,
    uploadLimits,
    clock: options.clock,
    logger: options.logger,
    entities: { user: (id) => users.get(id) },
    nowSeconds: () => Math.floor(options.clock.now() / 1000),
    botByToken: (token) => bots.find((b) => b.config.token === token),
    bot(ref) {
      if (ref === undefined || ref === "") return bots[0]!;
      const found = bots.find(
        (b) =>
          b.config.id === Number(ref) ||
          b.config.username.toLowerCase() === String(ref).replace(/^@/, "").toLowerCase(),
      );
      if (!found) throw badRequest(`unknown bot ${ref}`);
      return found;
    },
    openChat(bot, userId) {
      let chat = bot.chats.get(userId);
      if (!chat) {
        chat = {
          userId,
          blocked: false,
          nextMessageId: 1,
          messages: new Map(),
          version: 0,
          callbackAnswers: [],
          // stable per chat, like Telegram's; derived so it needs no stored secret
          chatInstance: BigInt(
            `0x${createHash("sha256").update(`${bot.config.id}:${userId}`).digest("hex").slice(0, 15)}`,
          ).toString(),
        };
        bot.chats.set(userId, chat);
      }
      return chat;
    },
    targetChat(bot, chatId) {
      if (typeof chatId === "string") throw badRequest("chat not found");
      const chat = bot.chats.get(chatId);
      if (chat) {
        if (chat.blocked) throw forbidden("bot was blocked by the user");
        return chat;
      }
      if (chatId === bot.config.id || bots.some((b) => b.config.id === chatId))
        throw forbidden("bot can't send messages to bots");
      if (users.has(chatId)) throw forbidden("bot can't initiate conversation with a user");
      throw badRequest("chat not found");
    },
    chatObject,
    queueUpdate(bot, payload) {
      return bot.queue.push(payload);
    },
    touch(bot, userId) {
      const chat = bot.chats.get(userId);
      if (chat) chat.version = ++lastVersion;
      // a chat not started yet changed too (its menu button): its waiters must see it
      else emptyVersion = ++lastVersion;
      notifierFor(bot, userId).notify();
    },
    touchAll(bot) {
      emptyVersion = ++lastVersion;
      for (const chat of bot.chats.values()) chat.version = ++lastVersion;
      for (const n of bot.chatNotifiers.values()) n.notify();
    },
    versionOf: (bot, userId) => bot.chats.get(userId)?.version ?? emptyVersion,
    notifierFor,
    reset() {
      users.clear();
      files.clear();
      emptyVersion = ++lastVersion;
      for (const bot of bots) {
        bot.chats.clear();
        bot.callbacks.clear();
        bot.menuButtons.clear();
        bot.webApps.clear();
        bot.inline.queries.clear();
        bot.inline.cache.clear();
        bot.inline.notifier.notify();
        bot.inlineMessages.clear();
        bot.queue.clear();
        bot.limiter.reset();
        // waiters see the new (reset) version and return
        for (const n of bot.chatNotifiers.values()) n.notify();
      }
    },
    shutdown() {
      for (const bot of bots) {
        bot.poll?.abort();
        bot.queue.notifier.cancelAll();
        bot.inline.notifier.cancelAll();
        for (const n of bot.chatNotifiers.values()) n.cancelAll();
      }
    },
  };
  return world;
}
