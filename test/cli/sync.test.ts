import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSandbox, startSandbox } from "@kios/supplier-sandbox";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { productRoutes, products } from "../../src/db/schema.ts";

const BIN = join(import.meta.dirname, "..", "..", "bin", "kios.js");

// `kios sync` with two suppliers configured: one catalogue, the second's products linked as
// routes, and a product the first has switched off still on sale through the second

const account = (apiId: string, apiKey: string, secretKey: string) => ({
  apiId,
  keys: [{ apiKey, secretKey }],
  balance: 1_000_000,
});

describe("kios sync with two suppliers", () => {
  let dir: string;
  let main: RunningSandbox;
  let backup: RunningSandbox;
  const env = () => ({
    PATH: process.env.PATH,
    LOG_LEVEL: "warn",
    PGLITE_DIR: join(dir, "data"),
    SUPPLIER_BASE_URL: main.url,
    SUPPLIER_API_ID: "MAIN-ID",
    SUPPLIER_API_KEY: "main-api-key-1",
    SUPPLIER_SECRET_KEY: "main-secret-key-1",
    SUPPLIER_2_NAME: "backup",
    SUPPLIER_2_BASE_URL: backup.url,
    SUPPLIER_2_API_ID: "BACKUP-ID",
    SUPPLIER_2_API_KEY: "backup-api-key-1",
    SUPPLIER_2_SECRET_KEY: "backup-secret-key-1",
  });
  const kios = (args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, ...args],
        { encoding: "utf8", timeout: 90_000, env: env() },
        (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kios-sync-"));
    main = await startSandbox({
      port: 0,
      accounts: [account("MAIN-ID", "main-api-key-1", "main-secret-key-1")],
    });
    backup = await startSandbox({
      port: 0,
      seed: 2,
      catalogueVariant: { codePrefix: "B" },
      accounts: [account("BACKUP-ID", "backup-api-key-1", "backup-secret-key-1")],
    });
    main.setActive("TSEL10", false);
    expect((await kios(["migrate"])).status).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await main?.close();
    await backup?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("syncs the first supplier's catalogue and links the second's as routes", async () => {
    const r = await kios(["sync", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).total).toBeGreaterThan(100);
    const db = await openDatabase({ pgliteDir: join(dir, "data") });
    try {
      const routes = await db.db
        .select()
        .from(productRoutes)
        .where(eq(productRoutes.productCode, "TSEL10"));
      expect(routes.map((x) => [x.supplier, x.supplierCode])).toEqual([["backup", "BTSEL10"]]);
      const [p] = await db.db.select().from(products).where(eq(products.code, "TSEL10"));
      expect(p).toMatchObject({ active: false, routable: true, routeCost: routes[0]!.cost });
    } finally {
      await db.close();
    }
  }, 120_000);
});
