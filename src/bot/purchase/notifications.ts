import { getOrder } from "../../commerce/orders/queries.ts";
import type { Order } from "../../commerce/orders/types.ts";
import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import { cardInView } from "../storage/card-in-view.ts";
import { cardMessages, showCard } from "../ui/cards.ts";
import { orderCard, orderCopyKeyboard, orderPush } from "../ui/order-card.ts";

/** the receipts feature as this one needs it, given by the renderers (features stay apart) */
export interface ResultReceipts {
  /** whether this order's buyer gets its receipt by itself (/struk otomatis) */
  wanted(n: NotificationOf<"order_final">, env: RenderEnv, order: Order): Promise<boolean>;
  /** sends the receipt, as a reply, with the result as its caption when given */
  send(
    env: RenderEnv,
    r: {
      order: Order;
      chatId: number;
      replyTo: number | undefined;
      caption?: string | undefined;
      keyboard?: ReturnType<typeof orderCopyKeyboard> | undefined;
    },
  ): Promise<void>;
}

/**
 * the result on every other card that shows this order (a second card of a bill whose Pay
 * was answered with the payment under way): each moves forward too, never left at ⏳. A card
 * that can't be edited any more is left; the order's own card carries the result.
 */
async function showOnOtherCards(
  env: RenderEnv,
  card: ReturnType<typeof orderCard>,
  chatId: number,
  messageId: number,
): Promise<void> {
  const others = (await cardMessages(env.db, { chatId, quoteId: card.quoteId })).filter(
    (id) => id !== messageId,
  );
  for (const other of others) await showCard(env, { ...card, chatId, messageId: other });
}

/**
 * an order became final: its card shows the result, and at most one new message follows. A
 * result that came after the buyer's wait is also said in a new message (a push) unless the
 * card is still the chat's latest message (the buyer sees it change in place). A reseller who
 * asked for receipts (/struk otomatis) gets the receipt, which then carries the push as its
 * caption: the result's own message, not a second one.
 */
export async function renderOrderFinal(
  n: NotificationOf<"order_final">,
  env: RenderEnv,
  receipts?: ResultReceipts | undefined,
): Promise<Order | undefined> {
  const order = await getOrder(env.db, n.payload.orderId);
  if (!order) {
    env.logger?.warn({ orderId: n.payload.orderId }, "notification for a missing order dropped");
    return undefined;
  }
  const t = await env.languageOf(order.userId);
  const card = orderCard(t, order);
  const receipt = receipts && (await receipts.wanted(n, env, order));
  const sendReceiptWith = async (replyTo: number | undefined, caption?: string) => {
    if (!receipt || !receipts) return;
    await receipts.send(env, {
      order,
      chatId: n.chatId,
      replyTo,
      caption,
      keyboard: caption ? orderCopyKeyboard(t, order) : undefined,
    });
  };
  // the message the order is shown in is read now: the Pay handler may have set it late
  const messageId = order.messageId ?? n.messageId;
  if (messageId !== null) {
    // a result after the buyer's wait, unless an interrupted attempt may already have sent
    // its push; read before the edit, which moves the card's record
    const push =
      n.payload.late &&
      !n.recovered &&
      !(await cardInView(env.db, { chatId: n.chatId, messageId, notificationId: n.id }));
    const shown = await showCard(env, { ...card, chatId: n.chatId, messageId });
    await showOnOtherCards(env, card, n.chatId, messageId);
    if (shown !== "gone") {
      if (receipt) await sendReceiptWith(messageId, push ? orderPush(t, order) : undefined);
      else if (push) {
        await env.api.sendMessage(n.chatId, orderPush(t, order), {
          reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
          reply_markup: orderCopyKeyboard(t, order),
        });
      }
      return order;
    }
    // the message is gone: the result comes as a new one
  }
  const sent = await env.api.sendMessage(n.chatId, card.text, { reply_markup: card.keyboard });
  await sendReceiptWith(sent.message_id);
  return order;
}
