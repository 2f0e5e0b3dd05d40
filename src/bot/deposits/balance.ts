import { Composer, InlineKeyboard } from "grammy";
import { todayH2hSpend } from "../../commerce/h2h/chat.ts";
import { todaySpend } from "../../commerce/orders/queries.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import type { BotContext } from "../context.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { enterFlow } from "../ui/flow/enter.ts";
import { parseAmount, rupiah } from "../ui/format.ts";
import { offerDeposit } from "./qris.ts";

async function showBalance(ctx: BotContext): Promise<void> {
  const userId = ctx.from!.id;
  const balance = await walletBalance(ctx.deps.db, userId);
  const lines = [ctx.t("balance", { balance: rupiah(balance) })];
  if (ctx.user?.tier === "reseller") {
    const spent = await todaySpend(ctx.deps.db, userId, new Date(ctx.deps.clock.now()));
    lines.push(ctx.t("balance-today", { spent: rupiah(spent) }));
    // a reseller buying host-to-host sees how much of it their server spent
    const h2h = await todayH2hSpend(ctx.deps.db, userId, new Date(ctx.deps.clock.now()));
    if (h2h > 0) lines.push(ctx.t("balance-today-h2h", { spent: rupiah(h2h) }));
  }
  lines.push(ctx.t("balance-top-up-hint"));
  await ctx.reply(lines.join("\n"), {
    reply_markup: new InlineKeyboard().text(ctx.t("btn-top-up"), cb(CB.deposit)),
  });
}

export function walletFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("saldo", showBalance);
  // the main menu's Saldo (home/menu.ts passes it on)
  composer.callbackQuery(cb(CB.menu, "saldo"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showBalance(ctx);
  });
  // "top up" on a card or a balance message: the deposit flow
  composer.callbackQuery(CB.deposit, async (ctx) => {
    await ctx.answerCallbackQuery();
    await enterFlow(ctx, "deposit");
  });

  composer.command(["deposit", "topup"], async (ctx) => {
    const arg = ctx.match.trim();
    if (arg === "") return enterFlow(ctx, "deposit");
    const amount = parseAmount(arg);
    if (amount === undefined) {
      await ctx.reply(ctx.t("deposit-usage"));
      return;
    }
    await offerDeposit(ctx, amount);
  });

  return composer;
}
