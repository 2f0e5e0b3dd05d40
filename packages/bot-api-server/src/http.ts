import type { ApiError } from "@grammyjs/types";
import { Hono } from "hono";
import type { Logger } from "pino";
import { BotApiError, notFound, unauthorized } from "./errors.ts";
import { Described, type MethodTable } from "./methods/context.ts";
import { type Params, readParams } from "./params.ts";
import type { BotState } from "./state.ts";
import { maxRequestBytes } from "./upload-limits.ts";
import type { WebhookDeliverer } from "./webhook.ts";
import type { World } from "./world.ts";

// /bot<token>/<method> and /file/bot<token>/<path>, as on api.telegram.org
const METHOD_PATH = /^\/bot([^/]*)\/([^/]*)$/;
const FILE_PATH = /^\/file\/bot([^/]*)\/(.+)$/;
const WELL_FORMED_TOKEN = /^\d+:[A-Za-z0-9_-]+$/;

export interface BotApiDeps {
  world: World;
  methods: MethodTable;
  webhooks: WebhookDeliverer;
  logger: Logger;
}

export interface CallResult {
  status: number;
  body: { ok: true; result: unknown; description?: string } | ApiError;
}

function failure(err: BotApiError): CallResult {
  return {
    status: err.code,
    body: {
      ok: false,
      error_code: err.code,
      description: err.description,
      parameters: err.parameters,
    },
  };
}

/** runs one method for a bot; shared by HTTP calls and webhook replies */
export async function callMethod(
  deps: BotApiDeps,
  bot: BotState,
  method: string,
  params: Params,
  signal: AbortSignal,
): Promise<CallResult> {
  const handler = deps.methods[method.toLowerCase()];
  if (!handler) return failure(notFound("method not found"));
  try {
    const out = await handler({ world: deps.world, bot, params, webhooks: deps.webhooks, signal });
    if (out instanceof Described)
      return { status: 200, body: { ok: true, result: out.result, description: out.description } };
    return { status: 200, body: { ok: true, result: out } };
  } catch (err) {
    if (err instanceof BotApiError) return failure(err);
    deps.logger.error({ err, method }, "bot api method failed");
    return failure(new BotApiError(500, "Internal Server Error: the playground Bot API failed"));
  }
}

function json(result: CallResult): Response {
  return new Response(JSON.stringify(result.body), {
    status: result.status,
    headers: { "content-type": "application/json" },
  });
}

/** the Bot API over HTTP: method calls and file downloads */
export function botApiRoutes(deps: BotApiDeps): Hono {
  const app = new Hono();
  const log = deps.logger.child({ component: "bot-api" });

  app.on(["GET", "POST"], "*", async (c, next) => {
    const path = c.req.path;
    const call = METHOD_PATH.exec(path);
    if (call) {
      const [, token = "", method = ""] = call;
      if (!WELL_FORMED_TOKEN.test(token)) return json(failure(notFound()));
      const bot = deps.world.botByToken(token);
      if (!bot) return json(failure(unauthorized()));
      let params: Params;
      try {
        params = await readParams(c.req.raw, maxRequestBytes(deps.world.uploadLimits));
      } catch (err) {
        if (err instanceof BotApiError) return json(failure(err));
        throw err;
      }
      const result = await callMethod(deps, bot, method, params, c.req.raw.signal);
      log.debug(
        { bot: bot.config.username, method, status: result.status },
        result.body.ok ? "method ok" : `method failed: ${result.body.description}`,
      );
      return json(result);
    }

    const download = FILE_PATH.exec(path);
    if (download && c.req.method === "GET") {
      const [, token = "", filePath = ""] = download;
      if (!deps.world.botByToken(token)) return json(failure(unauthorized()));
      const file = deps.world.files.byPath(decodeURIComponent(filePath));
      if (!file) return json(failure(notFound()));
      if (file.url && !file.data) return c.redirect(file.url, 302);
      return new Response(file.data ? Buffer.from(file.data) : "", {
        headers: { "content-type": file.mime_type ?? "application/octet-stream" },
      });
    }
    return next();
  });

  return app;
}
