import { type BotOption, type ControlContext, ControlError, type Sent } from "./control-context.ts";
import type { BotState } from "./state.ts";

// links the user clicks in their client: a t.me link to the bot with a start parameter sends
// /start <param> from the user, as Telegram does (deep linking); other links open as they are

export type OpenedLink =
  /** the link started the bot with its parameter */
  | { action: "start"; sent: Sent }
  /** a link to this bot without a (valid) start parameter: the chat is simply shown */
  | { action: "chat" }
  /** not this bot's: the client opens it as any link */
  | { action: "external" };

export interface LinkControl {
  openLink(userId: number, url: string, options?: BotOption): OpenedLink;
}

const TELEGRAM_HOSTS = new Set(["t.me", "telegram.me", "telegram.dog"]);
const START_PARAMETER = /^[A-Za-z0-9_-]{1,64}$/;

/** the bot username and start parameter of a t.me or tg://resolve link, if it is one */
function botLink(raw: string): { username: string; start: string | null } | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol === "tg:") {
    // tg://resolve?domain=<bot>&start=<param>
    if (url.hostname !== "resolve" && !url.pathname.startsWith("//resolve")) return undefined;
    const domain = url.searchParams.get("domain");
    return domain ? { username: domain, start: url.searchParams.get("start") } : undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (!TELEGRAM_HOSTS.has(url.hostname.toLowerCase())) return undefined;
  // /<username> or /<username>/; /<bot>/<app> is a Mini App link, not a chat
  const match = /^\/([A-Za-z0-9_]{4,32})\/?$/.exec(url.pathname);
  if (!match) return undefined;
  return { username: match[1]!, start: url.searchParams.get("start") };
}

const isThisBot = (bot: BotState, username: string) =>
  bot.config.username.toLowerCase() === username.toLowerCase();

export function linkControl(context: ControlContext): LinkControl {
  const { botOf, requireUser, userSends } = context;
  return {
    openLink(userId, url, options) {
      const bot = botOf(options);
      requireUser(userId);
      const link = botLink(url);
      if (!link || !isThisBot(bot, link.username)) return { action: "external" };
      // Telegram ignores a parameter it can't take and just shows the chat
      if (link.start === null || !START_PARAMETER.test(link.start)) return { action: "chat" };
      if (bot.chats.get(userId)?.blocked)
        throw new ControlError(409, "the user blocked the bot; unblock it first");
      return { action: "start", sent: userSends(userId, startCommand(link.start), options) };
    },
  };
}

/** what the client sends: /start <param>, the command marked as in any typed command */
function startCommand(param: string) {
  return {
    text: `/start ${param}`,
    entities: [{ type: "bot_command" as const, offset: 0, length: "/start".length }],
  };
}
