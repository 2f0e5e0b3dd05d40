import { defineConfig } from "vitest/config";
import { loadFactor } from "./test/helpers/patience.ts";

// every cap a test waits under scales by one factor (test/helpers/patience.ts): the load per
// core when the run starts, unless KIOS_TEST_PATIENCE says; the workers inherit it
process.env.KIOS_TEST_PATIENCE ??= loadFactor().toFixed(2);
const patience = Number(process.env.KIOS_TEST_PATIENCE);

export default defineConfig({
  test: {
    // the shop's tests and every workspace package's
    include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    // several kios processes on one database need a server (PGlite is one process's), and
    // statement budgets are PostgreSQL's; the embedded database's folders are PGlite's alone
    exclude: process.env.TEST_DATABASE_URL
      ? ["test/db/pglite.test.ts"]
      : ["test/scale/**", "test/budgets/**"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-patience.ts"],
    testTimeout: Math.round(30_000 * patience),
    hookTimeout: Math.round(60_000 * patience),
    pool: "forks",
    // two cores: one file per core. A file that spawns `kios` adds a process; it runs the
    // bundle the global setup keeps current, not the sources through tsx
    maxWorkers: 2,
    // a module's state must not leak between files
    isolate: true,
  },
});
