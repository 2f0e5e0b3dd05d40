import type { OrderEngine } from "../commerce/orders/engine.ts";
import { confirmQuote } from "../commerce/orders/place.ts";
import type { ConfirmResult } from "../commerce/orders/types.ts";
import type { MiniAppChat, QuoteInChat } from "./chat.ts";

/**
 * Pay from the app: the chat's own confirmQuote (design rules 1 and 3: one quote, one
 * order, however many taps in the app and the chat), on the quote's card in the chat, which
 * moves to ⏳ once the order is stored and to its result after, as when Pay is tapped there
 */
export async function payFromApp(
  orders: OrderEngine,
  chat: MiniAppChat | undefined,
  q: QuoteInChat,
): Promise<ConfirmResult> {
  const log = orders.logger.child({ component: "mini-app", quoteId: q.quoteId });
  const shown = (err: unknown) => log.warn({ err }, "showing a Mini App order in chat failed");
  const messageId = chat ? await chat.cardOf(q).catch(shown) : undefined;
  let hourglass: Promise<void> = Promise.resolve();
  const result = await confirmQuote(orders, {
    quoteId: q.quoteId,
    userId: q.userId,
    messageId: messageId ?? undefined,
    onSubmitted: (order) => {
      if (chat) hourglass = chat.showOrder(order).catch(shown);
    },
  });
  await hourglass;
  if (result.ok && chat) await chat.showOrder(result.order).catch(shown);
  return result;
}
