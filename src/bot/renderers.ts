import { h2hResultMuted } from "../commerce/h2h/chat.ts";
import {
  renderBroadcast,
  renderOrderConflict,
  renderOrderFlagged,
  renderOrderOvercharged,
  renderProductPaused,
} from "./admin/notifications.ts";
import { renderTextOrderFinal } from "./center/final.ts";
import {
  type DepositRenderOptions,
  paymentRenderers,
  renderDepositDecided,
  renderDepositRequested,
  renderPaymentMismatch,
  renderPaymentPurchase,
} from "./deposits/notifications.ts";
import type { NotificationRenderers } from "./notifications/sender.ts";
import { type ResultReceipts, renderOrderFinal } from "./purchase/notifications.ts";
import {
  type AutoReceiptOptions,
  autoReceiptWanted,
  sendAutoReceipt,
} from "./receipts/notifications.ts";
import { sendReceipt } from "./receipts/send.ts";
import {
  renderOrdersRechecked,
  renderSupplierDrift,
  renderSupplierLowBalance,
} from "./reconciliation/notifications.ts";
import { renderDailyReport } from "./reports/notifications.ts";

export interface RendererOptions extends DepositRenderOptions {
  /** receipts sent by themselves after a reseller's success; absent: none */
  receipts?: AutoReceiptOptions | undefined;
}

/** every kind of notification, drawn by the feature that owns it */
export function notificationRenderers(o: RendererOptions = {}): NotificationRenderers {
  const { renderPaymentFinal } = paymentRenderers(o);
  const receipts = o.receipts;
  const resultReceipts: ResultReceipts | undefined = receipts && {
    wanted: autoReceiptWanted,
    async send(env, r) {
      await sendReceipt(env.api, env.db, {
        ...r,
        t: await env.languageOf(r.order.userId),
        shop: receipts.shop(),
        logo: receipts.logo,
      });
    },
  };
  return {
    async order_final(n, env) {
      // a center text command's order: its final in the answer's form (center/final.ts)
      const text = await renderTextOrderFinal(n, env);
      if (text) {
        if (text.order && o.receipts) await sendAutoReceipt(n, env, text.order, o.receipts);
        return;
      }
      // an H2H order's result goes to the reseller's server; the chat only if they asked
      if (await h2hResultMuted(env.db, n.payload.orderId)) return;
      // the result, and a reseller's receipt (when they asked for it) carrying it
      await renderOrderFinal(n, env, resultReceipts);
    },
    order_flagged: renderOrderFlagged,
    order_conflict: renderOrderConflict,
    order_overcharged: renderOrderOvercharged,
    product_paused: renderProductPaused,
    broadcast: renderBroadcast,
    deposit_requested: renderDepositRequested,
    deposit_decided: renderDepositDecided,
    payment_final: renderPaymentFinal,
    payment_mismatch: renderPaymentMismatch,
    payment_purchase: renderPaymentPurchase,
    supplier_drift: renderSupplierDrift,
    supplier_low_balance: renderSupplierLowBalance,
    orders_rechecked: renderOrdersRechecked,
    daily_report: renderDailyReport,
  };
}
