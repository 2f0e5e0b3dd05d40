import { createHash, timingSafeEqual } from "node:crypto";
import { lt } from "drizzle-orm";
import type { Update } from "grammy/types";
import { Hono } from "hono";
import type { Database } from "../db/client.ts";
import { telegramUpdates } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { AppEnv } from "../server/app.ts";
import type { KiosBot } from "./context.ts";

export const SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";

/** updates being handled after their 200 went out; drained on shutdown */
export class UpdateTracker {
  readonly #inflight = new Set<Promise<void>>();

  track(work: Promise<void>): void {
    this.#inflight.add(work);
    void work.finally(() => this.#inflight.delete(work));
  }

  get size(): number {
    return this.#inflight.size;
  }

  async drain(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }
}

export interface WebhookRouteOptions {
  bot: KiosBot;
  /** WEBHOOK_SECRET: Telegram sends it back in X-Telegram-Bot-Api-Secret-Token */
  secret: string;
  /** the last path segment: POST /telegram/<path> */
  path: string;
  db: Database;
  logger?: Logger;
  /** where the background handling of accepted updates is tracked (for a clean shutdown) */
  tracker?: UpdateTracker;
}

// compares digests, so neither the length nor the content of the secret leaks through timing
function sameSecret(given: string | undefined, secret: string): boolean {
  const a = createHash("sha256")
    .update(given ?? "")
    .digest();
  const b = createHash("sha256").update(secret).digest();
  return timingSafeEqual(a, b) && given !== undefined;
}

function isUpdate(body: unknown): body is Update {
  return (
    typeof body === "object" &&
    body !== null &&
    Number.isSafeInteger((body as { update_id?: unknown }).update_id)
  );
}

/**
 * POST /telegram/<path>: checks the secret token, records the update_id (a delivery seen
 * before, by this or another instance, is acknowledged and skipped), answers 200 at once
 * and handles the update in the background, so Telegram never waits on a supplier call.
 */
export function createTelegramWebhookRoute(options: WebhookRouteOptions): Hono<AppEnv> {
  const { bot, db } = options;
  const tracker = options.tracker ?? new UpdateTracker();
  const log = options.logger?.child({ component: "webhook" });
  const app = new Hono<AppEnv>();

  app.post(`/telegram/${options.path}`, async (c) => {
    if (!sameSecret(c.req.header(SECRET_HEADER), options.secret)) {
      return c.json({ error: "unauthorized" }, 401);
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: "bad_request" }, 400);
    }
    if (!isUpdate(body)) return c.json({ error: "bad_request" }, 400);

    const fresh = await db
      .insert(telegramUpdates)
      .values({ updateId: body.update_id })
      .onConflictDoNothing()
      .returning({ id: telegramUpdates.updateId });
    if (fresh.length === 0) {
      log?.debug({ updateId: body.update_id }, "duplicate update skipped");
      return c.json({ ok: true });
    }

    const update = body;
    tracker.track(
      (async () => {
        try {
          await bot.init();
          await bot.handleUpdate(update);
        } catch (err) {
          log?.error({ err, updateId: update.update_id }, "webhook update failed");
        }
      })(),
    );
    return c.json({ ok: true });
  });

  return app;
}

/** points Telegram at this instance: the URL and the secret it must send back */
export async function setTelegramWebhook(
  bot: KiosBot,
  options: { url: string; secret: string },
): Promise<void> {
  await bot.api.setWebhook(options.url, {
    secret_token: options.secret,
    allowed_updates: ["message", "edited_message", "callback_query", "my_chat_member"],
  });
}

/** forgets update ids older than `before` (Telegram never redelivers after a day) */
export async function pruneTelegramUpdates(db: Database, before: Date): Promise<number> {
  const rows = await db
    .delete(telegramUpdates)
    .where(lt(telegramUpdates.receivedAt, before))
    .returning({ id: telegramUpdates.updateId });
  return rows.length;
}
