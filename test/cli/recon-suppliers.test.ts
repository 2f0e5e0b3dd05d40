import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios } from "../helpers/run-cli.ts";

const BACKUP = { apiId: "BACKUP-ID", apiKey: "backup-api-key-1", secretKey: "backup-secret-key-1" };

// `kios recon` with two suppliers: each is checked on its own (or the one --supplier names),
// and a drift at any of them is exit 1

describe("kios recon with several suppliers", () => {
  let main: RunningSandbox;
  let backup: RunningSandbox;
  let db: TestDatabase;
  beforeAll(async () => {
    main = await startSandbox({ port: 0 });
    backup = await startSandbox({
      port: 0,
      seed: 2,
      catalogueVariant: { codePrefix: "B" },
      accounts: [
        {
          apiId: BACKUP.apiId,
          keys: [{ apiKey: BACKUP.apiKey, secretKey: BACKUP.secretKey }],
          balance: 3_000_000,
        },
      ],
    });
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await main.close();
    await backup.close();
    await db?.destroy();
  });

  // in-process: the sandbox answers from this process's event loop all the same
  const recon = (args: string[] = []) =>
    kios(["recon", ...args], {
      env: {
        LOG_LEVEL: "warn",
        SUPPLIER_BASE_URL: main.url,
        SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
        SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
        SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
        SUPPLIER_2_NAME: "backup",
        SUPPLIER_2_BASE_URL: backup.url,
        SUPPLIER_2_API_ID: BACKUP.apiId,
        SUPPLIER_2_API_KEY: BACKUP.apiKey,
        SUPPLIER_2_SECRET_KEY: BACKUP.secretKey,
      },
      database: db.handle,
    });

  it(
    "checks each supplier; --supplier one; exit 1 on drift at any; an unknown name is exit 2",
    async () => {
      const baseline = await recon();
      expect(baseline.stdout).toMatch(/^main: check #1 .*: baseline/m);
      expect(baseline.stdout).toMatch(/^backup: check #2 .*: baseline/m);
      expect(baseline.status).toBe(0);
      backup.account().setBalance(backup.account().balance - 7_000);
      const drift = await recon(["--json"]);
      expect(drift.status).toBe(1);
      const checks = JSON.parse(drift.stdout) as {
        supplier: string;
        status: string;
        drift: number;
      }[];
      expect(checks.map((c) => [c.supplier, c.status, c.drift])).toEqual([
        ["main", "ok", 0],
        ["backup", "drift", -7_000],
      ]);
      const onlyMain = await recon(["--supplier", "main", "--json"]);
      expect(onlyMain.status).toBe(0);
      expect(JSON.parse(onlyMain.stdout)).toMatchObject({ supplier: "main", status: "ok" });
      const unknown = await recon(["--supplier", "nosuch"]);
      expect(unknown.status).toBe(2);
      expect(unknown.stderr).toContain("no supplier named nosuch; suppliers: main, backup");
    },
    patient(180_000),
  );
});
