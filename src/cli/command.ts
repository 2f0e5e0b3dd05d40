import { type ParseArgsConfig, parseArgs } from "node:util";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/client.ts";

/**
 * what a command reads from outside its arguments. The binary passes the process's own
 * (bin/kios.js → src/cli.ts); a test passes its environment and the database it opened, so
 * the command runs in the test's process on the test's database.
 */
export interface CliDeps {
  /** the environment the configuration is read from */
  env: NodeJS.ProcessEnv;
  /** opens the configured database for one command; the command closes it when done */
  openDatabase(config: Config): Promise<DatabaseHandle>;
}

/** a CLI command: run() returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], deps: CliDeps): Promise<number>;
}

/** thrown for bad arguments: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
