import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { chatCards } from "../../db/schema.ts";

// which stage each purchase card shows (src/bot/ui/cards.ts): a claim that moves a card
// forward, the mark that Telegram took the edit, and what a card shows now

/** what a card is asked to show */
export interface StoredCard {
  chatId: number;
  messageId: number;
  quoteId: string;
  stage: number;
  text: string;
  keyboard: unknown[];
}

/**
 * claims the card for this content if it moves the card forward: the stage within one
 * confirmation, or a fresh quote taking over a card whose stage is at most takeOverBelow.
 * false: an older or the same stage, nothing to send
 */
export async function claimCard(
  db: Executor,
  card: StoredCard,
  claim: { pending: string; contentHash: string; takeOverBelow: number },
): Promise<boolean> {
  const claimed = await db
    .insert(chatCards)
    .values({
      chatId: card.chatId,
      messageId: card.messageId,
      quoteId: card.quoteId,
      rank: card.stage,
      contentHash: claim.pending,
      text: card.text,
      keyboard: card.keyboard,
    })
    .onConflictDoUpdate({
      target: [chatCards.chatId, chatCards.messageId],
      set: {
        quoteId: card.quoteId,
        rank: card.stage,
        contentHash: claim.pending,
        text: card.text,
        keyboard: card.keyboard,
        updatedAt: new Date(),
      },
      // forward within one confirmation; a fresh quote may take over a card that holds no
      // order (an expired or refused card offers one in one tap). The same stage again only
      // with other content, or the same content not yet shown
      setWhere: sql`(${chatCards.quoteId} = ${card.quoteId} and (${chatCards.rank} < ${card.stage} or (${chatCards.rank} = ${card.stage} and ${chatCards.contentHash} <> ${claim.contentHash}))) or (${chatCards.quoteId} <> ${card.quoteId} and ${chatCards.rank} <= ${claim.takeOverBelow})`,
    })
    .returning({ rank: chatCards.rank });
  return claimed.length > 0;
}

/** marks a claimed card shown, unless another claim replaced it meanwhile */
export async function markCardShown(
  db: Executor,
  card: { chatId: number; messageId: number },
  pending: string,
  contentHash: string,
): Promise<void> {
  await db
    .update(chatCards)
    .set({ contentHash })
    .where(
      and(
        eq(chatCards.chatId, card.chatId),
        eq(chatCards.messageId, card.messageId),
        eq(chatCards.contentHash, pending),
      ),
    );
}

/** what a card shows now (as last claimed) */
export async function shownCard(
  db: Executor,
  card: { chatId: number; messageId: number },
): Promise<{ contentHash: string; text: string; keyboard: unknown } | undefined> {
  const [now] = await db
    .select({
      contentHash: chatCards.contentHash,
      text: chatCards.text,
      keyboard: chatCards.keyboard,
    })
    .from(chatCards)
    .where(and(eq(chatCards.chatId, card.chatId), eq(chatCards.messageId, card.messageId)));
  return now;
}

/**
 * records a quote's card just sent (by the Mini App's checkout), at a stage below every
 * other: the message its Pay moves forward, found again by cardOfQuote
 */
export async function recordCard(
  db: Executor,
  card: Omit<StoredCard, "stage">,
  contentHash: string,
): Promise<void> {
  await db
    .insert(chatCards)
    .values({
      chatId: card.chatId,
      messageId: card.messageId,
      quoteId: card.quoteId,
      rank: 0,
      contentHash,
      text: card.text,
      keyboard: card.keyboard,
    })
    .onConflictDoNothing();
}

/** the message that shows a quote's card in a chat, the newest if several do */
export async function cardOfQuote(
  db: Executor,
  chatId: number,
  quoteId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ messageId: chatCards.messageId })
    .from(chatCards)
    .where(and(eq(chatCards.chatId, chatId), eq(chatCards.quoteId, quoteId)))
    .orderBy(desc(chatCards.messageId))
    .limit(1);
  return row?.messageId;
}

/** every message that shows a quote's card in a chat, oldest first */
export async function cardsOfQuote(
  db: Executor,
  chatId: number,
  quoteId: string,
): Promise<number[]> {
  const rows = await db
    .select({ messageId: chatCards.messageId })
    .from(chatCards)
    .where(and(eq(chatCards.chatId, chatId), eq(chatCards.quoteId, quoteId)))
    .orderBy(asc(chatCards.messageId));
  return rows.map((r) => r.messageId);
}
