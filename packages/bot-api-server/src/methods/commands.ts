import type { BotCommand, BotCommandScope } from "@grammyjs/types";
import { badRequest } from "../errors.ts";
import { optJson, optString, type Params } from "../params.ts";
import type { BotState } from "../state.ts";
import type { World } from "../world.ts";
import type { MethodContext, MethodTable } from "./context.ts";

// commands are stored per scope and language, like Telegram; getMyCommands reads exactly the
// given pair, while a chat's menu resolves through the fallbacks in commandsForChat

function scopeKey(world: World, bot: BotState, raw: unknown): string {
  if (raw === undefined) return "default";
  if (raw === null || typeof raw !== "object")
    throw badRequest("can't parse BotCommandScope JSON object");
  const scope = raw as Partial<BotCommandScope> & { chat_id?: unknown; user_id?: unknown };
  switch (scope.type) {
    case "default":
    case "all_private_chats":
    case "all_group_chats":
    case "all_chat_administrators":
      return scope.type;
    case "chat":
    case "chat_administrators":
    case "chat_member": {
      const chatId = Number(scope.chat_id);
      if (!Number.isSafeInteger(chatId) || !(bot.chats.has(chatId) || world.users.has(chatId)))
        throw badRequest("chat not found");
      if (scope.type !== "chat_member") return `${scope.type}:${chatId}`;
      const userId = Number(scope.user_id);
      if (!Number.isSafeInteger(userId)) throw badRequest("user not found");
      return `chat_member:${chatId}:${userId}`;
    }
    default:
      throw badRequest("wrong bot command scope type specified");
  }
}

function languageOf(params: Params): string {
  const lang = optString(params, "language_code") ?? "";
  if (lang !== "" && !/^[a-z]{2}$/.test(lang)) throw badRequest("invalid language code specified");
  return lang;
}

function commandsOf(raw: unknown): BotCommand[] {
  if (!Array.isArray(raw)) throw badRequest("can't parse commands JSON object");
  if (raw.length > 100) throw badRequest("too many commands specified");
  return raw.map((item: unknown) => {
    const c = item as { command?: unknown; description?: unknown } | null;
    if (!c || typeof c.command !== "string" || typeof c.description !== "string")
      throw badRequest("can't parse BotCommand JSON object");
    // Telegram lowercases commands and strips the leading slash
    const command = c.command.replace(/^\//, "").toLowerCase();
    if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest("BOT_COMMAND_INVALID");
    const description = c.description.trim();
    if (description.length < 1 || description.length > 256)
      throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
    return { command, description };
  });
}

const key = (scope: string, lang: string) => `${scope}|${lang}`;

export const commandMethods: MethodTable = {
  setmycommands(ctx: MethodContext) {
    const { world, bot, params } = ctx;
    const commands = commandsOf(optJson(params, "commands", "commands") ?? []);
    const k = key(scopeKey(world, bot, optJson(params, "scope", "scope")), languageOf(params));
    if (commands.length === 0) bot.commands.delete(k);
    else bot.commands.set(k, commands);
    return true;
  },
  getmycommands(ctx: MethodContext) {
    const { world, bot, params } = ctx;
    const k = key(scopeKey(world, bot, optJson(params, "scope", "scope")), languageOf(params));
    return bot.commands.get(k) ?? [];
  },
  deletemycommands(ctx: MethodContext) {
    const { world, bot, params } = ctx;
    bot.commands.delete(
      key(scopeKey(world, bot, optJson(params, "scope", "scope")), languageOf(params)),
    );
    return true;
  },
};

/**
 * the menu a user's client shows in a private chat: the most specific scope with commands,
 * each tried with the user's language first (Telegram's documented resolution order)
 */
export function commandsForChat(
  bot: BotState,
  userId: number,
  languageCode: string | undefined,
): BotCommand[] {
  const lang = languageCode?.slice(0, 2).toLowerCase() ?? "";
  for (const scope of [`chat:${userId}`, "all_private_chats", "default"]) {
    const found =
      (lang ? bot.commands.get(key(scope, lang)) : undefined) ?? bot.commands.get(key(scope, ""));
    if (found) return found;
  }
  return [];
}
