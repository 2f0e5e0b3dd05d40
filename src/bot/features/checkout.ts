import { Composer, InlineKeyboard } from "grammy";
import { confirmQuote } from "../../commerce/orders/place.ts";
import { type ConfirmResult, isFinal } from "../../commerce/orders/types.ts";
import { CB, cb, cbPattern, parseCb } from "../callback-data.ts";
import type { BotContext } from "../context.ts";
import { HTML } from "../conversations/kit.ts";
import { escapeHtml, rupiah } from "../format.ts";
import { findQuote, type QuoteSummary } from "../services/queries.ts";
import { refusalText, requestQuote } from "../services/quotes.ts";
import { orderMessage } from "../views/order.ts";
import { quoteCard } from "../views/quote.ts";

// the confirmation card and what its buttons do. A card is a stored quote, so its buttons
// work from any message at any time (also after a restart and while another flow runs):
// Pay is idempotent per quote, an expired card offers a fresh quote in one tap.

/** prices a product for a destination and shows the card (a new message, or this one) */
export async function offerQuote(
  ctx: BotContext,
  r: { productCode: string; destination: string; bill: boolean; testing?: boolean },
  edit = false,
): Promise<void> {
  const outcome = await requestQuote(ctx.deps.orders, {
    userId: ctx.from!.id,
    chatId: ctx.chat!.id,
    ...r,
  });
  const send = (text: string, reply_markup?: InlineKeyboard) =>
    edit
      ? ctx.editMessageText(text, { ...HTML, reply_markup: reply_markup ?? new InlineKeyboard() })
      : ctx.reply(text, { ...HTML, ...(reply_markup ? { reply_markup } : {}) });
  if (!outcome.ok) {
    const extra = outcome.reason === "no_bill" ? `\n${escapeHtml(outcome.message)}` : "";
    await send(refusalText(ctx.t, outcome) + extra);
    return;
  }
  const card = quoteCard(ctx.t, outcome.quote);
  await send(card.text, card.keyboard);
}

/** the ⏳ view of a quote being paid (the order's own view replaces it once it is stored) */
function processingText(ctx: BotContext, q: QuoteSummary): string {
  return [
    ctx.t("order-processing"),
    ctx.t("order-product", { product: escapeHtml(q.productName) }),
    ctx.t("order-destination", { destination: escapeHtml(q.destination) }),
    ctx.t("order-price", { price: rupiah(q.price) }),
    ctx.t("order-wait"),
  ].join("\n");
}

async function edit(ctx: BotContext, text: string, keyboard?: InlineKeyboard): Promise<void> {
  try {
    await ctx.editMessageText(text, { ...HTML, reply_markup: keyboard ?? new InlineKeyboard() });
  } catch (err) {
    // the same text again (a repeated tap, or the notifier was first): already shown
    if (!String((err as Error).message).includes("message is not modified")) throw err;
  }
}

async function showConfirmResult(
  ctx: BotContext,
  quoteId: string,
  result: ConfirmResult,
): Promise<void> {
  if (result.ok) {
    // an open order keeps its ⏳ message: the notifier edits it when the result comes,
    // and editing it here as well could overwrite a result that just arrived
    if (isFinal(result.order.status)) await edit(ctx, orderMessage(ctx.t, result.order));
    return;
  }
  switch (result.reason) {
    case "quote_expired": {
      const kb = new InlineKeyboard()
        .text(
          result.kind === "bill" ? ctx.t("btn-reinquire") : ctx.t("btn-requote"),
          cb(CB.requote, quoteId),
        )
        .text(ctx.t("btn-cancel"), cb(CB.cancelQuote, quoteId));
      await edit(ctx, result.kind === "bill" ? ctx.t("bill-expired") : ctx.t("quote-expired"), kb);
      return;
    }
    case "insufficient_balance": {
      const kb = new InlineKeyboard()
        .text(ctx.t("btn-top-up"), cb(CB.topUp))
        .text(ctx.t("btn-pay-again"), cb(CB.pay, quoteId))
        .row()
        .text(ctx.t("btn-cancel"), cb(CB.cancelQuote, quoteId));
      await edit(
        ctx,
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
      await edit(ctx, ctx.t("quote-unavailable"));
      return;
    case "quote_not_found":
      await edit(ctx, ctx.t("quote-not-found"));
      return;
  }
}

export function checkoutButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.callbackQuery(cbPattern(CB.pay), async (ctx) => {
    const quoteId = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const quote = quoteId ? await findQuote(ctx.deps.db, quoteId, ctx.from.id) : undefined;
    if (!quote) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    const messageId = ctx.callbackQuery.message?.message_id;
    // ⏳ before the supplier is asked: a result arriving meanwhile then edits this message
    await edit(ctx, processingText(ctx, quote));
    let result: ConfirmResult;
    try {
      result = await confirmQuote(ctx.deps.orders, {
        quoteId,
        userId: ctx.from.id,
        messageId,
      });
    } catch (err) {
      ctx.deps.logger.error({ err, quoteId }, "confirming a quote failed");
      // the order may exist: never say it failed, point at the history instead
      await edit(ctx, ctx.t("pay-error"));
      return;
    }
    await showConfirmResult(ctx, quoteId, result);
  });

  composer.callbackQuery(cbPattern(CB.cancelQuote), async (ctx) => {
    await ctx.answerCallbackQuery({ text: ctx.t("cancelled-toast") });
    await edit(ctx, ctx.t("card-cancelled"));
  });

  // a fresh quote (or a fresh bill inquiry) for the same product and destination
  composer.callbackQuery(cbPattern(CB.requote), async (ctx) => {
    const quoteId = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const quote = quoteId ? await findQuote(ctx.deps.db, quoteId, ctx.from.id) : undefined;
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
        // a test stays a test; it never turns into a real purchase
        testing: quote.testing,
      },
      true,
    );
  });

  return composer;
}
