import { getOrder } from "../../commerce/orders/queries.ts";
import type { Order } from "../../commerce/orders/types.ts";
import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import { showCard } from "../ui/cards.ts";
import { orderCard, orderCopyKeyboard, orderPush } from "../ui/order-card.ts";

/**
 * an order became final: its card shows the result (and a push follows when the buyer had
 * already stopped waiting). Returns the order, for what else follows a result (a receipt).
 */
export async function renderOrderFinal(
  n: NotificationOf<"order_final">,
  env: RenderEnv,
): Promise<Order | undefined> {
  const order = await getOrder(env.db, n.payload.orderId);
  if (!order) {
    env.logger?.warn({ orderId: n.payload.orderId }, "notification for a missing order dropped");
    return undefined;
  }
  const t = await env.languageOf(order.userId);
  const card = orderCard(t, order);
  // the message the order is shown in is read now: the Pay handler may have set it late
  const messageId = order.messageId ?? n.messageId;
  if (messageId !== null) {
    const shown = await showCard(env, { ...card, chatId: n.chatId, messageId });
    if (shown !== "gone") {
      // a result that came after the buyer's wait also comes as a new message (a push),
      // unless an interrupted attempt may already have sent it
      if (n.payload.late && !n.recovered) {
        await env.api.sendMessage(n.chatId, orderPush(t, order), {
          reply_parameters: { message_id: messageId, allow_sending_without_reply: true },
          reply_markup: orderCopyKeyboard(t, order),
        });
      }
      return order;
    }
    // the message is gone: the result comes as a new one
  }
  await env.api.sendMessage(n.chatId, card.text, { reply_markup: card.keyboard });
  return order;
}
