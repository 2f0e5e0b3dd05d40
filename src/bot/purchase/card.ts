import { Composer, InlineKeyboard } from "grammy";
import { cancelQuote } from "../../commerce/orders/cancel.ts";
import { confirmQuote } from "../../commerce/orders/place.ts";
import { getOrder } from "../../commerce/orders/queries.ts";
import { findUserQuote } from "../../commerce/orders/quotes.ts";
import type { ConfirmResult, Order } from "../../commerce/orders/types.ts";
import { depositForShortfall } from "../../commerce/payments/engine.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbPattern, parseCb } from "../ui/callback-data.ts";
import { STAGE, showCard } from "../ui/cards.ts";
import { rupiah, wibTime } from "../ui/format.ts";
import { orderCard } from "../ui/order-card.ts";
import { pinGate } from "../ui/pin-pad.ts";
import { billAlreadyPaidText, offerQuote } from "../ui/quotes.ts";

// the confirmation card and what its buttons do. A card is a stored quote, so its buttons
// work from any message at any time (also after a restart and while another flow runs):
// Pay is idempotent per quote, an expired card offers a fresh quote in one tap.

/** shows a stage of the pressed card (forward only, see cards.ts) */
async function showStage(
  ctx: BotContext,
  quoteId: string,
  stage: number,
  text: string,
  keyboard?: InlineKeyboard,
): Promise<void> {
  const message = ctx.callbackQuery?.message;
  if (!message) return;
  const result = await showCard(
    { api: ctx.api, db: ctx.deps.db },
    { chatId: message.chat.id, messageId: message.message_id, quoteId, stage, text, keyboard },
  );
  // the card can't be edited any more (deleted, too old): say it in a new message
  if (result === "gone") await ctx.reply(text, { reply_markup: keyboard });
}

async function showOrder(ctx: BotContext, order: Order): Promise<void> {
  const card = orderCard(ctx.t, order);
  await showStage(ctx, card.quoteId, card.stage, card.text, card.keyboard);
}

async function showConfirmResult(
  ctx: BotContext,
  quoteId: string,
  result: ConfirmResult,
): Promise<void> {
  if (result.ok) {
    await showOrder(ctx, result.order);
    return;
  }
  const stage = (text: string, keyboard?: InlineKeyboard) =>
    showStage(ctx, quoteId, STAGE.paying, text, keyboard);
  switch (result.reason) {
    case "quote_expired": {
      const kb = new InlineKeyboard()
        .text(
          result.kind === "bill" ? ctx.t("btn-reinquire") : ctx.t("btn-requote"),
          cb(CB.requote, quoteId),
        )
        .text(ctx.t("btn-cancel"), cb(CB.cancelQuote, quoteId));
      await stage(result.kind === "bill" ? ctx.t("bill-expired") : ctx.t("quote-expired"), kb);
      return;
    }
    case "insufficient_balance": {
      const kb = new InlineKeyboard();
      const payments = ctx.deps.payments;
      if (payments) {
        const amount = depositForShortfall(result.missing, payments.engine.depositStep);
        kb.text(
          ctx.t("btn-top-up-and-buy", { amount: rupiah(amount) }),
          cb(CB.depositAndBuy, quoteId),
        ).row();
      }
      kb.text(ctx.t("btn-top-up"), cb(CB.deposit))
        .text(ctx.t("btn-pay-again"), cb(CB.pay, quoteId))
        .row()
        .text(ctx.t("btn-cancel"), cb(CB.cancelQuote, quoteId));
      await stage(
        ctx.t("pay-insufficient", {
          price: rupiah(result.price),
          balance: rupiah(result.balance),
          missing: rupiah(result.missing),
        }),
        kb,
      );
      return;
    }
    case "product_unavailable":
      await stage(ctx.t("quote-unavailable"));
      return;
    case "product_closed":
      await stage(ctx.t("product-closed", { until: wibTime(result.until) }));
      return;
    case "supplier_unavailable": {
      const kb = new InlineKeyboard()
        .text(ctx.t("btn-pay-again"), cb(CB.pay, quoteId))
        .text(ctx.t("btn-cancel"), cb(CB.cancelQuote, quoteId));
      await stage(ctx.t("supplier-unavailable"), kb);
      return;
    }
    case "quote_not_found":
      await stage(ctx.t("quote-not-found"));
      return;
    case "quote_cancelled":
      await showStage(ctx, quoteId, STAGE.cancelled, ctx.t("card-cancelled"));
      return;
    case "bill_already_paid": {
      // the buyer's own payment of this bill (a second tap racing the first, a second card):
      // that payment as it stands, never a second one
      const own = result.ownOrderId ? await getOrder(ctx.deps.db, result.ownOrderId) : undefined;
      if (own) await showOrder(ctx, own);
      else await stage(billAlreadyPaidText(ctx.t, result));
      return;
    }
    case "bought_today": {
      // a fresh card for it shows today's purchase and asks: its Pay is the yes
      const kb = new InlineKeyboard()
        .text(ctx.t("btn-buy-again"), cb(CB.requote, quoteId))
        .text(ctx.t("btn-cancel"), cb(CB.cancelQuote, quoteId));
      await stage(ctx.t("pay-bought-today", { time: wibTime(result.at.getTime()) }), kb);
      return;
    }
  }
}

