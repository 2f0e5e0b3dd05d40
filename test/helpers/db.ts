import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { inject } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../src/db/client.ts";
import { pgliteStartOptions } from "../../src/db/pglite.ts";
import { withDatabase } from "./postgres-url.ts";
import type { SyncedCatalogue } from "./synced-catalogue.ts";

export interface TestDatabase {
  handle: DatabaseHandle;
  /** set on postgres: the connection string of this test's own database */
  url: string | undefined;
  destroy(): Promise<void>;
}

/** the driver this run tests: postgres when TEST_DATABASE_URL is set, else PGlite. */
export const testDriver: "postgres" | "pglite" = process.env.TEST_DATABASE_URL
  ? "postgres"
  : "pglite";

/**
 * a clean, migrated database of its own (app tables and pg-boss schema), cloned fast.
 * `onStatement` is told of each statement sent (postgres only: the statement budgets).
 * `catalogue`: a clone of the global setup's synced template instead, the harness's
 * catalogue already in it (test/helpers/synced-catalogue.ts).
 */
export async function createTestDatabase(
  options: { onStatement?: (sql: string) => void; catalogue?: SyncedCatalogue } = {},
): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const synced = options.catalogue ? inject("syncedTemplates")[options.catalogue] : undefined;
  const template = synced ?? inject("postgresTemplate");
  if (serverUrl && template) {
    const name = `kios_t_${randomBytes(6).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${name} template ${template}`);
    } finally {
      await admin.end();
    }
    const url = withDatabase(serverUrl, name);
    const handle = await openDatabase({
      databaseUrl: url,
      maxConnections: 10,
      onStatement: options.onStatement,
    });
    return {
      handle,
      url,
      async destroy() {
        await handle.close();
        const drop = postgres(serverUrl, { max: 1, onnotice: () => {} });
        try {
          await drop.unsafe(`drop database if exists ${name} with (force)`);
        } finally {
          await drop.end();
        }
      },
    };
  }
  const dump = readFileSync(synced ?? inject("pgliteTemplate"));
  const pg = await PGlite.create({ ...pgliteStartOptions(), loadDataDir: new Blob([dump]) });
  const handle = await openDatabase({ pglite: pg });
  return { handle, url: undefined, destroy: () => handle.close() };
}
