import type { Order } from "../../commerce/orders/types.ts";
import { receiptSettingsOf } from "../../commerce/receipt-settings.ts";
import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import type { Logo } from "../ui/pictures/logo.ts";
import { sendReceipt } from "./send.ts";

export interface AutoReceiptOptions {
  /** the shop's name on receipts (SHOP_NAME, else the bot's name) */
  shop: () => string;
  /** the shop's logo on receipts (SHOP_LOGO) */
  logo?: Logo | undefined;
}

/**
 * after an order's result: a reseller who asked for them (/struk otomatis) gets each
 * successful order's receipt by itself, never twice after a crash
 */
export async function autoReceiptWanted(
  n: NotificationOf<"order_final">,
  env: RenderEnv,
  order: Order,
): Promise<boolean> {
  if (order.status !== "success" || order.testing || n.recovered) return false;
  return (await receiptSettingsOf(env.db, order.userId)).auto;
}

/**
 * a receipt by itself after a result sent in its own form (a center text command's final):
 * sent only when the reseller asked for receipts, as autoReceiptWanted decides
 */
export async function sendAutoReceipt(
  n: NotificationOf<"order_final">,
  env: RenderEnv,
  order: Order,
  o: AutoReceiptOptions,
): Promise<void> {
  if (!(await autoReceiptWanted(n, env, order))) return;
  await sendReceipt(env.api, env.db, {
    t: await env.languageOf(order.userId),
    order,
    chatId: n.chatId,
    replyTo: order.messageId ?? n.messageId ?? undefined,
    shop: o.shop(),
    logo: o.logo,
  });
}
