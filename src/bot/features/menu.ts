import { Composer } from "grammy";
import { catalogueReady } from "../../commerce/catalogue/queries.ts";
import { CB, cbPattern, parseCb } from "../callback-data.ts";
import type { BotContext } from "../context.ts";
import { isMenuEntry } from "../keyboards/main-menu.ts";
import { enterFlow } from "./flows.ts";
import { showHistory } from "./history.ts";
import { showHelp } from "./start.ts";
import { showBalance } from "./wallet.ts";

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
