import { InlineKeyboard } from "grammy";
import type { QuoteSummary } from "../../commerce/orders/quotes.ts";
import { depositForShortfall } from "../../commerce/payments/engine.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";

// a card whose "deposit and buy" ended without paying it (refused, no answer, the QR expired,
// cancelled or declined): it says what happened and offers the way forward, Pay once the
// wallet holds enough (it may have been topped up meanwhile), else another top-up.

export function depositAndBuyEndedCard(
  t: Translate,
  r: { what: string; quote: QuoteSummary; balance: number; depositStep: number | undefined },
): { text: string; keyboard: InlineKeyboard } {
  const { quote, balance } = r;
  const text = [
    r.what,
    t("order-product", { product: escapeHtml(quote.productName) }),
    t("order-destination", { destination: escapeHtml(quote.destination) }),
    t("order-price", { price: rupiah(quote.price) }),
    t("balance", { balance: rupiah(balance) }),
  ].join("\n");
  const keyboard = new InlineKeyboard();
  if (balance >= quote.price) {
    keyboard.text(t("btn-pay-again"), cb(CB.pay, quote.id));
  } else {
    const amount = depositForShortfall(quote.price - balance, r.depositStep);
    keyboard
      .text(t("btn-top-up-and-buy", { amount: rupiah(amount) }), cb(CB.depositAndBuy, quote.id))
      .row()
      .text(t("btn-top-up"), cb(CB.deposit));
  }
  keyboard.row().text(t("btn-cancel"), cb(CB.cancelQuote, quote.id));
  return { text, keyboard };
}
