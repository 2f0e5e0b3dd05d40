import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/create-app.ts";
import { parseConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// a start answers at once: the listener comes first, and /healthz says "starting" while the
// database is migrated and the supplier connected; the app serves before pg-boss is up, and
// what it asks of the jobs meanwhile waits for them

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

  it("serves before pg-boss is up, and a job sent meanwhile runs once the queues exist", async () => {
    const own = await createTestDatabase();
    const handle = own.handle;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    // the jobs' set-up (pg-boss's start and the queues) runs under the set-up lock: held
    const slow = Object.create(handle, {
      exclusive: {
        value: <T>(work: () => Promise<T>) => held.then(() => handle.exclusive(work)),
      },
    }) as typeof handle;
    const app = await createApp({
      config: parseConfig({ PORT: "0" }),
      logger: createLogger({ level: "silent" }),
      database: slow,
      sandbox: { settleDelayMs: 200 },
    });
    const started = app.start();
    try {
      await expect
        .poll(
          async () =>
            app.port === undefined
              ? 0
              : (await fetch(`http://127.0.0.1:${app.port}/healthz`)).status,
          { timeout: 15_000 },
        )
        .toBe(200);
      expect(app.jobs.state).toBe("stopped");
      // a status check asked for now waits for the queues instead of failing
      let sent = false;
      const send = app.jobs.send("order-check", { orderId: 1 }).then(() => {
        sent = true;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(sent).toBe(false);

      release();
      await started;
      await send;
      expect(sent).toBe(true);
      expect(app.jobs.state).toBe("running");
      const ready = await fetch(`http://127.0.0.1:${app.port}/healthz`);
      expect(ready.status).toBe(200);
    } finally {
      release();
      await started.catch(() => {});
      await app.stop();
      await own.destroy();
    }
  });
});
