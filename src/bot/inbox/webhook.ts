import { createHash, timingSafeEqual } from "node:crypto";
import type { Update } from "grammy/types";
import { Hono } from "hono";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { jsonBody } from "../../server/body.ts";
import type { AppEnv } from "../../server/create-server.ts";
import type { KiosBot } from "../context.ts";
import type { InboxDrain } from "./drain.ts";
import { ALLOWED_UPDATES } from "./poller.ts";
import { createStoreCommits } from "./store-commits.ts";

export const SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token";

export interface WebhookRouteOptions {
  /** WEBHOOK_SECRET: Telegram sends it back in X-Telegram-Bot-Api-Secret-Token */
  secret: string;
  /** the last path segment: POST /telegram/<path> */
  path: string;
  /** the bot the updates come to: update_ids count per bot */
  botId: number;
  db: Database;
  logger?: Logger;
  /**
   * this process's own inbox drain (role "all"): an update is stored already claimed for it
   * when its chat is free, and handled here at once
   */
  inbox?: Pick<InboxDrain, "intake" | "adopt"> | undefined;
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
 * POST /telegram/<path>: checks the secret token, stores the update in the inbox and answers
 * 200 once the insert has committed; a worker handles it from there. Until then Telegram
 * holds the update and sends it again, so no update is acknowledged before it is durable.
 * A delivery seen before (by this or another instance) is acknowledged and ignored.
 * Deliveries that arrive while a store is in flight are stored together in the next
 * statement (createStoreCommits), each answered once that statement has committed.
 *
 * With a drain in the same process the update is stored and claimed in one statement (the
 * shortest durable path): no NOTIFY, no wake-up and no claim of its own stand between the
 * 200 and the handler. The claim is the drain's like any other, so a crash of this process
 * leaves the update to the other workers, and what it writes is fenced by that claim.
 */
export function createTelegramWebhookRoute(options: WebhookRouteOptions): Hono<AppEnv> {
  const log = options.logger?.child({ component: "webhook" });
  const app = new Hono<AppEnv>();
  const commits = createStoreCommits({
    db: options.db,
    botId: options.botId,
    logger: options.logger,
    inbox: options.inbox,
  });

  app.post(`/telegram/${options.path}`, async (c) => {
    if (!sameSecret(c.req.header(SECRET_HEADER), options.secret)) {
      return c.json({ error: "unauthorized" }, 401);
    }
    let body: unknown;
    try {
      body = await jsonBody(c);
    } catch {
      return c.json({ error: "bad_request" }, 400);
    }
    if (!isUpdate(body)) return c.json({ error: "bad_request" }, 400);
    const fresh = await commits.store(body);
    if (!fresh) log?.debug({ updateId: body.update_id }, "duplicate update ignored");
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
    allowed_updates: [...ALLOWED_UPDATES],
  });
}
