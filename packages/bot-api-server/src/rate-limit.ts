import type { Clock } from "@kios/kit";

export interface RateLimitSettings {
  /** messages per second a bot may send in total (Telegram: about 30) */
  perSecondTotal: number;
  /** sustained messages per second into one chat (Telegram: about 1) */
  perSecondPerChat: number;
  /**
   * messages a chat may take at once before the per-chat rate applies. Telegram tolerates short
   * bursts (a reply plus an edit plus a follow-up); 3 keeps ordinary flows free of 429s while a
   * loop that sends 4+ messages to one user at once is still caught.
   */
  burstPerChat: number;
  enabled: boolean;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  perSecondTotal: 30,
  perSecondPerChat: 1,
  burstPerChat: 3,
  enabled: true,
};

type RateDecision = { ok: true } | { ok: false; retryAfter: number };

export interface RateLimiter {
  /** takes one send from both buckets, or says how many whole seconds to wait */
  take(chatId: number): RateDecision;
  configure(settings: Partial<RateLimitSettings>): void;
  settings(): RateLimitSettings;
  reset(): void;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** token buckets per bot: one for all chats, one per chat */
export function createRateLimiter(
  clock: Clock,
  initial: Partial<RateLimitSettings> = {},
): RateLimiter {
  let current: RateLimitSettings = { ...DEFAULT_RATE_LIMITS, ...initial };
  let total: Bucket | undefined;
  const chats = new Map<number, Bucket>();

  const refill = (bucket: Bucket | undefined, capacity: number, rate: number, now: number) => {
    const b = bucket ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + (Math.max(0, now - b.at) / 1000) * rate);
    b.at = now;
    return b;
  };
  // whole seconds until a bucket holds one token, at least 1 like Telegram's retry_after
  const wait = (b: Bucket, rate: number) => Math.max(1, Math.ceil((1 - b.tokens) / rate));

  return {
    take(chatId) {
      if (!current.enabled) return { ok: true };
      const now = clock.now();
      total = refill(total, current.perSecondTotal, current.perSecondTotal, now);
      const chat = refill(chats.get(chatId), current.burstPerChat, current.perSecondPerChat, now);
      chats.set(chatId, chat);
      if (total.tokens < 1 || chat.tokens < 1) {
        const retryAfter = Math.max(
          total.tokens < 1 ? wait(total, current.perSecondTotal) : 1,
          chat.tokens < 1 ? wait(chat, current.perSecondPerChat) : 1,
        );
        return { ok: false, retryAfter };
      }
      total.tokens -= 1;
      chat.tokens -= 1;
      return { ok: true };
    },
    configure(settings) {
      current = { ...current, ...settings };
      total = undefined;
      chats.clear();
    },
    settings: () => ({ ...current }),
    reset() {
      total = undefined;
      chats.clear();
    },
  };
}
