import { Composer } from "grammy";
import { firstSupplierName } from "../../commerce/orders/routing.ts";
import {
  type BalanceCheck,
  findBalanceCheck,
  ordersOfCheck,
} from "../../commerce/reconciliation/balance-check.ts";
import {
  checkSuppliers,
  findSupplierAccount,
  supplierAccounts,
} from "../../commerce/reconciliation/every-supplier.ts";
import { confirmRiseAsTopup } from "../../commerce/reconciliation/topups.ts";
import type { Database } from "../../db/client.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { CB, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editMessage } from "../ui/edit.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { reconCheckKeyboard, reconCheckText } from "./check-view.ts";
import { alreadyBooked } from "./topups.ts";

/**
 * a check as admins read it: its figures, the balance before it, the orders of its window.
 * `suppliers` names the first supplier (a check stored with a null supplier is its) and says
 * whether there are others (then every check names its supplier)
 */
export async function describeCheck(
  db: Database,
  t: Translate,
  check: BalanceCheck,
  suppliers: { first: string; several: boolean } = { first: "main", several: false },
) {
  const previous = check.previousId ? await findBalanceCheck(db, check.previousId) : undefined;
  const orders = check.status === "drift" ? await ordersOfCheck(db, check, suppliers.first) : [];
  const name =
    suppliers.several || check.supplier !== null ? (check.supplier ?? suppliers.first) : undefined;
  return {
    text: reconCheckText(t, check, previous?.balance, orders, name),
    keyboard: reconCheckKeyboard(t, check),
  };
}

/** how checks are shown in this shop: who the first supplier is, and whether there are others */
function suppliersShown(ctx: BotContext): { first: string; several: boolean } {
  const { orders } = ctx.deps;
  return { first: firstSupplierName(orders), several: supplierAccounts(orders).length > 1 };
}

/**
 * /recon [supplier]: read every supplier's balance now (or the one named) and compare each
 * with kios's records
 */
async function recon(ctx: BotContext): Promise<void> {
  const { orders, config } = ctx.deps;
  const [name] = words(ctx.match as string);
  let accounts = supplierAccounts(orders);
  if (name) {
    const found = findSupplierAccount(orders, name);
    if (!found.account) {
      await ctx.reply(
        ctx.t("recon-unknown-supplier", {
          name: escapeHtml(name),
          names: found.names.join(", "),
        }),
      );
      return;
    }
    accounts = [found.account];
  }
  const results = await checkSuppliers(orders, {
    accounts,
    // the admin who asked reads the answer here; the others are told as by the hourly check
    adminIds: config.adminIds.filter((id) => id !== ctx.from?.id),
  });
  const shownAs = suppliersShown(ctx);
  for (const r of results) {
    if ("error" in r) {
      await ctx.reply(
        shownAs.several
          ? ctx.t("recon-failed-at", { supplier: r.book.name, code: r.error.code })
          : ctx.t("recon-failed", { code: r.error.code }),
      );
      continue;
    }
    const shown = await describeCheck(orders.db, ctx.t, r.check, shownAs);
    await ctx.reply(shown.text, { reply_markup: shown.keyboard });
  }
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
    const result = await confirmRiseAsTopup(db, {
      checkId,
      recordedBy: ctx.from.id,
      firstSupplier: firstSupplierName(ctx.deps.orders),
    });
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
    const shown = await describeCheck(db, ctx.t, check, suppliersShown(ctx));
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
