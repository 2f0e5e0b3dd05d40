import { type Api, GrammyError, InlineKeyboard } from "grammy";
import type {
  Notification,
  NotificationSender,
  SendResult,
} from "../../commerce/notifications/outbox.ts";
import type { OrderDeps } from "../../commerce/orders/deps.ts";
import { getOrder, getOrderByConfirmKey } from "../../commerce/orders/queries.ts";
import type { Order } from "../../commerce/orders/types.ts";
import { getPayment, type Payment } from "../../commerce/payments/payments.ts";
import { receiptSettingsOf } from "../../commerce/receipt-settings.ts";
import { findBalanceCheck } from "../../commerce/reconciliation/balance-check.ts";
import { findUser, markBlocked } from "../../commerce/users.ts";
import { findDeposit } from "../../commerce/wallet/deposits.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { decisionButtons, openOrderLine, recheckButton } from "../admin/order-lines.ts";
import { topUpEndedCard } from "../deposits/deposit-and-buy-card.ts";
import { depositAdminCard, depositDecidedText } from "../deposits/deposit-view.ts";
import { paymentCaption } from "../deposits/payment-view.ts";
import { showPayment } from "../deposits/qr-offer.ts";
import { sendReceipt } from "../receipts/send.ts";
import { describeCheck } from "../reconciliation/checks.ts";
import { dailyReportText } from "../reports/daily.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { STAGE, showCard } from "../ui/cards.ts";
import { escapeHtml, rupiah, wibTime } from "../ui/format.ts";
import { PLAIN } from "../ui/html.ts";
import { type Translate, type TranslationSource, translator } from "../ui/i18n.ts";
import { orderCard, orderPush } from "../ui/order-card.ts";
import type { Logo } from "../ui/pictures/logo.ts";
import { findQuote } from "../ui/queries.ts";
import { quoteCard } from "../ui/quote-card.ts";
import { refusalText, requestQuote } from "../ui/quotes.ts";

export interface NotificationSenderDeps {
  /** the bot's api (bot.api: with auto-retry for 429s) */
  api: Api;
  db: Database;
  i18n: TranslationSource;
  /** admin notices (deposit requests, flagged orders) are delivered to these chats only */
  adminIds: readonly number[];
  logger?: Logger;
  /** the order engine, for the fresh card a paid "Top up and buy" may need */
  orders?: OrderDeps;
  /** the gateway sandbox's pay page (the playground) */
  payPageUrl?: ((gatewayOrderId: string) => string) | undefined;
  /** "Top up and buy" rounds the shortfall up to this (PAYMENT_TOPUP_STEP) */
  topUpStep?: number | undefined;
  /** the shop's name on receipts (SHOP_NAME, else the bot's name) */
  receiptShop?: () => string;
  /** the shop's logo on receipts (SHOP_LOGO) */
  receiptLogo?: Logo | undefined;
}

/** "open it again now" under a pause notice, when the code fits callback data */
function resumeKeyboard(t: Translate, code: string): InlineKeyboard | undefined {
  try {
    return new InlineKeyboard().text(t("btn-product-resume"), cb(CB.productResume, code));
  } catch {
    // a code callback data can't carry: /resume CODE still opens it
    return undefined;
  }
}

function isGone(err: unknown): boolean {
  if (!(err instanceof GrammyError)) return false;
  if (err.error_code === 403) return true;
  return err.error_code === 400 && /chat not found|user is deactivated/i.test(err.description);
}

/**
 * delivers one outbox notification. Returns "gone" when the chat can never receive it (the
 * user blocked the bot: they are marked so broadcasts skip them); throws on anything worth
 * retrying. A notification recovered after a crash only does what is safe to repeat:
 * editing in place, and sending what the user must not miss (a result without a message).
 */
