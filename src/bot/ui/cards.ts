import { createHash } from "node:crypto";
import type { Api, InlineKeyboard } from "grammy";
import type { Database } from "../../db/client.ts";
import {
  cardOfQuote,
  cardsOfQuote,
  claimCard,
  markCardShown,
  recordCard,
  shownCard,
} from "../storage/cards.ts";
import { type EditResult, editMessage } from "./edit.ts";

// a purchase's card (the message that goes quote → ⏳ → ✅/❌) only moves forward, whoever
// edits it: the Pay handler, a redelivered tap, the notifier, in this process or another.
// Each edit says the stage it shows; the database keeps the stage each card shows, and an
// edit for an older stage (or for exactly what is shown) is not sent. Edits that race
// over the network are put right afterwards: whoever finishes checks that the card shows
// the newest stage and edits it again if not.

/** how far along a card is; a higher stage replaces a lower one, never the reverse */
export const STAGE = {
  /** being paid, or a refusal the buyer can act on (short balance, expired, …) */
  paying: 1,
  /** the buyer cancelled the card before any order was made */
  cancelled: 2,
  /** the order is stored and open */
  open: 3,
  /** the order's result */
  final: 4,
} as const;

export interface Card {
  chatId: number;
  messageId: number;
  /** the confirmation the card is about */
  quoteId: string;
  stage: number;
  text: string;
  keyboard?: InlineKeyboard | undefined;
}

/** marks a claimed card whose edit Telegram has not taken yet */
const PENDING = "pending:";

const hashOf = (text: string, keyboard: unknown) =>
  createHash("sha256")
    .update(text)
    .update("\0")
    .update(JSON.stringify(keyboard ?? []))
    .digest("hex");

// edits of one card from this process go one at a time (another process is put right by
// the check after each edit)
const inFlight = new Map<string, Promise<unknown>>();

function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = inFlight.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => {});
  inFlight.set(key, settled);
  void settled.then(() => {
    if (inFlight.get(key) === settled) inFlight.delete(key);
  });
  return next;
}

/**
 * shows a card if it moves the card forward: "edited", "unchanged" (an older or the same
 * stage), or "gone" (the message can't be edited; the caller sends the text anew)
 */
export function showCard(deps: { api: Api; db: Database }, card: Card): Promise<EditResult> {
  return oneAtATime(`${card.chatId}:${card.messageId}`, () => show(deps, card));
}

async function show(deps: { api: Api; db: Database }, card: Card): Promise<EditResult> {
  const keyboard = card.keyboard?.inline_keyboard ?? [];
  const contentHash = hashOf(card.text, keyboard);
  // claimed first (so an older stage racing it is not sent), marked shown once Telegram
  // took the edit: a claim whose edit never happened (a crash, a transport error) is sent
  // again by the next attempt instead of being taken as shown
  const pending = `${PENDING}${contentHash}`;
  const claimed = await claimCard(
    deps.db,
    { ...card, keyboard },
    { pending, contentHash, takeOverBelow: STAGE.paying },
  );
  if (!claimed) return "unchanged";
  const result = await editMessage(deps.api, {
    chatId: card.chatId,
    messageId: card.messageId,
    text: card.text,
    keyboard: card.keyboard,
  });
  if (result === "gone") return result;
  await markCardShown(deps.db, card, pending, contentHash);
  await putRight(deps, card, contentHash);
  return result;
}

/** another process may have shown a newer stage before this edit landed: show it again */
async function putRight(deps: { api: Api; db: Database }, card: Card, sent: string) {
  const now = await shownCard(deps.db, card);
  if (!now || now.contentHash === sent || now.contentHash === `${PENDING}${sent}`) return;
  await editMessage(deps.api, {
    chatId: card.chatId,
    messageId: card.messageId,
    text: now.text,
    keyboard: { inline_keyboard: (now.keyboard ?? []) as InlineKeyboard["inline_keyboard"] },
  });
}

/**
 * a quote's card sent as a new message outside a flow (the Mini App's checkout): recorded
 * below every stage, so the stages of its Pay move it forward and cardMessage finds it
 */
export async function recordSentCard(db: Database, card: Omit<Card, "stage">): Promise<void> {
  const keyboard = card.keyboard?.inline_keyboard ?? [];
  await recordCard(db, { ...card, keyboard }, hashOf(card.text, keyboard));
}

/** the message that shows a quote's card in a chat, if a recorded one does */
export function cardMessage(
  db: Database,
  chat: { chatId: number; quoteId: string },
): Promise<number | undefined> {
  return cardOfQuote(db, chat.chatId, chat.quoteId);
}

/**
 * every message in a chat that shows a quote's card: the one its Pay was pressed on, and any
 * other card whose Pay was answered with that same order (a bill's second card shows the
 * payment already under way). A stage of the order moves them all.
 */
export function cardMessages(
  db: Database,
  chat: { chatId: number; quoteId: string },
): Promise<number[]> {
  return cardsOfQuote(db, chat.chatId, chat.quoteId);
}
