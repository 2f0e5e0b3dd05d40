import { readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { type Clock, listen, systemClock } from "@kios/kit";
import { Hono } from "hono";
import { type Logger, pino } from "pino";
import { type Control, createControl } from "./control.ts";
import { controlRoutes } from "./control-http.ts";
import { type BotApiDeps, botApiRoutes, callMethod } from "./http.ts";
import { METHODS } from "./methods/index.ts";
import { paramsOf } from "./params.ts";
import type { RateLimitSettings } from "./rate-limit.ts";
import type { BotConfig } from "./state.ts";
import type { UploadLimits } from "./upload-limits.ts";
import { createWebhookDeliverer, DEFAULT_WEBHOOK_RETRY, type WebhookRetry } from "./webhook.ts";
import { createWorld } from "./world.ts";

export interface BotDefinition {
  token: string;
  /** defaults to the number before the token's colon, as in real tokens */
  id?: number;
  username: string;
  firstName: string;
  /**
   * the last update_id this bot has given out (default 0): a server started again on stored
   * data continues after it, as Telegram does, so the bot never sees an id twice
   */
  lastUpdateId?: number;
  /** inline mode is on, as /setinline does with BotFather (default false; DEFAULT_BOT: true) */
  inline?: boolean;
  /** the input's hint while typing an inline query (BotFather's placeholder); default "Search..." */
  inlinePlaceholder?: string;
  /** chosen_inline_result updates, as /setinlinefeedback does (default: when inline is on) */
  inlineFeedback?: boolean;
}

export interface BotApiServerOptions {
  /** default: one bot, DEFAULT_BOT */
  bots?: BotDefinition[];
  rateLimits?: Partial<RateLimitSettings>;
  /** what one upload may weigh; default Telegram's (TELEGRAM_UPLOAD_LIMITS) */
  uploadLimits?: Partial<UploadLimits>;
  clock?: Clock;
  logger?: Logger;
  /** how webhook deliveries are made; default: global fetch */
  webhookFetch?: typeof fetch;
  webhookRetry?: Partial<WebhookRetry>;
  /** how long a webhook may take to answer one update; default 10 s */
  webhookTimeoutMs?: number;
}

export interface BotApiServer extends Control {
  /** the Bot API (/bot<token>/<method>, /file/bot<token>/<path>) and the control API (/control/…) */
  readonly app: Hono;
  readonly bots: readonly Required<BotDefinition>[];
  /** stops webhook loops and wakes every long poll */
  dispose(): void;
}

export interface RunningBotApiServer extends BotApiServer {
  /** grammY's `client.apiRoot`, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export const DEFAULT_BOT: Readonly<Required<BotDefinition>> = Object.freeze({
  token: "7000000001:PLAYGROUND-kios-local-bot-token-00000",
  id: 7000000001,
  username: "kios_playground_bot",
  firstName: "Kios",
  lastUpdateId: 0,
  inline: true,
  inlinePlaceholder: "Search...",
  inlineFeedback: true,
});

const WEB_APP_SCRIPT = new URL("../page/telegram-web-app.js", import.meta.url);

/** a sink for the default silent logger, so no server pipes into stdout */
function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

function botConfig(def: BotDefinition): BotConfig {
  const fromToken = Number(def.token.split(":")[0]);
  const id = def.id ?? fromToken;
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new Error(`bot ${def.username}: no id in its token`);
  const lastUpdateId = def.lastUpdateId ?? 0;
  if (!Number.isSafeInteger(lastUpdateId) || lastUpdateId < 0)
    throw new Error(`bot ${def.username}: lastUpdateId must be a whole number, 0 or more`);
  return {
    token: def.token,
    id,
    username: def.username.replace(/^@/, ""),
    firstName: def.firstName,
    lastUpdateId,
    inline: def.inline ?? false,
    inlinePlaceholder: def.inlinePlaceholder ?? "Search...",
    inlineFeedback: def.inlineFeedback ?? def.inline ?? false,
  };
}

/** a local Telegram Bot API server with a control API to act as users; not listening */
export function createBotApiServer(options: BotApiServerOptions = {}): BotApiServer {
  const configs = (options.bots ?? [DEFAULT_BOT]).map(botConfig);
  if (configs.length === 0) throw new Error("at least one bot is required");
  const logger = options.logger ?? pino({ level: "silent" }, discard());
  const clock = options.clock ?? systemClock;
  const world = createWorld({
    bots: configs,
    clock,
    logger,
    rateLimits: options.rateLimits,
    uploadLimits: options.uploadLimits,
  });

  // webhook replies run through the same dispatcher as HTTP calls; deps is filled in below
  const deps: BotApiDeps = {
    world,
    methods: METHODS,
    logger,
    webhooks: createWebhookDeliverer({
      fetch: options.webhookFetch ?? fetch,
      logger,
      nowSeconds: () => world.nowSeconds(),
      retry: { ...DEFAULT_WEBHOOK_RETRY, ...options.webhookRetry },
      timeoutMs: options.webhookTimeoutMs ?? 10_000,
      async reply(bot, payload) {
        const { method, ...params } = payload;
        const result = await callMethod(
          deps,
          bot,
          String(method),
          paramsOf(params),
          new AbortController().signal,
        );
        if (!result.body.ok)
          logger.warn({ method, error: result.body.description }, "webhook reply method failed");
      },
    }),
  };

  const control = createControl(world);
  const app = new Hono();
  app.route("/control", controlRoutes(control, world));
  // Telegram's Mini App script, as telegram.org serves it: any app, from any origin, includes it
  for (const path of ["/telegram-web-app.js", "/js/telegram-web-app.js"]) {
    app.get(path, async () => {
      return new Response(await readFile(WEB_APP_SCRIPT), {
        headers: {
          "content-type": "text/javascript; charset=utf-8",
          "cache-control": "no-cache",
          "access-control-allow-origin": "*",
          "cross-origin-resource-policy": "cross-origin",
          "x-content-type-options": "nosniff",
        },
      });
    });
  }
  app.route("/", botApiRoutes(deps));
  app.notFound((c) => c.json({ ok: false, error_code: 404, description: "Not Found" }, 404));

  return {
    ...control,
    app,
    bots: configs.map((c) => ({ ...c })),
    dispose() {
      deps.webhooks.stopAll();
      world.shutdown();
    },
  };
}

/** createBotApiServer, listening (port 0 picks a free one; default host 127.0.0.1) */
export async function startBotApiServer(
  options: BotApiServerOptions & { port?: number; hostname?: string } = {},
): Promise<RunningBotApiServer> {
  const server = createBotApiServer(options);
  const hostname = options.hostname ?? "127.0.0.1";
  const running = await listen(server.app, options.port ?? 0, hostname, {
    keepIdleConnections: true,
  });
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    ...server,
    url: `http://${host}:${running.port}`,
    port: running.port,
    async close() {
      server.dispose();
      await running.close();
    },
  };
}
