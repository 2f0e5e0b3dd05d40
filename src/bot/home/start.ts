import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { helpText, rolesOf } from "../ui/commands.ts";
import { escapeHtml } from "../ui/format.ts";
import { mainMenuKeyboard } from "../ui/keyboards/main-menu.ts";
import type { ChatMenus } from "./chat-menu.ts";
import { followStartLink } from "./start-links.ts";

async function showMenu(ctx: BotContext): Promise<void> {
  await ctx.reply(ctx.t("menu-title"), {
    reply_markup: mainMenuKeyboard(ctx.t, ctx.deps.config.miniAppUrl),
  });
}

export async function showHelp(ctx: BotContext): Promise<void> {
  const roles = rolesOf({ reseller: ctx.user?.tier === "reseller", admin: ctx.isAdmin });
  await ctx.reply(helpText(ctx.t, roles));
}

export function startFeature(menus: ChatMenus): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("start", async (ctx) => {
    // an admin's or reseller's menu, or one in a language the client doesn't speak; Telegram
    // refuses a chat's own menu until the person has opened the bot, so it is set here
    menus.refresh(ctx);
    // a link to the bot (t.me/<bot>?start=…) opens what it names instead of the welcome
    if (ctx.match && (await followStartLink(ctx, ctx.match))) return;
    const name = escapeHtml(ctx.from?.first_name ?? "");
    await ctx.reply(ctx.t("welcome", { name }), {
      reply_markup: mainMenuKeyboard(ctx.t, ctx.deps.config.miniAppUrl),
    });
  });

  composer.command(["menu"], showMenu);
  composer.command(["help", "bantuan"], showHelp);

  return composer;
}
