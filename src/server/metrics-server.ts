import { Hono } from "hono";
import type { Logger } from "../logger.ts";
import type { HealthReport } from "./create-server.ts";
import type { Metrics } from "./metrics.ts";

// the operator's port (METRICS_HOST:METRICS_PORT, 127.0.0.1 by default): Prometheus text
// and the health report with each check, apart from the port that faces the internet.

export function createMetricsServer(deps: {
  logger: Logger;
  metrics: Metrics;
  health: () => Promise<HealthReport>;
}): Hono {
  const log = deps.logger.child({ component: "metrics-http" });
  const app = new Hono();
  app.get("/metrics", async (c) => {
    const body = await deps.metrics.registry.metrics();
    return c.text(body, 200, { "content-type": deps.metrics.registry.contentType });
  });
  app.get("/healthz", async (c) => {
    const report = await deps.health();
    return c.json(report, report.ok ? 200 : 503);
  });
  app.notFound((c) => c.json({ error: "not_found" }, 404));
  app.onError((err, c) => {
    log.error({ err, path: c.req.path }, "unhandled error");
    return c.json({ error: "internal_error" }, 500);
  });
  return app;
}
