import type { Api } from "grammy";
import type { Order, Quote } from "../../commerce/orders/types.ts";
import { findUser } from "../../commerce/users.ts";
import type { Database } from "../../db/client.ts";
import type { MiniAppChat } from "../../mini-app/chat.ts";
import { cardMessage, recordSentCard, STAGE, showCard } from "../ui/cards.ts";
import { type TranslationSource, translator } from "../ui/i18n.ts";
import { orderCard } from "../ui/order-card.ts";
import { quoteCard, quoteView } from "../ui/quote-card.ts";

// the chat's side of a Mini App checkout: the quote's card is sent into the buyer's chat as
// the chat's own flows send it, and Pay in the app moves that same card (cards.ts: forward
// only, whoever edits it), so the result lands in the chat as well as in the app

export interface MiniAppChatDeps {
  /** the bot's api (HTML by default, 429s retried) */
  api: Api;
  db: Database;
  i18n: TranslationSource;
}

export function createMiniAppChat(deps: MiniAppChatDeps): MiniAppChat {
  const languageOf = async (userId: number) =>
    translator(deps.i18n, (await findUser(deps.db, userId))?.language ?? "id");

  return {
    async offerQuote(quote: Quote, to) {
      const t = await languageOf(to.userId);
      const card = quoteCard(t, quoteView(quote));
      const sent = await deps.api.sendMessage(to.chatId, card.text, {
        reply_markup: card.keyboard,
      });
      await recordSentCard(deps.db, {
        chatId: to.chatId,
        messageId: sent.message_id,
        quoteId: quote.id,
        text: card.text,
        keyboard: card.keyboard,
      });
    },

    cardOf: (q) => cardMessage(deps.db, q),

    async showOrder(order: Order) {
      // no card in the chat: the outbox sends the result as a new message
      if (order.messageId === null) return;
      const t = await languageOf(order.userId);
      await showCard(deps, {
        ...orderCard(t, order),
        chatId: order.chatId,
        messageId: order.messageId,
      });
    },

    async showCancelled(q) {
      const messageId = await cardMessage(deps.db, q);
      if (messageId === undefined) return;
      const t = await languageOf(q.userId);
      await showCard(deps, {
        chatId: q.chatId,
        messageId,
        quoteId: q.quoteId,
        stage: STAGE.cancelled,
        text: t("card-cancelled"),
      });
    },
  };
}
