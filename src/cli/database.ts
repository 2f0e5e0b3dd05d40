import { loadConfig } from "../config.ts";
import type { DatabaseHandle } from "../db/client.ts";
import type { CliDeps } from "./command.ts";

/** opens and migrates the configured database for a one-shot command, then closes it. */
export async function withDatabase<T>(
  deps: CliDeps,
  work: (database: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const config = await loadConfig(deps.env);
  const database = await deps.openDatabase(config);
  try {
    await database.migrate();
    return await work(database);
  } finally {
    await database.close();
  }
}
