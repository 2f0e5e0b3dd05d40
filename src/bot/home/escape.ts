import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { CB, parseCb } from "../ui/callback-data.ts";
import { clearPressed } from "../ui/edit.ts";
import { mainMenuKeyboard } from "../ui/keyboards/main-menu.ts";

// sits in front of the conversations: a command, a main-menu button or Cancel always
// leaves the current flow first, so a step never has to understand them.

function isCommand(ctx: BotContext): boolean {
  const entity = ctx.message?.entities?.[0];
  return entity?.type === "bot_command" && entity.offset === 0;
}

function flowActive(ctx: BotContext): boolean {
  return Object.keys(ctx.conversation.active()).length > 0;
}

export function escapeFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  // Cancel (any step's button): leave the flow, say so, show the menu
  composer.callbackQuery(CB.cancel, async (ctx) => {
    const active = flowActive(ctx);
    await ctx.conversation.exitAll();
    await ctx.answerCallbackQuery({ text: ctx.t("cancelled-toast") });
    await clearPressed(ctx);
    if (active) {
      await ctx.reply(ctx.t("cancelled"), {
        reply_markup: mainMenuKeyboard(ctx.t, ctx.deps.config.miniAppUrl),
      });
    }
  });

  composer.command("cancel", async (ctx) => {
    const active = flowActive(ctx);
    await ctx.conversation.exitAll();
    await ctx.reply(active ? ctx.t("cancelled") : ctx.t("nothing-to-cancel"), {
      reply_markup: mainMenuKeyboard(ctx.t, ctx.deps.config.miniAppUrl),
    });
  });

  composer.use(async (ctx, next) => {
    const prefix = parseCb(ctx.callbackQuery?.data)?.prefix;
    // buttons that start a flow (they are handled after the flows are registered)
    const menu = prefix === CB.menu || prefix === CB.deposit;
    if ((isCommand(ctx) || menu) && flowActive(ctx)) await ctx.conversation.exitAll();
    await next();
  });

  return composer;
}
