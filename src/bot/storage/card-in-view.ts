import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { chatCards, notifications, telegramUpdates } from "../../db/schema.ts";
import { rowsOf } from "../../db/sql-rows.ts";

/**
 * true when a card is still the chat's latest message: since the card last moved (its
 * recorded stage, before this result's edit), the buyer sent the bot nothing but taps on
 * this card, the outbox sent the chat nothing but this notification, and no card was sent
 * below it. In a private chat every new message, theirs or the bot's, comes from one of
 * those, so a result edited into such a card is in front of the buyer and needs no
 * separate notice. A card kios holds no record of is not known to be in view.
 */
export async function cardInView(
  exec: Executor,
  c: { chatId: number; messageId: number; notificationId: number },
): Promise<boolean> {
  const rows = rowsOf<{ in_view: boolean | null }>(
    await exec.execute(sql`
      with card as (
        select ${chatCards.updatedAt} as since from ${chatCards}
        where ${chatCards.chatId} = ${c.chatId} and ${chatCards.messageId} = ${c.messageId}
      )
      select not (
        exists (
          select 1 from ${telegramUpdates}, card
          where ${telegramUpdates.chatId} = ${c.chatId}
            and ${telegramUpdates.receivedAt} > card.since
            and coalesce((${telegramUpdates.payload} -> 'callback_query' -> 'message' ->> 'message_id')::bigint, -1) <> ${c.messageId}
        ) or exists (
          select 1 from ${notifications}, card
          where ${notifications.chatId} = ${c.chatId}
            and ${notifications.createdAt} > card.since
            and ${notifications.id} <> ${c.notificationId}
            and ${notifications.status} in ('sending', 'sent')
        ) or exists (
          select 1 from ${chatCards}
          where ${chatCards.chatId} = ${c.chatId} and ${chatCards.messageId} > ${c.messageId}
        )
      ) as in_view
      from card`),
  );
  return rows[0]?.in_view === true;
}
