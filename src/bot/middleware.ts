import type { I18n } from "@grammyjs/i18n";
import type { NextFunction } from "grammy";
import { isCurrent, markBlocked, type TelegramProfile, upsertUser } from "../commerce/users.ts";
import type { BaseContext } from "./context.ts";
import type { BotDeps } from "./deps.ts";
import { preloadedFor } from "./storage/preload.ts";
import { DEFAULT_LANGUAGE, isLanguage, translator } from "./ui/i18n.ts";

/** puts the dependencies and the stored sender on ctx (the sender is recorded on contact,
 * and written again only when their name changed or they had blocked the bot) */
export function attachDeps(deps: BotDeps, i18n: I18n<BaseContext>) {
  return async (ctx: BaseContext, next: NextFunction) => {
    ctx.deps = deps;
    ctx.translatorFor = (language) => translator(i18n, language);
    const from = ctx.from;
    ctx.isAdmin = from !== undefined && deps.config.adminIds.includes(from.id);
    if (from && !from.is_bot && ctx.chat?.type === "private") {
      const profile: TelegramProfile = {
        telegramId: from.id,
        firstName: from.first_name,
        username: from.username,
        languageCode: from.language_code,
      };
      // most updates come from someone whose row the inbox already read and who changed
      // nothing: no write
      const known = preloadedFor(ctx.update)?.user;
      ctx.user =
        known && known.telegramId === from.id && isCurrent(known, profile)
          ? known
          : await upsertUser(deps.db, profile);
      ctx.lang = isLanguage(ctx.user.language) ? ctx.user.language : DEFAULT_LANGUAGE;
    } else {
      ctx.user = undefined;
      ctx.lang = DEFAULT_LANGUAGE;
    }
    await next();
  };
}

/** a user who blocks the bot is skipped by broadcasts until they write again */
export function trackMembership(deps: BotDeps) {
  return async (ctx: BaseContext, next: NextFunction) => {
    const change = ctx.myChatMember;
    if (change && change.chat.type === "private") {
      if (change.new_chat_member.status === "kicked") await markBlocked(deps.db, change.chat.id);
      return;
    }
    await next();
  };
}
