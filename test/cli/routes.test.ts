import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productRoutes, products, unlinkedSupplierProducts } from "../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios as runKios } from "../helpers/run-cli.ts";

// `kios routes`: the CLI twin of /routes on the embedded database

describe("kios routes", () => {
  let database: TestDatabase;
  const kios = (args: string[]) =>
    runKios(args, { env: { LOG_LEVEL: "warn" }, database: database.handle });

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.handle;
    await db.db.insert(products).values({
      code: "TSEL10",
      name: "Telkomsel 10.000",
      category: "Pulsa",
      brand: "TELKOMSEL",
      type: "prepaid",
      supplierPrice: 10_100,
      active: true,
    });
    await db.db.insert(productRoutes).values({
      productCode: "TSEL10",
      supplier: "backup",
      supplierCode: "BTSEL10",
      name: "Telkomsel 10.000",
      cost: 10_050,
      active: true,
      position: 1,
    });
    await db.db.insert(products).values({
      code: "TSEL20",
      name: "Telkomsel 20.000",
      category: "Pulsa",
      brand: "TELKOMSEL",
      type: "prepaid",
      supplierPrice: 20_100,
      active: true,
    });
    await db.db.insert(unlinkedSupplierProducts).values({
      supplier: "backup",
      supplierCode: "BTSEL20",
      name: "Telkomsel 20rb",
      brand: "TELKOMSEL",
      category: "Pulsa",
      candidates: [],
      cost: 20_050,
      active: true,
    });
  }, patient(120_000));
  afterAll(() => database?.destroy());

  it("lists a product's routes in the order they are tried", async () => {
    const r = await kios(["routes", "TSEL10"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1\. main\s+TSEL10\s+Rp10\.100\s+active/);
    expect(r.stdout).toMatch(/2\. backup\s+BTSEL10\s+Rp10\.050\s+active/);
  });

  it("moves and switches a route", async () => {
    const up = await kios(["routes", "TSEL10", "up", "backup", "--json"]);
    expect(up.status).toBe(0);
    expect(JSON.parse(up.stdout).map((r: { supplier: string }) => r.supplier)).toEqual([
      "backup",
      "main",
    ]);
    const off = await kios(["routes", "TSEL10", "disable", "main"]);
    expect(off.stdout).toMatch(/2\. main\s+TSEL10\s+Rp10\.100\s+disabled/);
  });

  it(
    "orders routes by cost when the owner says so, shows which order, and refuses a move then",
    async () => {
      expect((await kios(["routes", "TSEL10"])).stdout).toContain("order: manual");
      const set = await kios(["routes", "--order", "cost"]);
      expect(set.status).toBe(0);
      expect(set.stdout).toMatch(/order: by cost .*; \d+ route\(s\) moved/);
      const listed = await kios(["routes", "TSEL10"]);
      expect(listed.stdout).toContain("order: by cost");
      // the backup (Rp10.050) is cheaper than the main (Rp10.100)
      expect(listed.stdout).toMatch(/1\. backup\s+BTSEL10\s+Rp10\.050\s+active/);
      const moved = await kios(["routes", "TSEL10", "down", "backup"]);
      expect(moved).toMatchObject({ status: 1 });
      expect(moved.stderr).toContain("ordered by cost");
      expect((await kios(["routes", "--order", "cheapest"])).status).toBe(2);
      expect((await kios(["routes", "--order", "manual"])).status).toBe(0);
      expect((await kios(["routes", "TSEL10"])).stdout).toContain("order: manual");
    },
    patient(180_000),
  );

  it("says what is wrong: no product, a bad action, a missing supplier", async () => {
    expect(await kios(["routes", "NOPE"])).toMatchObject({ status: 1 });
    expect((await kios(["routes", "TSEL10", "sideways", "main"])).status).toBe(2);
    expect((await kios(["routes", "TSEL10", "up"])).stderr).toContain("up which supplier?");
  });

  it("lists what waits for a link and links one by hand", async () => {
    const listed = await kios(["routes", "--unlinked"]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(
      /backup\s+BTSEL20\s+Telkomsel 20rb \(TELKOMSEL, Pulsa, Rp20\.050\): matches no product/,
    );
    const linked = await kios(["routes", "TSEL20", "link", "backup", "BTSEL20"]);
    expect(linked.status).toBe(0);
    expect(linked.stdout).toMatch(/2\. backup\s+BTSEL20\s+Rp20\.050\s+active/);
    expect((await kios(["routes", "--unlinked", "--json"])).stdout.trim()).toBe("[]");
    const again = await kios(["routes", "TSEL20", "link", "backup", "BTSEL20"]);
    expect(again).toMatchObject({ status: 1 });
    expect(again.stderr).toContain("not waiting for a link");
    expect((await kios(["routes", "TSEL20", "link", "backup"])).status).toBe(2);
  });
});
