import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIOS_ENTRY as BIN } from "../helpers/kios-cli.ts";
import { patient } from "../helpers/patience.ts";

// `kios recon` against a running sandbox supplier: the exit code is the verdict, for cron
// jobs and monitoring (0: the books agree, 1: drift)

describe("kios recon", () => {
  let sandbox: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), "kios-recon-"));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // not spawnSync: the sandbox answers from this process's event loop
  const recon = (args: string[] = []) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, "recon", ...args],
        {
          encoding: "utf8",
          timeout: patient(60_000),
          env: {
            PATH: process.env.PATH,
            LOG_LEVEL: "warn",
            PGLITE_DIR: join(dir, "data"),
            SUPPLIER_BASE_URL: sandbox.url,
            SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
            SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
            SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
          },
        },
        (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
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
      // three cold starts of the CLI on a loaded machine
    },
    patient(120_000),
  );

  it("answers bad flags with its usage and exit 2", async () => {
    const r = await recon(["--frobnicate"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("usage: kios recon");
  });
});
