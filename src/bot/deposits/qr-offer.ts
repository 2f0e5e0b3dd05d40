import { type Api, InputFile } from "grammy";
import type { InlineKeyboardMarkup, Message } from "grammy/types";
import { type Payment, setPaymentMessage, startPayment } from "../../commerce/payments/payments.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import type { BotDeps, BotPayments } from "../deps.ts";
import { editMessage } from "../ui/edit.ts";
import { rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { paymentCaption, paymentKeyboard } from "./payment-view.ts";
import { qrPng } from "./qr.ts";

/** a QR to send, or what to say instead; plain JSON, so a conversation can keep it */
export type QrOffer =
  | {
      ok: true;
      paymentId: number;
      /** the QRIS payload kios draws, or the gateway's own picture of it (base64 PNG) */
      qr: { qrString: string } | { pngBase64: string };
      caption: string;
      keyboard: InlineKeyboardMarkup | undefined;
    }
  /** limit: the amount is outside the shop's limits; duplicate: this card's QR is out already */
  | { ok: false; reason: "limit" | "duplicate" | "unavailable"; text: string };

/** the QR's photo: drawn from its payload, or the gateway's picture as it came */
export async function qrPhoto(offer: Extract<QrOffer, { ok: true }>): Promise<InputFile> {
  const png =
    "qrString" in offer.qr
      ? await qrPng(offer.qr.qrString)
      : Buffer.from(offer.qr.pngBase64, "base64");
  return new InputFile(png, "qris.png");
}

/** asks the gateway for a QR of this amount (the row is stored first) */
export async function createQrOffer(
  payments: BotPayments,
  t: Translate,
  r: {
    userId: number;
    chatId: number;
    amount: number;
    purpose?: "deposit" | "buy";
    quoteId?: string;
    cardMessageId?: number;
  },
): Promise<QrOffer> {
  const outcome = await startPayment(payments.engine, { ...r, skipMinimum: r.purpose === "buy" });
  if (!outcome.ok) {
    switch (outcome.reason) {
      case "amount_too_small":
        return {
          ok: false,
          reason: "limit",
          text: t("deposit-too-small", { min: rupiah(outcome.limit) }),
        };
      case "amount_too_large":
        return {
          ok: false,
          reason: "limit",
          text: t("deposit-too-large", { max: rupiah(outcome.limit) }),
        };
      case "duplicate":
        return { ok: false, reason: "duplicate", text: t("qr-already-sent") };
      default:
        return { ok: false, reason: "unavailable", text: t("qr-unavailable") };
    }
  }
  const p = outcome.payment;
  const keyboard = paymentKeyboard(t, p, payments.payPageUrl);
  return {
    ok: true,
    paymentId: p.id,
    qr:
      "qrString" in outcome.qr
        ? { qrString: outcome.qr.qrString }
        : { pngBase64: outcome.qr.png.toString("base64") },
    caption: paymentCaption(t, p),
    keyboard: keyboard ? { inline_keyboard: keyboard.inline_keyboard } : undefined,
  };
}

/** the QR as a photo with its caption; the message is remembered so the payment can edit it */
export async function sendQrOffer(
  deps: BotDeps,
  send: (photo: InputFile, caption: string, keyboard?: InlineKeyboardMarkup) => Promise<Message>,
  offer: Extract<QrOffer, { ok: true }>,
): Promise<void> {
  const sent = await send(await qrPhoto(offer), offer.caption, offer.keyboard);
  await setPaymentMessage(deps.db, offer.paymentId, sent.message_id);
}

/**
 * shows a payment in its QR message (the one way it is edited): the outcome, with the
 * balance once paid. The message is gone (deleted, too old): the outcome comes as a new one.
 */
export async function showPayment(
  api: Api,
  deps: { db: BotDeps["orders"]["db"]; payPageUrl?: ((id: string) => string) | undefined },
  t: Translate,
  payment: Payment,
  shown?: Pick<Message, "caption" | "reply_markup">,
): Promise<void> {
  const balance =
    payment.status === "paid" ? await walletBalance(deps.db, payment.userId) : undefined;
  const text = paymentCaption(t, payment, balance);
  const keyboard = paymentKeyboard(t, payment, deps.payPageUrl);
  if (payment.messageId !== null) {
    const result = await editMessage(api, {
      chatId: payment.chatId,
      messageId: payment.messageId,
      text,
      keyboard,
      caption: true,
      shown,
    });
    if (result !== "gone") return;
  }
  await api.sendMessage(payment.chatId, text, {
    reply_markup: keyboard ? { inline_keyboard: keyboard.inline_keyboard } : undefined,
  });
}
