import { openAppDatabase } from "../app/open-database.ts";
import { loadConfig } from "../config.ts";
import type { DatabaseHandle } from "../db/client.ts";

/** opens and migrates the configured database for a one-shot command, then closes it. */
export async function withDatabase<T>(work: (database: DatabaseHandle) => Promise<T>): Promise<T> {
  const config = await loadConfig();
  const database = await openAppDatabase(config);
  try {
    await database.migrate();
    return await work(database);
  } finally {
    await database.close();
  }
}
