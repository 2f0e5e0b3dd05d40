import { Composer } from "grammy";
import { catalogueReady } from "../../commerce/catalogue/queries.ts";
import type { BotContext } from "../context.ts";
import { showBalance } from "../deposits/balance.ts";
import { showHistory } from "../history/history.ts";
import { CB, cbPattern, parseCb } from "../ui/callback-data.ts";
import { enterFlow } from "../ui/flow/enter.ts";
import { isMenuEntry } from "../ui/keyboards/main-menu.ts";
import { showHelp } from "./start.ts";

/** the main menu's buttons (a purchase flow, or a view) and the top-up button */
export function menuFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.menu), async (ctx) => {
    const entry = parseCb(ctx.callbackQuery.data)?.parts[0];
    if (!isMenuEntry(entry)) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    switch (entry) {
      case "pulsa":
      case "pln":
      case "ewallet":
      case "game":
      case "bill":
        if (!(await catalogueReady(ctx.deps.orders.db))) {
          await ctx.reply(ctx.t("catalogue-loading"));
          return;
        }
        return enterFlow(ctx, entry);
      case "saldo":
        return showBalance(ctx);
      case "history":
        return showHistory(ctx, 0, false);
      case "help":
        return showHelp(ctx);
    }
  });
  // "top up" on a card or a balance message: the deposit flow
  composer.callbackQuery(CB.topUp, async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, "deposit");
  });
  return composer;
}
