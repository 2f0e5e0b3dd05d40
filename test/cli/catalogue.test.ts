import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSandbox, startSandbox } from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";
import { KIOS_ENTRY as BIN } from "../helpers/kios-cli.ts";
import { patient } from "../helpers/patience.ts";

// `kios sync` with a second supplier configured: the first supplier's catalogue, then the
// second's linked to it as routes, as the sync job does (docs/suppliers.md#linking). The
// sandboxes live in this process, so the command runs asynchronously.

const BACKUP = { apiId: "B-ID", apiKey: "b-key", secretKey: "b-secret" };

describe(`kios sync with two suppliers (${testDriver})`, { timeout: patient(120_000) }, () => {
  let t: TestDatabase | undefined;
  let dir: string;
  let main: RunningSandbox;
  let backup: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kios-sync-two-"));
    main = await startSandbox({ port: 0 });
    backup = await startSandbox({
      port: 0,
      seed: 2,
      catalogueVariant: { codePrefix: "B" },
      accounts: [
        {
          apiId: BACKUP.apiId,
          keys: [{ apiKey: BACKUP.apiKey, secretKey: BACKUP.secretKey }],
          balance: 1,
        },
      ],
    });
    if (testDriver === "postgres") t = await createTestDatabase();
    env = {
      PATH: process.env.PATH ?? "",
      LOG_LEVEL: "warn",
      ...(t ? { DATABASE_URL: t.url! } : { PGLITE_DIR: join(dir, "db") }),
      SUPPLIER_BASE_URL: main.url,
      SUPPLIER_API_ID: "KIOS-SANDBOX",
      SUPPLIER_API_KEY: "sandbox-api-key",
      SUPPLIER_SECRET_KEY: "sandbox-secret-key",
      SUPPLIER_2_NAME: "backup",
      SUPPLIER_2_BASE_URL: backup.url,
      SUPPLIER_2_API_ID: BACKUP.apiId,
      SUPPLIER_2_API_KEY: BACKUP.apiKey,
      SUPPLIER_2_SECRET_KEY: BACKUP.secretKey,
    };
  }, patient(120_000));
  afterAll(async () => {
    await main?.close();
    await backup?.close();
    await t?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const kios = (args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, ...args],
        { encoding: "utf8", timeout: patient(90_000), env, maxBuffer: 16 * 1024 * 1024 },
        (_err, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
      );
    });

  it("links the second supplier's catalogue as routes after syncing the first", async () => {
    // switched off at the first supplier: still on sale, through the second (sale.ts)
    main.setActive("TSEL10", false);
    expect((await kios(["migrate"])).status).toBe(0);
    const first = await kios(["sync"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const linked = Number(/linked backup: (\d+) new routes/.exec(first.stdout)?.[1]);
    expect(linked).toBeGreaterThan(1000);

    const db = await openDatabase(t ? { databaseUrl: t.url! } : { pgliteDir: join(dir, "db") });
    try {
      const { rows } = await db.executeSql(
        "select supplier_code, cost from product_routes where product_code = 'TSEL10'",
      );
      const price = backup.catalogue().find((p) => p.code === "BTSEL10")!.price;
      expect(rows.map((r) => [r.supplier_code, Number(r.cost)])).toEqual([["BTSEL10", price]]);
      const { rows: product } = await db.executeSql(
        "select active, routable, route_cost from products where code = 'TSEL10'",
      );
      expect(product.map((p) => [p.active, p.routable, Number(p.route_cost)])).toEqual([
        [false, true, price],
      ]);
    } finally {
      await db.close();
    }

    // a second run keeps the links it made
    const again = await kios(["sync", "--json"]);
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      added: 0,
      linked: [{ supplier: "backup", linked: 0, kept: linked }],
      failed: [],
    });
  });
});
