import { type Api, type InlineKeyboard, InputFile } from "grammy";
import { findInquiry } from "../../commerce/orders/bills.ts";
import type { Order } from "../../commerce/orders/types.ts";
import { receiptSettingsOf } from "../../commerce/receipt-settings.ts";
import type { Database } from "../../db/client.ts";
import type { Translate } from "../ui/i18n.ts";
import type { Logo } from "../ui/pictures/logo.ts";
import { type BillInquiry, receiptOf } from "./receipt.ts";
import { receiptPng } from "./render.ts";

/**
 * sends a successful order's receipt as a photo, in reply to its message: with the buyer's
 * own shop name and selling price when they set them (/struk), else the shop's
 */
export async function sendReceipt(
  api: Api,
  db: Database,
  r: {
    t: Translate;
    order: Order;
    chatId: number;
    replyTo?: number | undefined;
    shop: string;
    logo?: Logo | undefined;
    /** the photo's caption (HTML): a result said with its receipt, in one message */
    caption?: string | undefined;
    keyboard?: InlineKeyboard | undefined;
  },
): Promise<void> {
  const { order } = r;
  let bill: BillInquiry | undefined;
  if (order.kind === "bill" && order.inquiryId !== null) {
    bill = await findInquiry(db, order.inquiryId);
  }
  const settings = await receiptSettingsOf(db, order.userId);
  const png = await receiptPng(
    receiptOf(r.t, {
      order,
      shop: settings.shopName ?? r.shop,
      // a reseller's own shop name stands alone: the shop's logo is not theirs
      logo: settings.shopName ? undefined : r.logo,
      price: order.price + settings.markup,
      bill,
    }),
  );
  await api.sendPhoto(r.chatId, new InputFile(png, `struk-${order.refId}.png`), {
    caption: r.caption,
    reply_markup: r.keyboard,
    reply_parameters: r.replyTo
      ? { message_id: r.replyTo, allow_sending_without_reply: true }
      : undefined,
  });
}
