import { Composer } from "grammy";
import {
  type BalanceCheck,
  checkSupplierBalance,
  findBalanceCheck,
  ordersOfCheck,
  settleOpenOrders,
} from "../../commerce/reconciliation/balance-check.ts";
import { confirmRiseAsTopup } from "../../commerce/reconciliation/topups.ts";
import type { Database } from "../../db/client.ts";
import { SupplierError } from "../../supplier/types.ts";
import type { BotContext } from "../context.ts";
import { CB, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editMessage } from "../ui/edit.ts";
import { rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { reconCheckKeyboard, reconCheckText } from "./check-view.ts";
import { alreadyBooked } from "./topups.ts";

/** a check as admins read it: its figures, the balance before it, the orders of its window */
export async function describeCheck(db: Database, t: Translate, check: BalanceCheck) {
  const previous = check.previousId ? await findBalanceCheck(db, check.previousId) : undefined;
  const orders = check.status === "drift" ? await ordersOfCheck(db, check) : [];
  return {
    text: reconCheckText(t, check, previous?.balance, orders),
    keyboard: reconCheckKeyboard(t, check),
  };
}

/** /recon: read the supplier balance now and compare it with kios's records */
async function recon(ctx: BotContext): Promise<void> {
  const { orders, config } = ctx.deps;
  let check: BalanceCheck;
  try {
    check = await checkSupplierBalance({
      db: orders.db,
      supplier: orders.supplier,
      clock: orders.clock,
      tolerance: orders.recon?.tolerance,
      lowBalance: orders.recon?.lowBalance,
      // the admin who asked reads the answer here; the others are told as by the hourly check
      adminIds: config.adminIds.filter((id) => id !== ctx.from?.id),
      settleOpen: () => settleOpenOrders(orders),
    });
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    await ctx.reply(ctx.t("recon-failed", { code: err.code }));
    return;
  }
  const shown = await describeCheck(orders.db, ctx.t, check);
  await ctx.reply(shown.text, { reply_markup: shown.keyboard });
}

export function adminReconciliation(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("recon", recon);
  return composer;
}

/** "it was a top-up": records the check's unexplained rise as a supplier top-up, once */
export function adminReconButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.reconTopup), async (ctx) => {
    const checkId = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    if (checkId === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    const { db } = ctx.deps.orders;
    const result = await confirmRiseAsTopup(db, { checkId, recordedBy: ctx.from.id });
    await ctx.answerCallbackQuery({
      text: result.ok
        ? ctx.t("recon-topup-recorded", {
            amount: rupiah(result.topup.amount),
            id: String(result.topup.id),
          })
        : result.reason === "already_booked"
          ? await alreadyBooked(ctx, result.topup, true)
          : ctx.t("recon-topup-not-a-rise"),
      show_alert: !result.ok,
    });
    const check = await findBalanceCheck(db, checkId);
    const message = ctx.callbackQuery.message;
    if (!check || !message) return;
    const shown = await describeCheck(db, ctx.t, check);
    await editMessage(ctx.api, {
      chatId: message.chat.id,
      messageId: message.message_id,
      text: shown.text,
      keyboard: shown.keyboard,
      shown: message,
    });
  });
  return composer;
}
