import type { Update } from "grammy/types";
import type { User } from "../../commerce/users.ts";

// what the inbox read together with an update when it claimed it: the sender's user row
// and the chat's flow state. The bot's first two reads of every update (attachDeps and the
// conversations' storage) take them from here instead of asking the database again.
// Keyed by the update object, which grammY hands on as ctx.update.

export interface Preloaded {
  /** the chat the state below is of */
  chatId: number;
  /** the sender's row; null when they have none yet */
  user: User | null;
  /** the chat's flow state row; null when it has none */
  state: { value: unknown; revision: number } | null;
  /**
   * the inbox claim the update runs under: the chat's state is written only while the claim
   * is still this worker's, and records the update it came from
   */
  claim?: { botId: number; updateId: number; worker: string };
  /**
   * set by the inbox when the chat's state write is to ride with the update's finish: the
   * conversations' storage leaves its write here instead of sending it (chat-state.ts), and
   * the drain writes it in the statement that marks the update handled (finishWithState)
   */
  stateSink?: { write?: PendingStateWrite };
}

/** a chat state write held for the update's finish */
export interface PendingStateWrite {
  key: string;
  /** the state, as JSON text */
  json: string;
  /** the revision it was read at (0: no row): it is written only over that one */
  revision: number;
}

const preloaded = new WeakMap<Update, Preloaded>();

export function preload(update: Update, rows: Preloaded): void {
  preloaded.set(update, rows);
}

export function preloadedFor(update: Update): Preloaded | undefined {
  return preloaded.get(update);
}
