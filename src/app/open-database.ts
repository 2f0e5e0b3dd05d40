import type { PGlite } from "@electric-sql/pglite";
import type { Config } from "../config.ts";
import { type DatabaseHandle, openDatabase } from "../db/client.ts";
import { pgliteTemplate } from "../db/pglite.ts";
import { createJobRunner } from "../jobs/runner.ts";
import { createLogger } from "../logger.ts";

/** brings a database to the current schema: kios's migrations and pg-boss's tables */
export async function prepareSchema(database: DatabaseHandle): Promise<void> {
  await database.migrate();
  const jobs = createJobRunner({
    database,
    logger: createLogger({ level: "silent" }),
    supervise: false,
  });
  await jobs.start();
  await jobs.stop();
}

/** the embedded database's template for the current schema (built once, then cached) */
export function buildPgliteTemplate(cacheDir?: string): Promise<string> {
  return pgliteTemplate({
    cacheDir,
    prepare: async (pglite: PGlite) => prepareSchema(await openDatabase({ pglite })),
  });
}

/** the configured database: PostgreSQL at DATABASE_URL, else the PGlite folder */
export function openAppDatabase(
  config: Pick<Config, "databaseUrl" | "pgliteDir"> &
    Partial<Pick<Config, "databasePrepare" | "databasePoolSize">>,
): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    prepare: config.databasePrepare ?? true,
    maxConnections: config.databasePoolSize,
    pgliteDir: config.pgliteDir,
    pgliteTemplate: () => buildPgliteTemplate(),
  });
}
