import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAppDatabase } from "../../src/app/open-database.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

// DATABASE_POOL_SIZE bounds each process's connections to PostgreSQL: more statements at
// once than connections wait for one (postgres.js queues them, or pipelines them on a busy
// connection), none opens another

describe("the pool's size (PostgreSQL)", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it.each([1, 3])(
    "a process opens at most %i connections, however many statements wait",
    async (size) => {
      const database = await openAppDatabase({
        databaseUrl: t.url,
        pgliteDir: "",
        databasePoolSize: size,
      });
      try {
        // twelve at once, each holding its connection a moment: a pool of ten opens ten
        const rows = await Promise.all(
          Array.from({ length: 12 }, () =>
            database.executeSql("select pg_backend_pid() as pid from pg_sleep(0.05)"),
          ),
        );
        const pids = new Set(rows.map((r) => r.rows[0]?.pid));
        expect(pids.size).toBeGreaterThan(0);
        expect(pids.size).toBeLessThanOrEqual(size);
      } finally {
        await database.close();
      }
    },
  );
});
