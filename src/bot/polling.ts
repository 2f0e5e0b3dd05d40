import { type RunnerHandle, run } from "@grammyjs/runner";
import type { KiosBot } from "./context.ts";

export interface Polling {
  /** resolves once the runner has stopped and in-flight updates are done */
  stop(): Promise<void>;
  isRunning(): boolean;
}

/**
 * long polling with the grammY runner: updates are handled concurrently across chats and
 * in order within one chat (the bot installs sequentialize per chat).
 */
export async function startPolling(bot: KiosBot, options: { timeoutSeconds?: number } = {}) {
  await bot.init();
  // a webhook left set makes getUpdates fail with 409
  await bot.api.deleteWebhook();
  const runner: RunnerHandle = run(bot, {
    runner: {
      fetch: {
        timeout: options.timeoutSeconds ?? 30,
        allowed_updates: ["message", "edited_message", "callback_query", "my_chat_member"],
      },
      silent: true,
    },
  });
  const polling: Polling = {
    async stop() {
      if (runner.isRunning()) await runner.stop();
    },
    isRunning: () => runner.isRunning(),
  };
  return polling;
}
