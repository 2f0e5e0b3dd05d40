import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMarkupRules, setMarkupRule } from "../../src/commerce/catalogue/markup-rules.ts";
import { priceFor } from "../../src/commerce/catalogue/prices.ts";
import { products } from "../../src/db/schema.ts";
import { testDriver } from "../helpers/db.ts";
import { type PlaygroundData, playgroundData } from "../helpers/playground.ts";

// a demo shop that earns: a fresh playground prices above cost for each tier, and a start
// on the same data leaves an admin's own rules as they were

describe(`the playground's starting markups (${testDriver})`, () => {
  let data: PlaygroundData;
  beforeAll(async () => {
    data = await playgroundData();
  });
  afterAll(() => data?.destroy());

  it("sells TSEL10 above cost, resellers between cost and the customer price", {
    timeout: 120_000,
  }, async () => {
    const first = await data.start();
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
    await data.stop(first);

    const second = await data.start();
    const after = await listMarkupRules(second.app.database.db);
    expect(after).toEqual(before);
    expect(after.find((r) => r.id === own.id)?.percentBp).toBe(550);
  });
});
