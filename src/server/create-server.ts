import { Hono, type MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { Logger } from "../logger.ts";
import { bodyWithin } from "./body.ts";

export interface HealthReport {
  ok: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

export type AppEnv = { Variables: { requestId: string } };

export interface ServerDeps {
  logger: Logger;
  health: () => Promise<HealthReport>;
  /** routes of later features, mounted at the root */
  routes?: Hono<AppEnv>[];
  /** largest request body accepted, in bytes */
  maxBodyBytes?: number;
  /**
   * paths whose routes take larger bodies and check them themselves (the playground's Bot
   * API server takes uploads as Telegram does): the first that matches sets the limit
   */
  bodyLimits?: readonly BodyLimit[];
}

export interface BodyLimit {
  path: RegExp;
  maxBytes: number;
}

export function createServer(deps: ServerDeps): Hono<AppEnv> {
  const log = deps.logger.child({ component: "http" });
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(async (c, next) => {
    const started = performance.now();
    await next();
    log.debug(
      {
        requestId: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      "request",
    );
  });
  const limitOf = (maxSize: number): MiddlewareHandler<AppEnv> =>
    bodyWithin<AppEnv>(maxSize, (c) => c.json({ error: "payload_too_large" }, 413));
  const defaultLimit = limitOf(deps.maxBodyBytes ?? 256 * 1024);
  const ownLimits = (deps.bodyLimits ?? []).map((l) => ({
    path: l.path,
    limit: limitOf(l.maxBytes),
  }));
  app.use((c, next) => {
    const own = ownLimits.find((l) => l.path.test(c.req.path));
    return (own?.limit ?? defaultLimit)(c, next);
  });

  // this port faces Telegram and the gateways: the verdict only. What runs, and the
  // metrics, are on the metrics listener (metrics-server.ts)
  app.get("/healthz", async (c) => {
    const report = await deps.health();
    return c.json({ ok: report.ok }, report.ok ? 200 : 503);
  });

  for (const routes of deps.routes ?? []) app.route("/", routes);

  app.notFound((c) => c.json({ error: "not_found" }, 404));

  // one error handler: clients get a code and the request id, never internals
  app.onError((err, c) => {
    if (err instanceof HTTPException) {
      return c.json({ error: err.message || "bad_request" }, err.status);
    }
    log.error({ err, requestId: c.get("requestId"), path: c.req.path }, "unhandled error");
    return c.json({ error: "internal_error", requestId: c.get("requestId") }, 500);
  });

  return app;
}
