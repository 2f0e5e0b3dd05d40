import { getOrderByConfirmKey } from "../../commerce/orders/queries.ts";
import { findUserQuote, loadQuote, revivedRefusal } from "../../commerce/orders/quotes.ts";
import { getPayment, type Payment } from "../../commerce/payments/payments.ts";
import { findUser } from "../../commerce/users.ts";
import { findDeposit } from "../../commerce/wallet/deposits.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import { STAGE, showCard } from "../ui/cards.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { orderCard } from "../ui/order-card.ts";
import { quoteCard, quoteView } from "../ui/quote-card.ts";
import { refusalText } from "../ui/quotes.ts";
import { depositAndBuyEndedCard } from "./deposit-and-buy-card.ts";
import { depositAdminCard, depositDecidedText } from "./deposit-view.ts";
import { paymentCaption } from "./payment-view.ts";
import { showPayment } from "./qr-offer.ts";

// what deposits tell people: a manual transfer to confirm (admins), its decision (the
// buyer), a QR's end, a payment of the wrong amount (admins), and a paid "deposit and buy"

export interface DepositRenderOptions {
  /** the gateway sandbox's pay page (the playground) */
  payPageUrl?: ((gatewayOrderId: string) => string) | undefined;
  /** "deposit and buy" rounds the shortfall up to this (PAYMENT_TOPUP_STEP) */
  depositStep?: number | undefined;
}

/** a manual transfer waits for an admin: its card with Confirm and Reject */
export async function renderDepositRequested(
  n: NotificationOf<"deposit_requested">,
  env: RenderEnv,
) {
  const d = await findDeposit(env.db, n.payload.depositId);
  if (!d || !env.forAdmins(n)) return;
  const t = await env.languageOf(n.chatId);
  const card = depositAdminCard(t, d, await findUser(env.db, d.userId));
  await env.api.sendMessage(n.chatId, card.text, { reply_markup: card.keyboard });
}

/** an admin confirmed or rejected a manual transfer: the buyer hears it */
export async function renderDepositDecided(n: NotificationOf<"deposit_decided">, env: RenderEnv) {
  const d = await findDeposit(env.db, n.payload.depositId);
  if (!d) return;
  const t = await env.languageOf(d.userId);
  const balance = await walletBalance(env.db, d.userId);
  await env.api.sendMessage(n.chatId, depositDecidedText(t, d, balance));
}

/**
 * a "deposit and buy" whose QR ended unpaid: its card (which waited for it) says what
 * happened and offers Pay or another top-up; a card the buyer cancelled says that
 */
async function depositAndBuyEnded(
  env: RenderEnv,
  o: DepositRenderOptions,
  t: Translate,
  payment: Payment,
) {
  if (payment.purpose !== "buy" || !payment.quoteId || payment.cardMessageId === null) return;
  const quote = await findUserQuote(env.db, payment.quoteId, payment.userId);
  if (!quote) return;
  const where = { chatId: payment.chatId, messageId: payment.cardMessageId, quoteId: quote.id };
  if (quote.cancelledAt) {
    await showCard(env, { ...where, stage: STAGE.cancelled, text: t("card-cancelled") });
    return;
  }
  const card = depositAndBuyEndedCard(t, {
    what: paymentCaption(t, payment),
    quote,
    balance: await walletBalance(env.db, payment.userId),
    depositStep: o.depositStep,
  });
  // forward only: a card that shows an order (Pay meanwhile) keeps it
  await showCard(env, { ...where, stage: STAGE.paying, ...card });
}

export function paymentRenderers(o: DepositRenderOptions) {
  /** a QR's end: paid (the money arrived), or expired, cancelled, denied… */
  async function renderPaymentFinal(n: NotificationOf<"payment_final">, env: RenderEnv) {
    const payment = await getPayment(env.db, n.payload.paymentId);
    if (!payment) return;
    const t = await env.languageOf(payment.userId);
    await showPayment(env.api, { db: env.db, payPageUrl: o.payPageUrl }, t, payment);
    const unpaid = ["expired", "cancelled", "denied", "failed", "mismatch"];
    if (unpaid.includes(payment.status)) await depositAndBuyEnded(env, o, t, payment);
  }
  return { renderPaymentFinal };
}

/** the gateway says a QR was paid with another amount than asked: nothing was credited */
export async function renderPaymentMismatch(n: NotificationOf<"payment_mismatch">, env: RenderEnv) {
  const payment = await getPayment(env.db, n.payload.paymentId);
  if (!payment || !env.forAdmins(n)) return;
  const t = await env.languageOf(n.chatId);
  const text = [
    t("payment-mismatch-title"),
    t("payment-mismatch-body", {
      order: escapeHtml(payment.gatewayOrderId),
      user: String(payment.userId),
      asked: rupiah(payment.amount),
      paid: rupiah(payment.paidAmount ?? 0),
    }),
  ];
  await env.api.sendMessage(n.chatId, text.join("\n"));
}

/**
 * a paid "deposit and buy": its card shows the order, or why it wasn't bought; when the
 * price moved or the card ran out, the money waits in the wallet beside the fresh card the
 * engine made (or the reason it could make none)
 */
export async function renderPaymentPurchase(n: NotificationOf<"payment_purchase">, env: RenderEnv) {
  const payment = await getPayment(env.db, n.payload.paymentId);
  if (!payment?.quoteId) return;
  const t = await env.languageOf(payment.userId);
  const order = await getOrderByConfirmKey(env.db, payment.quoteId);
  const messageId = payment.cardMessageId;
  if (payment.purchase === "placed" && order) {
    const card = orderCard(t, order);
    if (messageId !== null) {
      const shown = await showCard(env, { ...card, chatId: n.chatId, messageId });
      if (shown !== "gone") return;
    }
    await env.api.sendMessage(n.chatId, card.text, { reply_markup: card.keyboard });
    return;
  }
  if (payment.purchase === "cancelled") {
    await env.api.sendMessage(
      n.chatId,
      t("top-up-buy-cancelled", { amount: rupiah(payment.amount) }),
    );
    return;
  }
  const stale = await findUserQuote(env.db, payment.quoteId, payment.userId);
  if (messageId !== null && stale) {
    await showCard(env, {
      chatId: n.chatId,
      messageId,
      quoteId: stale.id,
      stage: STAGE.cancelled,
      text: t("top-up-buy-stale"),
    });
  }
  const fresh = n.payload.fresh;
  if (!stale || !fresh || n.recovered) return;
  if ("refusal" in fresh) {
    await env.api.sendMessage(n.chatId, refusalText(t, revivedRefusal(fresh.refusal)));
    return;
  }
  const quote = await loadQuote(env.db, fresh.quoteId);
  if (!quote) return;
  const card = quoteCard(t, quoteView(quote));
  await env.api.sendMessage(n.chatId, `${t("top-up-buy-fresh")}\n\n${card.text}`, {
    reply_markup: card.keyboard,
  });
}
