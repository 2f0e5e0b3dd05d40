import { Composer } from "grammy";
import { getOrder } from "../../commerce/orders/queries.ts";
import type { BotContext } from "../context.ts";
import { CB, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { sendReceipt } from "./send.ts";

// 🧾 Struk under a successful order: its receipt as a picture to keep or forward, in the
// buyer's language, with the shop's name (SHOP_NAME, else the bot's name), or a reseller's
// own name and price (/struk).

export function receiptButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.receipt), async (ctx) => {
    const orderId = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    const db = ctx.deps.db;
    const order = orderId === undefined ? undefined : await getOrder(db, orderId);
    // a buyer's own successful orders (an admin may print anyone's)
    if (order?.status !== "success" || (order.userId !== ctx.from.id && !ctx.isAdmin)) {
      await ctx.answerCallbackQuery({ text: ctx.t("receipt-not-yours") });
      return;
    }
    await ctx.answerCallbackQuery();
    await sendReceipt(ctx.api, db, {
      t: ctx.t,
      order,
      chatId: ctx.chat!.id,
      replyTo: ctx.callbackQuery.message?.message_id,
      shop: ctx.deps.config.shopName ?? ctx.me.first_name,
      logo: ctx.deps.config.shopLogo,
    });
  });
  return composer;
}
