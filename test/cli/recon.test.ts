import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios } from "../helpers/run-cli.ts";

// `kios recon` against a running sandbox supplier: the exit code is the verdict, for cron
// jobs and monitoring (0: the books agree, 1: drift)

describe("kios recon", () => {
  let sandbox: RunningSandbox;
  let db: TestDatabase;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await sandbox.close();
    await db?.destroy();
  });

  // in-process: the sandbox answers from this process's event loop all the same
  const recon = (args: string[] = []) =>
    kios(["recon", ...args], {
      env: {
        LOG_LEVEL: "warn",
        SUPPLIER_BASE_URL: sandbox.url,
        SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
        SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
        SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
      },
      database: db.handle,
    });

  it(
    "exits 0 while the balance agrees, and 1 with the amount when it drifts",
    async () => {
      const baseline = await recon();
      expect(baseline.stdout).toMatch(/check #1 .*: baseline/);
      expect(baseline.status).toBe(0);
      const agrees = await recon();
      expect(agrees.stdout).toMatch(/: ok\n/);
      expect(agrees.status).toBe(0);
      sandbox.account().setBalance(sandbox.account().balance - 12_345);
      const drift = await recon(["--json"]);
      expect(drift.status).toBe(1);
      expect(JSON.parse(drift.stdout)).toMatchObject({ status: "drift", drift: -12_345 });
    },
    patient(120_000),
  );

  it("answers bad flags with its usage and exit 2", async () => {
    const r = await recon(["--frobnicate"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("usage: kios recon");
  });
});
