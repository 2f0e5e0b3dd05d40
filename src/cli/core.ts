import { type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";

const ROLES = ["all", "web", "worker"] as const;

export const startCommand: Command = {
  name: "start",
  summary: "run kios (HTTP server, jobs and bot) until Ctrl-C",
  usage: "kios start [--role all|web|worker]",
  // the server reads the process's own environment and exits it on a signal: the binary's alone
  async run(argv) {
    const { values } = parseFlags(argv, { role: { type: "string", default: "all" } });
    const role = values.role as (typeof ROLES)[number];
    if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
    const { main } = await import("../app/main.ts");
    await main(role);
    return -1; // keeps running; main exits the process on a signal
  },
};

export const migrateCommand: Command = {
  name: "migrate",
  summary: "apply database migrations and exit",
  usage: "kios migrate [--pglite-template]",
  async run(argv, deps) {
    const { values } = parseFlags(argv, { "pglite-template": { type: "boolean", default: false } });
    if (values["pglite-template"]) {
      // npm install runs this, so that a new PGlite folder starts from a dump, not an initdb
      const { buildPgliteTemplate } = await import("../app/open-database.ts");
      console.log(`embedded database template: ${await buildPgliteTemplate()}`);
      return 0;
    }
    const kind = await withDatabase(deps, async (database) => database.kind);
    console.log(`migrations applied (${kind})`);
    return 0;
  },
};
