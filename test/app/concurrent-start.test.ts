import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.ts";
import { parseConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/client.ts";
import { createLogger } from "../../src/logger.ts";
import { testDriver } from "../helpers/db.ts";
import { withDatabase } from "../helpers/postgres-url.ts";

// a web and a worker process started at the same moment on a new database (a first deploy)
// both come up: migrations and the job queues' set-up take turns instead of deadlocking.

const logger = createLogger({ level: "silent", pretty: false });

describe(`starting web and worker together on a new database (${testDriver})`, () => {
  it("both start, and the set-up ran once", { timeout: 120_000 }, async () => {
    const server = process.env.TEST_DATABASE_URL;
    if (testDriver === "pglite" || !server) {
      // one process owns a PGlite folder: set-up work simply runs
      const handle = await openDatabase({ pgliteDir: "memory://" });
      expect(await handle.exclusive(async () => 42)).toBe(42);
      await handle.close();
      return;
    }
    const name = `kios_start_${randomBytes(5).toString("hex")}`;
    const admin = postgres(server, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = withDatabase(server, name);
    const config = parseConfig({ DATABASE_URL: url, PORT: "0" });
    const apps = await Promise.all(
      (["web", "worker", "worker"] as const).map((role) =>
        createApp({ config, logger, role, sandbox: { settleDelayMs: 200 } }),
      ),
    );
    try {
      const started = await Promise.allSettled(apps.map((a) => a.start()));
      expect(started.map((s) => (s.status === "rejected" ? String(s.reason) : "ok"))).toEqual([
        "ok",
        "ok",
        "ok",
      ]);
    } finally {
      await Promise.allSettled(apps.map((a) => a.stop()));
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
