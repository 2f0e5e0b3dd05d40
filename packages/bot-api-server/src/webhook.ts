import type { Update } from "@grammyjs/types";
import type { Logger } from "pino";
import type { BotState, WebhookConfig } from "./state.ts";

export interface WebhookRetry {
  /** wait after the first failed delivery */
  initialDelayMs: number;
  /** the wait doubles per failure up to this */
  maxDelayMs: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetry = { initialDelayMs: 1000, maxDelayMs: 60_000 };

export interface WebhookDeliverer {
  /** (re)starts pushing the bot's queue to its webhook */
  start(bot: BotState): void;
  stop(bot: BotState): void;
  stopAll(): void;
}

export interface WebhookDeps {
  fetch: typeof fetch;
  logger: Logger;
  nowSeconds(): number;
  retry: WebhookRetry;
  /** how long the bot's server may take to answer one update */
  timeoutMs: number;
  /** runs a method call the webhook answered with (Telegram's "reply in the webhook response") */
  reply(bot: BotState, payload: Record<string, unknown>): Promise<void>;
}

type Outcome = { ok: true; reply?: Record<string, unknown> } | { ok: false; error: string };

function describeFailure(err: unknown, timedOut: boolean): string {
  if (timedOut) return "Read timeout expired";
  const cause = (err as { cause?: { code?: string } })?.cause;
  if (cause?.code === "ECONNREFUSED") return "Connection refused";
  if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN") return "Failed to resolve host";
  return `Connection error: ${(err as Error)?.message ?? String(err)}`;
}

async function readReply(res: Response): Promise<Record<string, unknown> | undefined> {
  const text = await res.text().catch(() => "");
  if (!/json/i.test(res.headers.get("content-type") ?? "") || text.trim() === "") return undefined;
  try {
    const body: unknown = JSON.parse(text);
    if (
      body &&
      typeof body === "object" &&
      typeof (body as { method?: unknown }).method === "string"
    )
      return body as Record<string, unknown>;
  } catch {
    // a non-JSON answer is just an acknowledgement
  }
  return undefined;
}

/** pushes each bot's updates to its webhook one at a time, in order, retrying with backoff */
export function createWebhookDeliverer(deps: WebhookDeps): WebhookDeliverer {
  const log = deps.logger.child({ component: "bot-api-webhook" });
  const loops = new Map<BotState, AbortController>();

  async function deliver(
    hook: WebhookConfig,
    update: Update,
    signal: AbortSignal,
  ): Promise<Outcome> {
    const timeout = AbortSignal.timeout(deps.timeoutMs);
    try {
      const res = await deps.fetch(hook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(hook.secretToken ? { "X-Telegram-Bot-Api-Secret-Token": hook.secretToken } : {}),
        },
        body: JSON.stringify(update),
        signal: AbortSignal.any([signal, timeout]),
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        return {
          ok: false,
          error: `Wrong response from the webhook: ${res.status} ${res.statusText}`.trim(),
        };
      }
      const reply = await readReply(res);
      return reply ? { ok: true, reply } : { ok: true };
    } catch (err) {
      return { ok: false, error: describeFailure(err, timeout.aborted) };
    }
  }

  function sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      }
    });
  }

  async function run(bot: BotState, signal: AbortSignal): Promise<void> {
    let delay = deps.retry.initialDelayMs;
    while (!signal.aborted) {
      const hook = bot.webhook;
      if (!hook) return;
      const update = bot.queue.peek(1)[0];
      if (!update) {
        await bot.queue.notifier.wait(60_000, signal);
        continue;
      }
      const outcome = await deliver(hook, update, signal);
      if (signal.aborted) return;
      if (outcome.ok) {
        // drop_pending_updates or a reset may have emptied the queue meanwhile
        if (bot.queue.peek(1)[0] === update) bot.queue.shift();
        delay = deps.retry.initialDelayMs;
        if (outcome.reply) {
          await deps.reply(bot, outcome.reply).catch((err: unknown) => {
            log.warn({ err, bot: bot.config.username }, "webhook reply failed");
          });
        }
        continue;
      }
      // one warning per kind of failure; the retries of the same failure are debug noise
      const level = hook.lastErrorMessage === outcome.error ? "debug" : "warn";
      hook.lastErrorDate = deps.nowSeconds();
      hook.lastErrorMessage = outcome.error;
      log[level](
        {
          bot: bot.config.username,
          update_id: update.update_id,
          error: outcome.error,
          retryInMs: delay,
        },
        "webhook delivery failed",
      );
      await sleep(delay, signal);
      delay = Math.min(deps.retry.maxDelayMs, delay * 2);
    }
  }

  const stop = (bot: BotState) => {
    loops.get(bot)?.abort();
    loops.delete(bot);
  };

  return {
    start(bot) {
      stop(bot);
      const control = new AbortController();
      loops.set(bot, control);
      void run(bot, control.signal).catch((err: unknown) => {
        log.error({ err, bot: bot.config.username }, "webhook loop crashed");
      });
    },
    stop,
    stopAll() {
      for (const bot of [...loops.keys()]) stop(bot);
    },
  };
}
