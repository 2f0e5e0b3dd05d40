import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { mainMenuKeyboard } from "../ui/keyboards/main-menu.ts";

/** the end of the line: unknown commands, stray texts and buttons nobody handles any more */
export function fallbackFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  // admin commands from non-admins land here too, and get exactly this answer
  composer.on("message::bot_command", async (ctx) => {
    await ctx.reply(ctx.t("unknown-command"));
  });

  composer.on("callback_query", async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
  });

  composer.on("message", async (ctx) => {
    await ctx.reply(ctx.t("fallback"), {
      reply_markup: mainMenuKeyboard(ctx.t, ctx.deps.config.miniAppUrl),
    });
  });

  return composer;
}
