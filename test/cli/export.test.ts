import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderAttempts, orders, products, users } from "../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios as runKios } from "../helpers/run-cli.ts";

// `kios export` on the embedded database: a period's orders as CSV or JSON on stdout or into
// a file; bad arguments get the usage and exit 2.

describe("kios export", () => {
  let dir: string;
  let database: TestDatabase;
  const kios = (args: string[]) =>
    runKios(args, { env: { LOG_LEVEL: "warn" }, database: database.handle });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "kios-export-"));
    database = await createTestDatabase();
    // three orders on 5 November (WIB), one on 1 December
    const db = database.handle;
    await db.db.insert(users).values({ telegramId: 500 });
    await db.db.insert(products).values({
      code: "TSEL10",
      name: "Telkomsel 10.000",
      category: "Pulsa",
      brand: "TELKOMSEL",
      type: "prepaid",
      supplierPrice: 10_100,
      active: true,
    });
    const order = (i: number, at: string, status: "success" | "failed") => ({
      refId: `K-EXPORT-${i}`,
      confirmKey: `Q-EXPORT-${i}`,
      userId: 500,
      chatId: 500,
      kind: "prepaid" as const,
      productCode: "TSEL10",
      productName: "Telkomsel 10.000",
      destination: `08123456${i}901`,
      price: 10_400,
      cost: 10_100,
      status,
      sn: status === "success" ? `SN${i}` : null,
      createdAt: new Date(at),
      updatedAt: new Date(at),
    });
    await db.db
      .insert(orders)
      .values([
        order(1, "2026-11-04T18:00:00Z", "success"),
        order(2, "2026-11-05T03:00:00Z", "failed"),
        order(3, "2026-11-05T16:59:00Z", "success"),
        order(4, "2026-11-30T17:00:00Z", "success"),
      ]);
    // the second was re-routed: refused at the main, then failed out of stock at the backup
    const [second] = await db.db.select().from(orders).where(eq(orders.refId, "K-EXPORT-2"));
    await db.db.insert(orderAttempts).values([
      {
        orderId: second!.id,
        seq: 1,
        supplier: "main",
        supplierCode: "TSEL10",
        refId: "K-EXPORT-2-A",
        cost: 10_100,
        status: "rejected",
        answerCode: "PRODUCT_INACTIVE",
        createdAt: new Date("2026-11-05T03:00:00Z"),
        finalAt: new Date("2026-11-05T03:00:01Z"),
      },
      {
        orderId: second!.id,
        seq: 2,
        supplier: "backup",
        supplierCode: "BTSEL10",
        refId: "K-EXPORT-2",
        cost: 10_000,
        status: "failed",
        answerCode: "ORDER_FAILED",
        reason: "OUT_OF_STOCK",
        reroutedFor: "PRODUCT_INACTIVE",
        createdAt: new Date("2026-11-05T03:00:01Z"),
        finalAt: new Date("2026-11-05T03:00:09Z"),
      },
    ]);
  }, patient(120_000));
  afterAll(async () => {
    await database?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes a period's orders as CSV on stdout", async () => {
    const r = await kios(["export", "--from", "2026-11-05", "--to", "2026-11-06"]);
    expect(r.status, r.stderr).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => x.ref_id)).toEqual(["K-EXPORT-1", "K-EXPORT-2", "K-EXPORT-3"]);
    expect(rows[0]).toMatchObject({ status: "success", price: "10400", margin: "300", sn: "SN1" });
    expect(rows[1]).toMatchObject({ status: "failed", margin: "" });
    // its attempts, for the admins: where it went, what each answered, when
    expect(JSON.parse(rows[1]!.attempts!)).toMatchObject([
      { seq: 1, supplier: "main", ref_id: "K-EXPORT-2-A", state: "rejected" },
      {
        seq: 2,
        supplier: "backup",
        supplier_code: "BTSEL10",
        ref_id: "K-EXPORT-2",
        state: "failed",
        answer_code: "ORDER_FAILED",
        reason: "OUT_OF_STOCK",
        created_at: "2026-11-05T03:00:01.000Z",
        final_at: "2026-11-05T03:00:09.000Z",
      },
    ]);
    expect(JSON.parse(rows[0]!.attempts!)).toEqual([]);
  });

  it("writes JSON into a file", async () => {
    const out = join(dir, "november.json");
    const r = await kios([
      "export",
      "--from",
      "2026-11-01",
      "--to",
      "2026-12-01",
      "--format",
      "json",
      "--out",
      out,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    const rows = JSON.parse(readFileSync(out, "utf8")) as { ref_id: string }[];
    expect(rows.map((x) => x.ref_id)).toEqual(["K-EXPORT-1", "K-EXPORT-2", "K-EXPORT-3"]);
  });

  it("refuses bad arguments with the usage and exit 2", async () => {
    for (const args of [
      ["export"],
      ["export", "--from", "2026-11-05"],
      ["export", "--from", "2026-11-05", "--to", "2026-11-01"],
      ["export", "--from", "2026-11-05", "--to", "2026-13-01"],
      ["export", "--from", "2026-11-01", "--to", "2026-12-01", "--format", "xml"],
    ]) {
      const r = await kios(args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: kios export --from YYYY-MM-DD --to YYYY-MM-DD");
    }
  });
});
