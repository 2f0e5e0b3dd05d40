import { defineConfig } from "vitest/config";

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
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    // a module's state must not leak between files
    isolate: true,
  },
});
