import { Composer, InlineKeyboard } from "grammy";
import { setLanguage } from "../../commerce/users.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbPattern, parseCb } from "../ui/callback-data.ts";
import { clearPressed } from "../ui/edit.ts";
import { isLanguage } from "../ui/i18n.ts";
import { mainMenuKeyboard } from "../ui/keyboards/main-menu.ts";
import type { ChatMenus } from "./chat-menu.ts";

async function switchTo(menus: ChatMenus, ctx: BotContext, lang: "id" | "en"): Promise<void> {
  if (ctx.from) await setLanguage(ctx.deps.db, ctx.from.id, lang);
  ctx.lang = lang;
  ctx.i18n.useLocale(lang);
  // the "/" list and the menu button follow the chosen language, not the client's
  menus.refresh(ctx, true);
  await ctx.reply(ctx.t("language-set"), {
    reply_markup: mainMenuKeyboard(ctx.t, ctx.deps.config.miniAppUrl),
  });
}

/** /lang shows the choice; /lang en or /lang id switches at once */
export function languageCommands(menus: ChatMenus): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(["lang", "language", "bahasa"], async (ctx) => {
    const wanted = ctx.match.trim().toLowerCase();
    if (isLanguage(wanted)) return switchTo(menus, ctx, wanted);
    const kb = new InlineKeyboard()
      .text("🇮🇩 Bahasa Indonesia", cb(CB.language, "id"))
      .text("🇬🇧 English", cb(CB.language, "en"));
    await ctx.reply(ctx.t("language-choose"), { reply_markup: kb });
  });
  return composer;
}

/** the language buttons work from any message, also in the middle of a flow */
export function languageButtons(menus: ChatMenus): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.language), async (ctx) => {
    const wanted = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    if (!isLanguage(wanted)) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    await clearPressed(ctx);
    await switchTo(menus, ctx, wanted);
  });
  return composer;
}
