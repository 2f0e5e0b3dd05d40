import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootApp, type TestApp } from "../helpers/app.ts";

// a shop on its own supplier (not the embedded sandbox) starts its first catalogue sync as
// the job, at once: not at the job runner's next poll. The poll is set to ten minutes here,
// so a catalogue within the minute the test waits can only have been started at once.

describe("the first catalogue of a shop with a real supplier", () => {
  let sandbox: RunningSandbox;
  let t: TestApp;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    t = await bootApp({
      logLevel: "silent",
      catalogueSyncPollSeconds: 600,
      env: {
        SUPPLIER_BASE_URL: sandbox.url,
        SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
        SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
        SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await sandbox?.close();
  });

  it("is there long before the job runner's next poll", async () => {
    expect(t.app.supplier?.sandbox).toBeUndefined();
    const deadline = Date.now() + 60_000;
    let n = 0;
    while (Date.now() < deadline) {
      const { rows } = await t.app.database.executeSql("select count(*)::int as n from products");
      n = Number(rows[0]?.n ?? 0);
      if (n > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(n).toBeGreaterThan(5000);
  }, 90_000);
});
