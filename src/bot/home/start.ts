import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { registerAdminCommands } from "../ui/commands.ts";
import { escapeHtml } from "../ui/format.ts";
import { mainMenuKeyboard } from "../ui/keyboards/main-menu.ts";
import { followStartLink } from "./start-links.ts";

async function showMenu(ctx: BotContext): Promise<void> {
  await ctx.reply(ctx.t("menu-title"), {
    reply_markup: mainMenuKeyboard(ctx.t, ctx.deps.config.miniAppUrl),
  });
}

export async function showHelp(ctx: BotContext): Promise<void> {
  const parts = [ctx.t("help-customer")];
  if (ctx.user?.tier === "reseller") parts.push(ctx.t("help-reseller"));
  if (ctx.isAdmin) parts.push(ctx.t("help-admin"));
  await ctx.reply(parts.join("\n\n"));
}

export function startFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  // admins whose command menu this process has set since they opened the bot
  const adminMenusSet = new Set<number>();

  composer.command("start", async (ctx) => {
    const adminId = ctx.isAdmin ? ctx.from?.id : undefined;
    if (adminId !== undefined && !adminMenusSet.has(adminId)) {
      adminMenusSet.add(adminId);
      registerAdminCommands(ctx.api, (lang) => ctx.translatorFor(lang), adminId).catch((err) => {
        adminMenusSet.delete(adminId);
        ctx.deps.logger.warn({ err, adminId }, "setting an admin's command menu failed");
      });
    }
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
