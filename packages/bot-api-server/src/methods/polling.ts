import type { Update, WebhookInfo } from "@grammyjs/types";
import { badRequest, conflict, DESCRIPTIONS } from "../errors.ts";
import { waitUntil } from "../notifier.ts";
import { optBool, optInt, optJson, optString, type Params } from "../params.ts";
import type { UpdateType } from "../updates.ts";
import { Described, type MethodContext, type MethodTable } from "./context.ts";

// the longest getUpdates wait we honour, in seconds
const MAX_POLL_TIMEOUT = 50;
const CONFLICT = "conflict";

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

function allowedUpdates(params: Params): UpdateType[] | undefined {
  const raw = optJson(params, "allowed_updates", "allowed updates");
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw) || !raw.every((t) => typeof t === "string"))
    throw badRequest("can't parse allowed updates JSON object");
  return raw as UpdateType[];
}

async function getUpdates(ctx: MethodContext): Promise<Update[]> {
  const { bot, params } = ctx;
  if (bot.webhook) throw conflict(DESCRIPTIONS.webhookActive);
  const offset = optInt(params, "offset") ?? 0;
  const limit = clamp(optInt(params, "limit") ?? 100, 1, 100);
  const timeout = clamp(optInt(params, "timeout") ?? 0, 0, MAX_POLL_TIMEOUT);
  const allowed = allowedUpdates(params);
  // "if not specified, the previous setting will be used"
  if (allowed !== undefined) bot.queue.setAllowed(allowed);

  // only one getUpdates at a time: a new one ends the pending one with 409, as in Telegram
  bot.poll?.abort(CONFLICT);
  const poll = new AbortController();
  bot.poll = poll;
  bot.queue.confirm(offset);
  try {
    await waitUntil(
      () => bot.queue.notifier,
      () => bot.queue.size() > 0 || bot.webhook !== undefined,
      timeout * 1000,
      AbortSignal.any([ctx.signal, poll.signal]),
    );
  } finally {
    if (bot.poll === poll) bot.poll = undefined;
  }
  if (poll.signal.aborted && poll.signal.reason === CONFLICT)
    throw conflict(DESCRIPTIONS.otherGetUpdates);
  if (bot.webhook) throw conflict(DESCRIPTIONS.webhookActive);
  return bot.queue.peek(limit);
}

function setWebhook(ctx: MethodContext) {
  const { bot, params, webhooks } = ctx;
  const url = optString(params, "url") ?? "";
  if (url === "") return deleteWebhook(ctx);

  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest("bad webhook: invalid URL specified");
  }
  // deviation: http is allowed, since the bot runs on this machine without TLS
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw badRequest("bad webhook: An HTTPS URL must be provided for webhook");
  const secret = optString(params, "secret_token");
  if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
    throw badRequest("secret token contains unallowed characters");
  const maxConnections = clamp(optInt(params, "max_connections") ?? 40, 1, 100);
  const allowed = allowedUpdates(params);
  const ipAddress = optString(params, "ip_address");

  if (optBool(params, "drop_pending_updates")) bot.queue.clear();
  if (allowed !== undefined) bot.queue.setAllowed(allowed);
  const unchanged = bot.webhook?.url === url && bot.webhook.secretToken === secret;
  bot.webhook = {
    url,
    maxConnections,
    secretToken: secret,
    ipAddress,
  };
  webhooks.start(bot);
  // a pending getUpdates learns that it lost to the webhook
  bot.queue.notifier.notify();
  return new Described(true, unchanged ? "Webhook is already set" : "Webhook was set");
}

function deleteWebhook(ctx: MethodContext) {
  const { bot, params, webhooks } = ctx;
  if (optBool(params, "drop_pending_updates")) bot.queue.clear();
  if (!bot.webhook) return new Described(true, "Webhook is already deleted");
  bot.webhook = undefined;
  webhooks.stop(bot);
  return new Described(true, "Webhook was deleted");
}

function getWebhookInfo(ctx: MethodContext): WebhookInfo {
  const { bot } = ctx;
  const hook = bot.webhook;
  const allowed = bot.queue.allowed();
  return {
    url: hook?.url ?? "",
    has_custom_certificate: false,
    pending_update_count: bot.queue.size(),
    ip_address: hook?.ipAddress,
    last_error_date: hook?.lastErrorDate,
    last_error_message: hook?.lastErrorMessage,
    max_connections: hook?.maxConnections,
    ...(allowed !== undefined && allowed.length > 0 ? { allowed_updates: allowed } : {}),
  };
}

export const pollingMethods: MethodTable = {
  getupdates: getUpdates,
  setwebhook: setWebhook,
  deletewebhook: deleteWebhook,
  getwebhookinfo: getWebhookInfo,
};
