import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { Clock } from "@kios/kit";
import { connectTelegram } from "../../src/app/connect-telegram.ts";
import { type App, type AppDeps, createApp, type Role } from "../../src/app/create-app.ts";
import { type Config, parseConfig, secretsOf } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "./db.ts";

export interface TestApp {
  app: App;
  /** http://127.0.0.1:<port> when the role serves HTTP */
  baseUrl: string;
  /** http://127.0.0.1:<port> of the metrics listener (METRICS_PORT set) */
  metricsUrl: string;
  /** every log line the app wrote, as text */
  logs(): string;
  database: TestDatabase;
  stop(): Promise<void>;
}

/** a log sink that keeps what it is given, for assertions. */
export function memorySink(): { stream: Writable; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

/** boots the whole app (database, jobs, HTTP on a free port) on a fresh test database. */
export async function bootApp(
  options: {
    env?: Record<string, string>;
    role?: Role;
    logLevel?: string;
    sandbox?: AppDeps["sandbox"];
    clock?: Clock;
    /** with no BOT_TOKEN, run the playground as `npm start` does (default: no bot) */
    playground?: boolean;
    /** the catalogue-sync worker's poll (default 10 s) */
    catalogueSyncPollSeconds?: number;
    /** with no supplier configured, how many embedded sandboxes (default 1) */
    sandboxes?: 1 | 2;
    /**
     * open the database the env names (DATABASE_URL or PGLITE_DIR) as `npm start` does,
     * instead of a fresh test database; stop() leaves it for the next boot
     */
    databaseFromEnv?: boolean;
  } = {},
): Promise<TestApp> {
  // a fresh test database: the playground's data folder (its H2H key) goes to a folder of
  // the test's own, never the checkout's ./data
  const scratch = options.env?.PGLITE_DIR ? undefined : mkdtempSync(join(tmpdir(), "kios-app-"));
  const parsed: Config = parseConfig({
    PORT: "0",
    ...(scratch ? { PGLITE_DIR: join(scratch, "pglite") } : {}),
    ...options.env,
  });
  const sink = memorySink();
  const logger = createLogger({
    level: options.logLevel ?? "debug",
    secrets: secretsOf(parsed),
    pretty: false,
    destination: sink.stream,
  });
  const database: TestDatabase | undefined = options.databaseFromEnv
    ? undefined
    : await createTestDatabase();
  // a bot only when asked for: the bot (BOT_TOKEN) or the playground
  const choice =
    parsed.botToken || options.playground
      ? await connectTelegram(parsed, logger, { pollingTimeoutSeconds: 1, role: options.role })
      : undefined;
  const app = await createApp({
    config: choice?.config ?? parsed,
    logger,
    database: database?.handle,
    role: options.role,
    sandbox: { settleDelayMs: 200, ...options.sandbox },
    clock: options.clock,
    bot: choice?.bot,
    http: choice?.http,
    adminIds: choice?.adminIds,
    catalogueSyncPollSeconds: options.catalogueSyncPollSeconds,
    sandboxes: options.sandboxes,
  });
  await app.start();
  return {
    app,
    baseUrl: `http://127.0.0.1:${app.port ?? 0}`,
    metricsUrl: `http://127.0.0.1:${app.metricsPort ?? 0}`,
    logs: sink.text,
    database: database ?? {
      handle: app.database,
      url: parsed.databaseUrl,
      destroy: async () => {},
    },
    async stop() {
      await app.stop();
      await database?.destroy();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    },
  };
}
