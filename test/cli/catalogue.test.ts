import { type RunningSandbox, startSandbox } from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios as runKios } from "../helpers/run-cli.ts";

// `kios sync` with a second supplier configured: the first supplier's catalogue, then the
// second's linked to it as routes, as the sync job does (docs/suppliers.md#linking). The
// sandboxes live in this process, and so does the command.

const BACKUP = { apiId: "B-ID", apiKey: "b-key", secretKey: "b-secret" };

describe(`kios sync with two suppliers (${testDriver})`, { timeout: patient(120_000) }, () => {
  let t: TestDatabase;
  let main: RunningSandbox;
  let backup: RunningSandbox;
  let env: Record<string, string>;

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
          balance: 1,
        },
      ],
    });
    t = await createTestDatabase();
    env = {
      LOG_LEVEL: "warn",
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
  });

  const kios = (args: string[]) => runKios(args, { env, database: t.handle });

  it("links the second supplier's catalogue as routes after syncing the first", async () => {
    // switched off at the first supplier: still on sale, through the second (sale.ts)
    main.setActive("TSEL10", false);
    expect((await kios(["migrate"])).status).toBe(0);
    const first = await kios(["sync"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const linked = Number(/linked backup: (\d+) new routes/.exec(first.stdout)?.[1]);
    expect(linked).toBeGreaterThan(1000);

    {
      const db = t.handle;
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
