import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.ts";
import { parseConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// a start answers at once: the listener comes first, and /healthz says "starting" while the
// database is migrated, the supplier connected and the jobs set up

describe(`a start (${testDriver})`, () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.destroy());

  it("answers /healthz with starting before it is ready, and ok once it is", async () => {
    database = await createTestDatabase();
    const handle = database.handle;
    let migrate!: () => void;
    const migrating = new Promise<void>((r) => {
      migrate = r;
    });
    // the database held at its migration: the rest of the start waits behind it
    const held = Object.create(handle, {
      migrate: { value: () => migrating.then(() => handle.migrate()) },
    }) as typeof handle;
    const app = await createApp({
      config: parseConfig({ PORT: "0" }),
      logger: createLogger({ level: "silent" }),
      database: held,
      sandbox: { settleDelayMs: 200 },
    });
    const started = app.start();
    try {
      await expect.poll(() => app.port, { timeout: 10_000 }).toBeDefined();
      const early = await fetch(`http://127.0.0.1:${app.port}/healthz`);
      expect(early.status).toBe(503);
      expect(await early.json()).toEqual({ ok: false, status: "starting" });
      const report = await fetch(`http://127.0.0.1:${app.port}/supplier/callback`, {
        method: "POST",
        body: "{}",
      });
      expect(report.status).toBe(503);
      expect(report.headers.get("retry-after")).toBe("5");

      migrate();
      await started;
      const ready = await fetch(`http://127.0.0.1:${app.port}/healthz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ok: true });
    } finally {
      migrate();
      await started.catch(() => {});
      await app.stop();
    }
  });
});
