import { openAppDatabase } from "./app/open-database.ts";
import { apiKeyCommand } from "./cli/api-key.ts";
import { markupCommand, syncCommand } from "./cli/catalogue.ts";
import { centerCommand } from "./cli/center.ts";
import { centerKeyCommand } from "./cli/center-key.ts";
import type { CliDeps, Command } from "./cli/command.ts";
import { UsageError } from "./cli/command.ts";
import { migrateCommand, startCommand } from "./cli/core.ts";
import { exportCommand } from "./cli/export.ts";
import { ledgerCommand } from "./cli/ledger.ts";
import { reconCommand } from "./cli/reconciliation.ts";
import { resellerCommand } from "./cli/resellers.ts";
import { routesCommand } from "./cli/routes.ts";
import { sandboxCommand } from "./cli/sandbox.ts";
import { balanceCommand, productsCommand, statusCommand } from "./cli/supplier.ts";
import { ConfigError } from "./config.ts";

const COMMANDS: Command[] = [
  startCommand,
  migrateCommand,
  ledgerCommand,
  reconCommand,
  exportCommand,
  balanceCommand,
  productsCommand,
  statusCommand,
  sandboxCommand,
  syncCommand,
  markupCommand,
  apiKeyCommand,
  centerKeyCommand,
  centerCommand,
  routesCommand,
  resellerCommand,
];

export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "usage: kios <command> [options]",
    "",
    "commands:",
    ...lines,
    `  ${"help".padEnd(width)}  show this help, or a command's usage: kios help <command>`,
  ].join("\n");
}

/** what the binary runs on: its own environment, the database its configuration names */
export function processDeps(): CliDeps {
  return { env: process.env, openDatabase: openAppDatabase };
}

/**
 * runs one CLI invocation and returns its exit code (-1: a long-running command took over).
 * It never exits the process: the binary does, with the code (below).
 */
export async function runCli(argv: string[], deps: CliDeps = processDeps()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const target = COMMANDS.find((c) => c.name === rest[0]);
    if (rest[0] !== undefined && !target) {
      console.error(`kios: unknown command "${rest[0]}"\n\n${usage()}`);
      return 2;
    }
    console.log(target ? `usage: ${target.usage}\n\n${target.summary}` : usage());
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`kios: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest, deps);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`kios ${command.name}: ${err.message}\nusage: ${command.usage}`);
      return 2;
    }
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 78; // EX_CONFIG
    }
    console.error(`kios ${command.name}: ${(err as Error).message}`);
    return 1;
  }
}

// run when executed as the CLI (bin/kios.js imports this file, or its bundle dist/cli.js)
if (process.argv[1] && /kios(\.js)?$|cli\.[jt]s$/.test(process.argv[1])) {
  const code = await runCli(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
