import { type ParseArgsConfig, parseArgs } from "node:util";

/** a CLI command: run() returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
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
