import type { Config } from "./config.ts";
import { type DatabaseHandle, openDatabase } from "./db/client.ts";
import { createJobRunner, type JobRunner } from "./jobs/runner.ts";
import type { Logger } from "./logger.ts";
import { createServer, type HealthReport } from "./server/app.ts";
import { listen, type RunningServer } from "./server/listen.ts";
import { createMetrics, type Metrics } from "./server/metrics.ts";

/** which parts a process runs (Procfile): web = HTTP, worker = jobs, all = both. */
export type Role = "all" | "web" | "worker";

export interface AppDeps {
  config: Config;
  logger: Logger;
  role?: Role;
  /** an already open database (tests hand in a migrated template); otherwise from config */
  database?: DatabaseHandle;
}

export interface App {
  readonly config: Config;
  readonly logger: Logger;
  readonly database: DatabaseHandle;
  readonly jobs: JobRunner;
  readonly metrics: Metrics;
  readonly http: ReturnType<typeof createServer>;
  /** the bound HTTP port once started (web and all roles) */
  readonly port: number | undefined;
  health(): Promise<HealthReport>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** the composition root: builds every part from explicit dependencies; start() runs them. */
export async function createApp(deps: AppDeps): Promise<App> {
  const { config, logger } = deps;
  const role = deps.role ?? "all";
  const database =
    deps.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir }));
  const jobs = createJobRunner({ database, logger, supervise: role !== "web" });
  const metrics = createMetrics();

  async function health(): Promise<HealthReport> {
    const checks: HealthReport["checks"] = {};
    try {
      await database.ping();
      checks.database = { ok: true, detail: database.kind };
    } catch {
      checks.database = { ok: false, detail: "unreachable" };
    }
    checks.jobs = { ok: jobs.state === "running", detail: jobs.state };
    return { ok: Object.values(checks).every((c) => c.ok), checks };
  }

  const http = createServer({ logger, metrics, health });
  let server: RunningServer | undefined;
  let stopping: Promise<void> | undefined;

  return {
    config,
    logger,
    database,
    jobs,
    metrics,
    http,
    get port() {
      return server?.port;
    },
    health,
    async start() {
      await database.migrate();
      await jobs.start();
      if (role !== "worker") server = await listen(http, config.port);
    },
    stop() {
      stopping ??= (async () => {
        await server?.close();
        await jobs.stop();
        await database.close();
      })();
      return stopping;
    },
  };
}
