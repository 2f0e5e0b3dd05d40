import PgBoss from "pg-boss";
import type { DatabaseHandle } from "../db/client.ts";
import type { Logger } from "../logger.ts";

export type JobRunnerState = "stopped" | "starting" | "running" | "failed";

export interface JobRunner {
  readonly boss: PgBoss;
  readonly state: JobRunnerState;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  database: DatabaseHandle;
  logger: Logger;
  /** a web-only process sends jobs but neither supervises nor runs cron schedules */
  supervise?: boolean;
}

/** pg-boss on the app's own database: its own small pool on postgres, executeSql on PGlite. */
export function createJobRunner({
  database,
  logger,
  supervise = true,
}: JobRunnerOptions): JobRunner {
  const common = { schema: "pgboss", supervise, schedule: supervise, migrate: true } as const;
  const boss =
    database.kind === "postgres"
      ? new PgBoss({ ...common, connectionString: database.connectionString!, max: 4 })
      : new PgBoss({
          ...common,
          db: { executeSql: (text, values) => database.executeSql(text, values) },
        });

  let state: JobRunnerState = "stopped";
  const log = logger.child({ component: "jobs" });
  boss.on("error", (err) => log.error({ err }, "job runner error"));

  return {
    boss,
    get state() {
      return state;
    },
    async start() {
      state = "starting";
      try {
        await boss.start();
        state = "running";
      } catch (err) {
        state = "failed";
        throw err;
      }
    },
    async stop() {
      if (state === "stopped") return;
      // graceful: running handlers get a few seconds to finish before the pool closes
      await boss.stop({ graceful: true, wait: true, timeout: 3000 });
      state = "stopped";
    },
  };
}
