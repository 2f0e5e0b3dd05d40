import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMarkupRules, setMarkupRule } from "../../src/commerce/catalogue/markup-rules.ts";
import { priceFor } from "../../src/commerce/catalogue/prices.ts";
import { products } from "../../src/db/schema.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// a demo shop that earns: a fresh playground prices above cost for each tier, and a start
// on the same data leaves an admin's own rules as they were

describe(`the playground's starting markups (${testDriver})`, () => {
  let folder = "";
  let server: TestDatabase | undefined;
  let env: Record<string, string>;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "kios-markups-"));
    env = { PGLITE_DIR: join(folder, "pglite") };
    if (testDriver === "postgres") {
      server = await createTestDatabase();
      env.DATABASE_URL = server.url!;
    }
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
    await server?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  async function start(): Promise<TestApp> {
    const app = await bootApp({ playground: true, env, databaseFromEnv: true });
    apps.push(app);
    return app;
  }

  it("sells TSEL10 above cost, resellers between cost and the customer price", {
    timeout: 120_000,
  }, async () => {
    const first = await start();
    const db = first.app.database.db;
    const [row] = await db
      .select({ cost: products.supplierPrice })
      .from(products)
      .where(eq(products.code, "TSEL10"));
    const cost = row!.cost;
    const customer = (await priceFor(db, "TSEL10", "customer"))!;
    const reseller = (await priceFor(db, "TSEL10", "reseller"))!;
    expect(customer).toBeGreaterThan(cost);
    expect(reseller).toBeGreaterThan(cost);
    expect(reseller).toBeLessThan(customer);

    // the admin sets their own customer markup; a restart must keep it
    const own = await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 550 });
    const before = await listMarkupRules(db);
    await first.stop();
    apps.splice(apps.indexOf(first), 1);

    const second = await start();
    const after = await listMarkupRules(second.app.database.db);
    expect(after).toEqual(before);
    expect(after.find((r) => r.id === own.id)?.percentBp).toBe(550);
  });
});
