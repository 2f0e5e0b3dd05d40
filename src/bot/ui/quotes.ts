import type { InlineKeyboard } from "grammy";
import type { OrderEngine } from "../../commerce/orders/engine.ts";
import { createBillQuote, createQuote } from "../../commerce/orders/quotes.ts";
import type { BillAlreadyPaid, QuoteRefusal } from "../../commerce/orders/types.ts";
import type { BotContext } from "../context.ts";
import { editMessage } from "./edit.ts";
import { escapeHtml, wibDateTime, wibTime } from "./format.ts";
import type { Translate } from "./i18n.ts";
import { type QuoteView, quoteCard, quoteView } from "./quote-card.ts";

export type QuoteOutcome = { ok: true; quote: QuoteView } | QuoteRefusal;

export interface QuoteRequest {
  userId: number;
  chatId: number;
  productCode: string;
  destination: string;
  /** a postpaid bill: runs the supplier inquiry */
  bill: boolean;
  /** an admin's test order: sent with testing=true, no money moves */
  testing?: boolean;
  /** which purchase of the day the buyer typed (CODE.n.DEST), for the same-day repeat rule */
  nth?: number | undefined;
}

/** a confirmation card's quote as plain JSON (safe to keep in a conversation's log) */
export async function requestQuote(orders: OrderEngine, r: QuoteRequest): Promise<QuoteOutcome> {
  const result = r.bill
    ? await createBillQuote(orders, {
        userId: r.userId,
        chatId: r.chatId,
        productCode: r.productCode,
        customerNo: r.destination,
        testing: r.testing,
      })
    : await createQuote(orders, {
        userId: r.userId,
        chatId: r.chatId,
        productCode: r.productCode,
        destination: r.destination,
        testing: r.testing,
        repeat: { nth: r.nth },
      });
  return result.ok
    ? { ok: true, quote: quoteView(result.quote, { countTyped: r.nth !== undefined }) }
    : result;
}

/** what the buyer is told when no quote could be made */
export function refusalText(t: Translate, r: QuoteRefusal): string {
  switch (r.reason) {
    case "product_unavailable":
    case "not_for_sale":
      return t("quote-unavailable");
    case "invalid_destination":
      return t("quote-invalid-destination");
    case "no_bill":
      return t("bill-none");
    case "supplier_error":
      return t("quote-supplier-error");
    case "bill_already_paid":
      return billAlreadyPaidText(t, r);
    case "product_closed":
      return t("product-closed", { until: wibTime(r.until) });
  }
}

/** one bill, one payment: what a second payer is told */
export function billAlreadyPaidText(t: Translate, r: BillAlreadyPaid): string {
  const time = wibDateTime(r.at.getTime());
  return r.state === "success"
    ? t("bill-already-paid", { time })
    : t("bill-already-paying", { time });
}

/** prices a product for a destination and shows the card (a new message, or this one) */
export async function offerQuote(
  ctx: BotContext,
  r: Omit<QuoteRequest, "userId" | "chatId">,
  edit = false,
): Promise<void> {
  const outcome = await requestQuote(ctx.deps.orders, {
    userId: ctx.from!.id,
    chatId: ctx.chat!.id,
    ...r,
  });
  const message = ctx.callbackQuery?.message;
  const send = async (text: string, keyboard?: InlineKeyboard) => {
    if (edit && message) {
      const shown = await editMessage(ctx.api, {
        chatId: message.chat.id,
        messageId: message.message_id,
        text,
        keyboard,
        shown: message,
      });
      if (shown !== "gone") return;
    }
    await ctx.reply(text, { reply_markup: keyboard });
  };
  if (!outcome.ok) {
    const extra = outcome.reason === "no_bill" ? `\n${escapeHtml(outcome.message)}` : "";
    await send(refusalText(ctx.t, outcome) + extra);
    return;
  }
  const card = quoteCard(ctx.t, outcome.quote);
  await send(card.text, card.keyboard);
}
