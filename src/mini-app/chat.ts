import type { Order, Quote } from "../commerce/orders/types.ts";

// what the Mini App asks of the buyer's chat with the bot: a checkout in the app is the same
// quote and the same Pay as in the chat, so its card is shown in the chat too and the result
// lands on it. The bot implements it (src/bot/mini-app/chat.ts); the app knows no Telegram.

export interface QuoteInChat {
  quoteId: string;
  userId: number;
  chatId: number;
}

export interface MiniAppChat {
  /** sends a new quote's confirmation card to the buyer's chat, as the chat's flows do */
  offerQuote(quote: Quote, to: { userId: number; chatId: number }): Promise<void>;
  /** the message that shows this quote's card, if one does */
  cardOf(quote: QuoteInChat): Promise<number | undefined>;
  /** shows the order on its quote's card (only ever forward: ⏳ → ✅/❌) */
  showOrder(order: Order): Promise<void>;
  /** the buyer cancelled the quote in the app: its card says so */
  showCancelled(quote: QuoteInChat): Promise<void>;
}
