import { Composer } from "grammy";
import { catalogueReady } from "../../commerce/catalogue/queries.ts";
import type { BotContext } from "../context.ts";
import { CB, cbPattern, parseCb } from "../ui/callback-data.ts";
import { enterFlow } from "../ui/flow/enter.ts";
import { isMenuEntry } from "../ui/keyboards/main-menu.ts";
import { showHelp } from "./start.ts";

/**
 * the main menu's buttons: a purchase flow, or help. Saldo and Riwayat belong to their own
 * features (deposits, history), which answer their entries after this one passes them on.
 */
export function menuFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.menu), async (ctx, next) => {
    const entry = parseCb(ctx.callbackQuery.data)?.parts[0];
    if (!isMenuEntry(entry)) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    if (entry === "saldo" || entry === "history") return next();
    await ctx.answerCallbackQuery();
    switch (entry) {
      case "pulsa":
      case "pln":
      case "ewallet":
      case "game":
      case "bill":
        if (!(await catalogueReady(ctx.deps.db))) {
          await ctx.reply(ctx.t("catalogue-loading"));
          return;
        }
        return enterFlow(ctx, entry);
      case "help":
        return showHelp(ctx);
    }
  });
  return composer;
}