/**
 * Pay on a card: the quote confirmed, the card moved to its result. Also what the PIN
 * keypad runs once the PIN is right (the keypad sits on the same card).
 */
export async function payQuote(ctx: BotContext, quoteId: string): Promise<void> {
  if (!ctx.callbackQuery || !ctx.from) return;
  const messageId = ctx.callbackQuery.message?.message_id;
  // the tap's answer and the ⏳ go out while the order is placed, not before it: the
  // supplier is asked without waiting two round trips to Telegram. The ⏳ is the stored
  // order's own view, ref included, so support can find an order still waiting for the
  // supplier. The card's stages only move forward, so a ⏳ that lands after the result is
  // not shown over it.
  const log = ctx.deps.logger;
  const answered = ctx
    .answerCallbackQuery()
    .catch((err: unknown) => log.warn({ err, quoteId }, "answering the Pay tap failed"));
  let hourglass: Promise<void> = Promise.resolve();
  let result: ConfirmResult;
  try {
    result = await confirmQuote(ctx.deps.orders, {
      quoteId,
      userId: ctx.from.id,
      messageId,
      onSubmitted: (order) => {
        hourglass = showOrder(ctx, order).catch((err: unknown) =>
          log.warn({ err, quoteId }, "showing ⏳ failed"),
        );
      },
    });
  } catch (err) {
    log.error({ err, quoteId }, "confirming a quote failed");
    await Promise.all([answered, hourglass]);
    // the order may exist: never say it failed, point at the history instead
    await showStage(ctx, quoteId, STAGE.paying, ctx.t("pay-error"));
    return;
  }
  await Promise.all([answered, hourglass]);
  await showConfirmResult(ctx, quoteId, result);
}

export function checkoutButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.callbackQuery(cbPattern(CB.pay), async (ctx) => {
    const quoteId = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const quote = quoteId ? await findUserQuote(ctx.deps.db, quoteId, ctx.from.id) : undefined;
    if (!quote) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    // with a PIN, the card's buttons become the keypad; the keypad runs payQuote
    if (!(await pinGate(ctx, cb(CB.pay, quoteId)))) return;
    await payQuote(ctx, quoteId);
  });

  composer.callbackQuery(cbPattern(CB.cancelQuote), async (ctx) => {
    const quoteId = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const outcome = await cancelQuote(ctx.deps.db, {
      quoteId,
      userId: ctx.from.id,
      now: new Date(ctx.deps.clock.now()),
    });
    if (outcome.state === "ordered") {
      await ctx.answerCallbackQuery({ text: ctx.t("cancel-too-late") });
      await showOrder(ctx, outcome.order);
      return;
    }
    await ctx.answerCallbackQuery({ text: ctx.t("cancelled-toast") });
    await showStage(ctx, quoteId, STAGE.cancelled, ctx.t("card-cancelled"));
  });

  // a fresh quote (or a fresh bill inquiry) for the same product and destination
  composer.callbackQuery(cbPattern(CB.requote), async (ctx) => {
    const quoteId = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const quote = quoteId ? await findUserQuote(ctx.deps.db, quoteId, ctx.from.id) : undefined;
    if (!quote) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    await offerQuote(
      ctx,
      {
        productCode: quote.productCode,
        destination: quote.destination,
        bill: quote.kind === "bill",
        // an admin's test stays a test (the engine makes it real for anyone else)
        testing: quote.testing,
      },
      true,
    );
  });

  return composer;
}