export function createNotificationSender(deps: NotificationSenderDeps): NotificationSender {
  const { api, db } = deps;

  async function languageOf(userId: number): Promise<Translate> {
    const user = await findUser(db, userId);
    return translator(deps.i18n, user?.language ?? "id");
  }

  async function orderFinal(n: Notification, orderId: number, late: boolean) {
    const order = await getOrder(db, orderId);
    if (!order) {
      deps.logger?.warn({ orderId }, "notification for a missing order dropped");
      return;
    }
    const t = await languageOf(order.userId);
    await showOrderFinal(n, order, late, t);
    // a reseller who asked for them gets each receipt by itself (not twice after a crash)
    if (order.status === "success" && !order.testing && !n.recovered && deps.receiptShop) {
      const settings = await receiptSettingsOf(db, order.userId);
      if (settings.auto) {
        await sendReceipt(api, db, {
          t,
          order,
          chatId: n.chatId,
          replyTo: order.messageId ?? n.messageId ?? undefined,
          shop: deps.receiptShop(),
          logo: deps.receiptLogo,
        });
      }
    }
  }

  async function showOrderFinal(n: Notification, order: Order, late: boolean, t: Translate) {
    const card = orderCard(t, order);
    // the message the order is shown in is read now: the Pay handler may have set it late
    const messageId = order.messageId ?? n.messageId;
    if (messageId !== null) {
      const shown = await showCard({ api, db }, { ...card, chatId: n.chatId, messageId });
      if (shown !== "gone") {
        // a result that came after the buyer's wait also comes as a new message (a push),
        // unless an interrupted attempt may already have sent it
        if (late && !n.recovered) {
          await api.sendMessage(n.chatId, orderPush(t, order), {
            reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
          });
        }
        return;
      }
      // the message is gone: the result comes as a new one
    }
    await api.sendMessage(n.chatId, card.text, {
      reply_markup: card.keyboard,
    });
  }

  // admin cards (with their buttons) go to admin chats only, whatever the row says
  function forAdmins(n: Notification): boolean {
    if (deps.adminIds.includes(n.chatId)) return true;
    deps.logger?.warn({ key: n.key }, "admin notice for a chat that is not an admin's dropped");
    return false;
  }

  async function depositRequested(n: Notification, depositId: number) {
    const d = await findDeposit(db, depositId);
    if (!d || !forAdmins(n)) return;
    const t = await languageOf(n.chatId);
    const card = depositAdminCard(t, d, await findUser(db, d.userId));
    await api.sendMessage(n.chatId, card.text, { reply_markup: card.keyboard });
  }

  async function depositDecided(n: Notification, depositId: number) {
    const d = await findDeposit(db, depositId);
    if (!d) return;
    const t = await languageOf(d.userId);
    const balance = await walletBalance(db, d.userId);
    await api.sendMessage(n.chatId, depositDecidedText(t, d, balance));
  }

  async function orderFlagged(n: Notification, orderId: number, reason?: "not_found") {
    const order = await getOrder(db, orderId);
    if (!order || !forAdmins(n)) return;
    const t = await languageOf(n.chatId);
    if (reason === "not_found") {
      // only an admin may refund an order the supplier may still make (key interface)
      await api.sendMessage(n.chatId, `${t("decide-title")}\n${openOrderLine(order)}`, {
        reply_markup: decisionButtons(t, order),
      });
      return;
    }
    await api.sendMessage(n.chatId, `${t("flagged-title")}\n${openOrderLine(order)}`, {
      reply_markup: recheckButton(t, order),
    });
  }

  async function orderConflict(n: Notification, orderId: number, supplierStatus: string) {
    const order = await getOrder(db, orderId);
    if (!order || !forAdmins(n)) return;
    const t = await languageOf(n.chatId);
    const text = [
      t("conflict-title"),
      t("conflict-body", { kios: order.status, supplier: supplierStatus }),
      openOrderLine(order),
    ].join("\n");
    await api.sendMessage(n.chatId, text);
  }

  async function orderOvercharged(
    n: Notification,
    orderId: number,
    quoted: number,
    charged: number,
  ) {
    const order = await getOrder(db, orderId);
    if (!order || !forAdmins(n)) return;
    const t = await languageOf(n.chatId);
    const text = [
      t("overcharge-title"),
      t("overcharge-body", {
        quoted: rupiah(quoted),
        charged: rupiah(charged),
        loss: rupiah(charged - quoted),
      }),
      openOrderLine(order),
    ].join("\n");
    await api.sendMessage(n.chatId, text);
  }

  async function supplierDrift(n: Notification, checkId: number) {
    const check = await findBalanceCheck(db, checkId);
    if (!check || !forAdmins(n)) return;
    const shown = await describeCheck(db, await languageOf(n.chatId), check);
    await api.sendMessage(n.chatId, shown.text, { reply_markup: shown.keyboard });
  }

  async function paymentFinal(paymentId: number) {
    const payment = await getPayment(db, paymentId);
    if (!payment) return;
    const t = await languageOf(payment.userId);
    await showPayment(api, { db, payPageUrl: deps.payPageUrl }, t, payment);
    const unpaid = ["expired", "cancelled", "denied", "failed", "mismatch"];
    if (unpaid.includes(payment.status)) await topUpEnded(t, payment);
  }

  /**
   * a "Top up and buy" whose QR ended unpaid: its card (which waited for it) says what
   * happened and offers Pay or another top-up; a card the buyer cancelled says that
   */
  async function topUpEnded(t: Translate, payment: Payment) {
    if (payment.purpose !== "buy" || !payment.quoteId || payment.cardMessageId === null) return;
    const quote = await findQuote(db, payment.quoteId, payment.userId);
    if (!quote) return;
    const where = { chatId: payment.chatId, messageId: payment.cardMessageId, quoteId: quote.id };
    if (quote.cancelledAt) {
      await showCard({ api, db }, { ...where, stage: STAGE.cancelled, text: t("card-cancelled") });
      return;
    }
    const card = topUpEndedCard(t, {
      what: paymentCaption(t, payment),
      quote,
      balance: await walletBalance(db, payment.userId),
      topUpStep: deps.topUpStep,
    });
    // forward only: a card that shows an order (Pay meanwhile) keeps it
    await showCard({ api, db }, { ...where, stage: STAGE.paying, ...card });
  }

  async function paymentMismatch(n: Notification, paymentId: number) {
    const payment = await getPayment(db, paymentId);
    if (!payment || !forAdmins(n)) return;
    const t = await languageOf(n.chatId);
    const text = [
      t("payment-mismatch-title"),
      t("payment-mismatch-body", {
        order: escapeHtml(payment.gatewayOrderId),
        user: String(payment.userId),
        asked: rupiah(payment.amount),
        paid: rupiah(payment.paidAmount ?? 0),
      }),
    ];
    await api.sendMessage(n.chatId, text.join("\n"));
  }

  /** a paid "Top up and buy": its card shows the order, or why it wasn't bought */
  async function paymentPurchase(n: Notification, paymentId: number) {
    const payment = await getPayment(db, paymentId);
    if (!payment?.quoteId) return;
    const t = await languageOf(payment.userId);
    const order = await getOrderByConfirmKey(db, payment.quoteId);
    const messageId = payment.cardMessageId;
    if (payment.purchase === "placed" && order) {
      const card = orderCard(t, order);
      if (messageId !== null) {
        const shown = await showCard({ api, db }, { ...card, chatId: n.chatId, messageId });
        if (shown !== "gone") return;
      }
      await api.sendMessage(n.chatId, card.text, { reply_markup: card.keyboard });
      return;
    }
    if (payment.purchase === "cancelled") {
      await api.sendMessage(
        n.chatId,
        t("top-up-buy-cancelled", { amount: rupiah(payment.amount) }),
      );
      return;
    }
    // the price moved or the card ran out: the money waits in the wallet, with a fresh card
    const quote = await findQuote(db, payment.quoteId, payment.userId);
    if (messageId !== null && quote) {
      await showCard(
        { api, db },
        {
          chatId: n.chatId,
          messageId,
          quoteId: quote.id,
          stage: STAGE.cancelled,
          text: t("top-up-buy-stale"),
        },
      );
    }
    if (!quote || !deps.orders || n.recovered) return;
    const outcome = await requestQuote(deps.orders, {
      userId: payment.userId,
      chatId: n.chatId,
      productCode: quote.productCode,
      destination: quote.destination,
      bill: quote.kind === "bill",
      testing: quote.testing,
    });
    if (!outcome.ok) {
      await api.sendMessage(n.chatId, refusalText(t, outcome));
      return;
    }
    const card = quoteCard(t, outcome.quote);
    await api.sendMessage(n.chatId, `${t("top-up-buy-fresh")}\n\n${card.text}`, {
      reply_markup: card.keyboard,
    });
  }

  return async (n): Promise<SendResult> => {
    const p = n.payload;
    try {
      switch (p.type) {
        case "order_final":
          await orderFinal(n, p.orderId, p.late);
          break;
        case "deposit_requested":
          await depositRequested(n, p.depositId);
          break;
        case "deposit_decided":
          await depositDecided(n, p.depositId);
          break;
        case "order_flagged":
          await orderFlagged(n, p.orderId, p.reason);
          break;
        case "order_conflict":
          await orderConflict(n, p.orderId, p.supplierStatus);
          break;
        case "order_overcharged":
          await orderOvercharged(n, p.orderId, p.quoted, p.charged);
          break;
        case "supplier_drift":
          await supplierDrift(n, p.checkId);
          break;
        case "supplier_low_balance":
          if (forAdmins(n)) {
            const t = await languageOf(n.chatId);
            const text = [t("recon-low-title"), t("recon-low-body", { known: rupiah(p.known) })];
            await api.sendMessage(n.chatId, text.join("\n"));
          }
          break;
        case "orders_rechecked":
          if (forAdmins(n)) {
            const t = await languageOf(n.chatId);
            const lines = [t("recheck-title", { checked: p.checked })];
            if (p.disagreeing.length > 0) lines.push(t("recheck-disagree"));
            for (const d of p.disagreeing) {
              lines.push(`• <code>${escapeHtml(d.refId)}</code> ${d.kios} → ${d.supplier}`);
            }
            if (p.more > 0) lines.push(t("recheck-more", { more: p.more }));
            if (p.unanswered > 0) lines.push(t("recheck-unanswered", { unanswered: p.unanswered }));
            await api.sendMessage(n.chatId, lines.join("\n"));
          }
          break;
        case "daily_report":
          if (forAdmins(n)) {
            const t = await languageOf(n.chatId);
            await api.sendMessage(n.chatId, await dailyReportText(db, t, new Date(p.at)));
          }
          break;
        case "product_paused":
          if (forAdmins(n)) {
            const t = await languageOf(n.chatId);
            const text = [
              t("product-paused-title"),
              t("product-paused-body", {
                code: escapeHtml(p.code),
                name: escapeHtml(p.name),
                until: wibTime(p.until),
                why: t(`product-paused-${p.reason}`),
              }),
            ];
            await api.sendMessage(n.chatId, text.join("\n"), {
              reply_markup: resumeKeyboard(t, p.code),
            });
          }
          break;
        case "payment_final":
          await paymentFinal(p.paymentId);
          break;
        case "payment_mismatch":
          await paymentMismatch(n, p.paymentId);
          break;
        case "payment_purchase":
          await paymentPurchase(n, p.paymentId);
          break;
        case "broadcast":
          // a broadcast that may already have gone out is not sent twice
          // an admin's broadcast goes out exactly as typed: not read as HTML
          if (!n.recovered) await api.sendMessage(n.chatId, p.text, PLAIN);
          break;
      }
      return "sent";
    } catch (err) {
      if (!isGone(err)) throw err;
      if (n.chatId > 0) await markBlocked(db, n.chatId);
      return "gone";
    }
  };
}
