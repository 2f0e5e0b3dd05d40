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
      // the chat's own slot first, reserved synchronously so its next message queues behind
      // this one; the bot's global slot only once the chat may send. Taken together (one
      // slot, the later of the two), a chat waiting out its second pushed the global slot a
      // second ahead, and every other chat's message waited behind it
      const t = now();
      const chatAt = Math.max(t, nextForChat.get(chatId) ?? 0);
      nextForChat.set(chatId, chatAt + chatGap);
      if (nextForChat.size > 10_000) {
        for (const [id, until] of nextForChat) if (until < t) nextForChat.delete(id);
      }
      if (chatAt > t) await sleep(chatAt - t);
      const ready = now();
      const at = Math.max(ready, nextGlobal);
      nextGlobal = at + globalGap;
      // sent later than its chat's slot (the bot's rate): the chat's next a full gap after
      nextForChat.set(chatId, Math.max(nextForChat.get(chatId) ?? 0, at + chatGap));
      if (at > ready) await sleep(at - ready);
    },
  };
}
