// keeps a sender under Telegram's limits: about 30 messages a second in all and one a
// second to any one chat. A 429 that slips through is still handled by auto-retry.

export interface SendLimiter {
  /** resolves when a message to this chat may go out */
  wait(chatId: number): Promise<void>;
}

export interface SendLimits {
  perSecond: number;
  perChatPerSecond: number;
}

const TELEGRAM_LIMITS: SendLimits = { perSecond: 30, perChatPerSecond: 1 };

export function createSendLimiter(
  limits: SendLimits = TELEGRAM_LIMITS,
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): SendLimiter {
  const globalGap = 1000 / limits.perSecond;
  const chatGap = 1000 / limits.perChatPerSecond;
  let nextGlobal = 0;
  const nextForChat = new Map<number, number>();

  return {
    async wait(chatId) {
      // reserve a slot synchronously, so concurrent callers queue instead of colliding
      const t = now();
      const at = Math.max(t, nextGlobal, nextForChat.get(chatId) ?? 0);
      nextGlobal = at + globalGap;
      nextForChat.set(chatId, at + chatGap);
      if (nextForChat.size > 10_000) {
        for (const [id, until] of nextForChat) if (until < t) nextForChat.delete(id);
      }
      if (at > t) await sleep(at - t);
    },
  };
}
