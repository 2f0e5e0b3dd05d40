import type { BotContext } from "../context.ts";
import { rolesOf, setChatMenu } from "../ui/commands.ts";

/**
 * sets this chat's own command list and menu button (roles, chosen language) when the
 * language-wide defaults would show something else: a reseller's or an admin's commands, or
 * a language other than the client's. Once per process per chat and what it shows.
 */
export interface ChatMenus {
  refresh(ctx: BotContext, force?: boolean): void;
}

export function chatMenus(): ChatMenus {
  const set = new Map<number, string>();
  return {
    refresh(ctx, force = false) {
      const chatId = ctx.from?.id;
      if (chatId === undefined || ctx.chat?.type !== "private") return;
      const roles = rolesOf({ reseller: ctx.user?.tier === "reseller", admin: ctx.isAdmin });
      const clientLanguage = ctx.from?.language_code === "en" ? "en" : "id";
      const key = `${ctx.lang}:${roles.join(",")}`;
      const defaults = roles.length === 1 && ctx.lang === clientLanguage;
      if (set.get(chatId) === key || (defaults && !force && !set.has(chatId))) return;
      set.set(chatId, key);
      setChatMenu(ctx.api, (lang) => ctx.translatorFor(lang), {
        chatId,
        language: ctx.lang,
        roles,
        miniAppUrl: ctx.deps.config.miniAppUrl,
      }).catch((err: unknown) => {
        set.delete(chatId);
        ctx.deps.logger.warn({ err, chatId }, "setting a chat's command menu failed");
      });
    },
  };
}
