import { Composer, InlineKeyboard } from "grammy";
import {
  askTransfer,
  cancelTransfer,
  confirmTransfer,
  findRecipient,
  type TransferRefusal,
} from "../../commerce/resellers/transfers.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml, parseAmount, rupiah } from "../ui/format.ts";
import { pinGate } from "../ui/pin-pad.ts";

// /transfer <user> <amount>: wallet money to a direct downline (an admin: to anyone), by a
// confirmation card whose Send moves it once through the ledger; both sides are told
// (docs/resellers.md#balance-transfers)

/** why a transfer was refused, in the chat's words (the card, and the TRANS text command) */
export function transferRefusalText(ctx: BotContext, r: TransferRefusal): string {
  switch (r.reason) {
    case "above_max":
      return ctx.t("transfer-above-max", { max: rupiah(r.max) });
    case "daily_cap":
      return ctx.t("transfer-daily-cap", { cap: rupiah(r.cap), left: rupiah(r.left) });
    case "insufficient_balance":
      return ctx.t("transfer-short", { balance: rupiah(r.balance) });
    case "moved_away":
      return ctx.t("transfer-moved-away", { id: String(r.toUserId) });
    default:
      return ctx.t(`transfer-${r.reason.replace("_", "-")}`);
  }
}

export function transferFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(["transfer", "trf"], async (ctx) => {
    if (ctx.user?.tier !== "reseller" && !ctx.isAdmin) {
      await ctx.reply(ctx.t("resellers-only"));
      return;
    }
    const [who, amountText, ...rest] = words(ctx.match as string);
    const amount = amountText === undefined ? undefined : parseAmount(amountText);
    const toUserId = who === undefined ? undefined : await findRecipient(ctx.deps.db, who);
    if (who === undefined || amount === undefined || rest.length > 0) {
      await ctx.reply(ctx.t("transfer-usage"));
      return;
    }
    if (toUserId === undefined) {
      await ctx.reply(ctx.t("transfer-unknown-user", { who: escapeHtml(who) }));
      return;
    }
    const asked = await askTransfer(ctx.deps.db, {
      userId: ctx.from!.id,
      isAdmin: ctx.isAdmin,
      toUserId,
      amount,
      now: ctx.deps.clock.now(),
    });
    if (!asked.ok) {
      await ctx.reply(transferRefusalText(ctx, asked));
      return;
    }
    const t = asked.transfer;
    const kb = new InlineKeyboard()
      .text(ctx.t("btn-transfer-send"), cb(CB.transferSend, t.id))
      .text(ctx.t("btn-cancel"), cb(CB.transferCancel, t.id));
    await ctx.reply(
      ctx.t("transfer-card", {
        to: escapeHtml(t.toName || String(t.toUserId)),
        id: String(t.toUserId),
        amount: rupiah(t.amount),
        balance: rupiah(t.balance),
        after: rupiah(t.balance - t.amount),
      }),
      { reply_markup: kb },
    );
  });
  return composer;
}

/** Send on a transfer's card; also what the PIN keypad runs once the PIN is right */
export async function sendTransfer(ctx: BotContext, arg: string): Promise<void> {
  const id = cbInt(arg);
  if (id === undefined || !ctx.from) {
    await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
    return;
  }
  const done = await confirmTransfer(ctx.deps.db, {
    transferId: id,
    userId: ctx.from.id,
    isAdmin: ctx.isAdmin,
    now: ctx.deps.clock.now(),
  });
  await ctx.answerCallbackQuery();
  if (!done.ok) {
    // Send re-checks the card (the downline, the limits): whatever it refused, nothing moved
    await editPressed(ctx, `${transferRefusalText(ctx, done)}\n${ctx.t("transfer-not-sent")}`);
    return;
  }
  const t = done.transfer;
  await editPressed(
    ctx,
    ctx.t("transfer-done", {
      amount: rupiah(t.amount),
      id: String(t.toUserId),
      balance: rupiah(t.fromBalance),
    }),
  );
  if (!t.now) return;
  const from = ctx.from.first_name + (ctx.from.username ? ` @${ctx.from.username}` : "");
  // a courtesy: the money is in their wallet whether or not this message arrives
  await ctx.api
    .sendMessage(
      t.toUserId,
      ctx.t("transfer-received", {
        amount: rupiah(t.amount),
        from: escapeHtml(from),
        balance: rupiah(t.toBalance),
      }),
    )
    .catch((err) => ctx.deps.logger.info({ err, transfer: t.id }, "telling a recipient failed"));
}

/** the card's buttons: they work from any message, as long as the transfer is the tapper's */
export function transferButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.transferSend), async (ctx) => {
    const arg = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    // with a PIN, the card's buttons become the keypad; the keypad runs sendTransfer
    if (!(await pinGate(ctx, cb(CB.transferSend, arg)))) return;
    await sendTransfer(ctx, arg);
  });
  composer.callbackQuery(cbPattern(CB.transferCancel), async (ctx) => {
    const id = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    const cancelled =
      id !== undefined &&
      (await cancelTransfer(ctx.deps.db, {
        userId: ctx.from.id,
        transferId: id,
        now: ctx.deps.clock.now(),
      }));
    await ctx.answerCallbackQuery(cancelled ? undefined : { text: ctx.t("stale-button") });
    if (cancelled) await editPressed(ctx, ctx.t("transfer-cancelled"));
  });
  return composer;
}
