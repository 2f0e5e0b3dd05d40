import { Composer, InlineKeyboard } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { findUserQuote } from "../../commerce/orders/quotes.ts";
import { depositForShortfall } from "../../commerce/payments/engine.ts";
import { paymentForQuote } from "../../commerce/payments/payments.ts";
import { cancelPayment } from "../../commerce/payments/resolve.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { STAGE, showCard } from "../ui/cards.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { depositAndBuyEndedCard } from "./deposit-and-buy-card.ts";
import {
  type DepositOutcome,
  depositCreatedKeyboard,
  depositCreatedText,
  depositRefusedText,
} from "./deposit-view.ts";
import { startDeposit } from "./manual.ts";
import { createQrOffer, sendQrOffer, showPayment } from "./qr-offer.ts";

// deposits by QR (QRIS through the payment gateway): the QR comes as a photo whose caption
// moves to "✅ Saldo masuk" when the gateway confirms it; "deposit and buy" on a short card
// asks for the shortfall and buys the card once it is paid.

/** a manual transfer's request (its reference and amount to copy), or why there is none */
async function replyDeposit(ctx: BotContext, outcome: DepositOutcome): Promise<void> {
  if (!outcome.ok) {
    await ctx.reply(depositRefusedText(ctx.t, outcome));
    return;
  }
  await ctx.reply(depositCreatedText(ctx.t, outcome.deposit), {
    reply_markup: depositCreatedKeyboard(ctx.t, outcome.deposit),
  });
}

/** a top-up of this amount: a QR when a gateway is configured, else the manual transfer */
export async function offerDeposit(ctx: BotContext, amount: number): Promise<void> {
  const payments = ctx.deps.payments;
  if (!payments) {
    const outcome = await startDeposit(ctx.deps, ctx.from!.id, amount);
    await replyDeposit(ctx, outcome);
    return;
  }
  const offer = await createQrOffer(payments, ctx.t, {
    userId: ctx.from!.id,
    chatId: ctx.chat!.id,
    amount,
  });
  if (!offer.ok) {
    await ctx.reply(offer.text, { reply_markup: manualButton(ctx, amount) });
    return;
  }
  const keyboard = withManualButton(
    ctx.t,
    ctx.deps.payments?.manual ?? false,
    offer.keyboard,
    amount,
  );
  await sendQrOffer(
    ctx.deps,
    (photo, caption) => ctx.replyWithPhoto(photo, { caption, reply_markup: keyboard }),
    offer,
  );
}

function manualButton(ctx: BotContext, amount: number): InlineKeyboard | undefined {
  if (!ctx.deps.payments?.manual) return undefined;
  return new InlineKeyboard().text(ctx.t("btn-deposit-manual"), cb(CB.depositManual, amount));
}

/** the QR's buttons, plus the manual transfer when the owner offers it */
export function withManualButton(
  t: Translate,
  manual: boolean,
  keyboard: InlineKeyboardMarkup | undefined,
  amount: number,
): InlineKeyboardMarkup | undefined {
  if (!manual) return keyboard;
  const row = [{ text: t("btn-deposit-manual"), callback_data: cb(CB.depositManual, amount) }];
  return { inline_keyboard: [...(keyboard?.inline_keyboard ?? []), row] };
}

export function paymentButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  // Cancel under a QR
  composer.callbackQuery(cbPattern(CB.paymentCancel), async (ctx) => {
    const payments = ctx.deps.payments;
    const paymentId = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    if (!payments || paymentId === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    const result = await cancelPayment(payments.engine, { paymentId, userId: ctx.from.id });
    switch (result.state) {
      case "not_found":
        await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
        return;
      case "unavailable":
        await ctx.answerCallbackQuery({ text: ctx.t("qr-cancel-unavailable") });
        return;
      case "cancelled":
        await ctx.answerCallbackQuery({ text: ctx.t("cancelled-toast") });
        break;
      case "final":
        await ctx.answerCallbackQuery();
        break;
    }
    await showPayment(
      ctx.api,
      { db: ctx.deps.db, payPageUrl: payments.payPageUrl },
      ctx.t,
      result.payment,
      ctx.callbackQuery.message,
    );
  });

  // "deposit and buy" on a card the wallet can't pay
  composer.callbackQuery(cbPattern(CB.depositAndBuy), async (ctx) => {
    const payments = ctx.deps.payments;
    const quoteId = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const quote = quoteId ? await findUserQuote(ctx.deps.db, quoteId, ctx.from.id) : undefined;
    const message = ctx.callbackQuery.message;
    if (!payments || !quote || !message) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    const existing = await paymentForQuote(ctx.deps.db, quoteId);
    if (existing) {
      // one "deposit and buy" per card at a time: its QR is already in the chat
      await ctx.answerCallbackQuery({ text: ctx.t("qr-already-sent") });
      return;
    }
    await ctx.answerCallbackQuery();
    const balance = await walletBalance(ctx.deps.db, ctx.from.id);
    const missing = Math.max(quote.price - balance, 1);
    const amount = depositForShortfall(missing, payments.engine.depositStep);
    const offer = await createQrOffer(payments, ctx.t, {
      userId: ctx.from.id,
      chatId: message.chat.id,
      amount,
      purpose: "buy",
      quoteId,
      cardMessageId: message.message_id,
    });
    if (!offer.ok && offer.reason === "duplicate") {
      // a second tap that raced this one: its QR is on the way
      await ctx.reply(offer.text);
      return;
    }
    if (!offer.ok) {
      // no QR was shown: the card says so and offers the way forward again
      const card = depositAndBuyEndedCard(ctx.t, {
        what: offer.reason === "unavailable" ? ctx.t("top-up-unavailable") : offer.text,
        quote,
        balance: await walletBalance(ctx.deps.db, ctx.from.id),
        depositStep: payments.engine.depositStep,
      });
      const shown = await showCard(
        { api: ctx.api, db: ctx.deps.db },
        {
          chatId: message.chat.id,
          messageId: message.message_id,
          quoteId,
          stage: STAGE.paying,
          ...card,
        },
      );
      if (shown === "gone") await ctx.reply(card.text, { reply_markup: card.keyboard });
      return;
    }
    // the card waits for the top-up; Cancel on it still voids the purchase
    await showCard(
      { api: ctx.api, db: ctx.deps.db },
      {
        chatId: message.chat.id,
        messageId: message.message_id,
        quoteId,
        stage: STAGE.paying,
        text: [
          ctx.t("card-waiting-top-up", { amount: rupiah(amount) }),
          ctx.t("order-product", { product: escapeHtml(quote.productName) }),
          ctx.t("order-destination", { destination: escapeHtml(quote.destination) }),
          ctx.t("order-price", { price: rupiah(quote.price) }),
        ].join("\n"),
        keyboard: new InlineKeyboard().text(ctx.t("btn-cancel"), cb(CB.cancelQuote, quoteId)),
      },
    );
    await sendQrOffer(
      ctx.deps,
      (photo, caption, keyboard) =>
        ctx.replyWithPhoto(photo, {
          caption,
          reply_markup: keyboard,
          reply_parameters: { message_id: message.message_id, allow_sending_without_reply: true },
        }),
      offer,
    );
  });

  // the manual transfer instead of a QR
  composer.callbackQuery(cbPattern(CB.depositManual), async (ctx) => {
    const amount = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    if (amount === undefined || !ctx.deps.payments?.manual) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    const outcome = await startDeposit(ctx.deps, ctx.from.id, amount);
    await replyDeposit(ctx, outcome);
  });

  return composer;
}
