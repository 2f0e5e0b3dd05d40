import { createNotifier } from "./notifier.ts";
import type { InlineState } from "./state.ts";

// a bot's inline queries and the answers its users' clients keep (cache_time, is_personal)

export function createInlineState(): InlineState {
  return { queries: new Map(), cache: new Map(), notifier: createNotifier() };
}

/** an answer is kept for the words and the page, and for its user when personal */
export function cacheKey(query: string, offset: string, userId?: number): string {
  return JSON.stringify([query, offset, userId ?? null]);
}
