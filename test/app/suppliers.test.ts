import { signCallback } from "@kios/kit";
import { type RunningSandbox, startSandbox } from "@kios/supplier-sandbox";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../src/commerce/orders/place.ts";
import { createQuote } from "../../src/commerce/orders/quotes.ts";
import { upsertUser } from "../../src/commerce/users.ts";
import { creditWallet, walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { supplierReports } from "../../src/db/schema.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";

// several suppliers configured by environment: each one's reports on a path of its own,
// verified with its own secret, stored with its name; the start-up log lists them

const MAIN = { apiId: "MAIN-ID", apiKey: "main-api-key-1", secretKey: "main-secret-key-1" };
const BACKUP = { apiId: "BACKUP-ID", apiKey: "backup-api-key-1", secretKey: "backup-secret-key-1" };

async function sandboxFor(creds: typeof MAIN, seed: number) {
  return startSandbox({
    port: 0,
    hostname: "127.0.0.1",
    seed,
    accounts: [
      {
        apiId: creds.apiId,
        keys: [{ apiKey: creds.apiKey, secretKey: creds.secretKey }],
        balance: 1_000_000,
      },
    ],
  });
}

const reportBody = (refId: string) =>
  JSON.stringify({
    event: "transaction.final",
    data: {
      ref_id: refId,
      status: "Success",
      customer_no: "081234560903",
      code: "TSEL10",
      name: "Telkomsel 10.000",
      price: 10_300,
      sn: "SN1",
      created_at: "2026-11-22 10:00:00",
    },
  });

describe(`several suppliers (${testDriver})`, () => {
  let main: RunningSandbox;
  let backup: RunningSandbox;
  let t: TestApp;
  beforeAll(async () => {
    main = await sandboxFor(MAIN, 1);
    backup = await sandboxFor(BACKUP, 2);
    t = await bootApp({
      env: {
        SUPPLIER_BASE_URL: main.url,
        SUPPLIER_API_ID: MAIN.apiId,
        SUPPLIER_API_KEY: MAIN.apiKey,
        SUPPLIER_SECRET_KEY: MAIN.secretKey,
        SUPPLIER_2_BASE_URL: backup.url,
        SUPPLIER_2_API_ID: BACKUP.apiId,
        SUPPLIER_2_API_KEY: BACKUP.apiKey,
        SUPPLIER_2_SECRET_KEY: BACKUP.secretKey,
        SUPPLIER_2_NAME: "backup",
      },
    });
  });
  afterAll(async () => {
    await t?.stop();
    await main?.close();
    await backup?.close();
  });

  function post(path: string, body: string, secret: string) {
    const at = Math.floor(Date.now() / 1000);
    return fetch(`${t.baseUrl}${path}`, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-callback-timestamp": String(at),
        "x-callback-signature": signCallback(secret, at, body),
      },
    });
  }

  async function storedSupplier(refId: string) {
    const rows = await t.app.database.db
      .select({ supplier: supplierReports.supplier })
      .from(supplierReports)
      .where(eq(supplierReports.refId, refId));
    return rows.map((r) => r.supplier);
  }

  it("builds one registry of them, the first first, each a client of its own", async () => {
    const registry = t.app.suppliers!;
    expect(registry.all.map((s) => [s.name, s.reportPath])).toEqual([
      ["main", "/supplier/callback"],
      ["backup", "/supplier/backup/callback"],
    ]);
    expect(registry.first).toBe(t.app.supplier);
    expect(registry.get("backup")?.sandbox).toBeUndefined();
    // each client talks to its own supplier with its own credentials
    expect(await registry.get("main")!.supplier.balance()).toMatchObject({ balance: 1_000_000 });
    backup.account(BACKUP.apiId).setBalance(777_000);
    expect(await registry.get("backup")!.supplier.balance()).toMatchObject({ balance: 777_000 });
  });

  it("lists them in the start-up log, without their secrets", () => {
    const logs = t.logs();
    expect(logs).toContain("suppliers: main, backup");
    expect(logs).toContain("/supplier/backup/callback");
    for (const secret of [MAIN.apiKey, MAIN.secretKey, BACKUP.apiKey, BACKUP.secretKey]) {
      expect(logs).not.toContain(secret);
    }
  });

  it("takes the backup's reports on its own path, signed with its own secret", async () => {
    const ok = await post("/supplier/backup/callback", reportBody("R-BACKUP-1"), BACKUP.secretKey);
    expect(ok.status).toBe(200);
    expect(await storedSupplier("R-BACKUP-1")).toEqual(["backup"]);
  });

  it("refuses a report signed with another supplier's secret, on either path", async () => {
    const wrongOnBackup = await post(
      "/supplier/backup/callback",
      reportBody("R-CROSS-1"),
      MAIN.secretKey,
    );
    expect(wrongOnBackup.status).toBe(401);
    const wrongOnMain = await post("/supplier/callback", reportBody("R-CROSS-2"), BACKUP.secretKey);
    expect(wrongOnMain.status).toBe(401);
    expect(await storedSupplier("R-CROSS-1")).toEqual([]);
    expect(await storedSupplier("R-CROSS-2")).toEqual([]);
  });

  it("keeps the first supplier's path, its reports stored with its name", async () => {
    const ok = await post("/supplier/callback", reportBody("R-MAIN-1"), MAIN.secretKey);
    expect(ok.status).toBe(200);
    expect(await storedSupplier("R-MAIN-1")).toEqual(["main"]);
  });

  it("has no path for a supplier it does not know", async () => {
    const res = await post("/supplier/nobody/callback", reportBody("R-X"), BACKUP.secretKey);
    expect(res.status).toBe(404);
  });
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`the playground's two sandbox suppliers (${testDriver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ sandboxes: 2 });
  });
  afterAll(() => t?.stop());

  it("runs a main and a backup sandbox with other codes, prices and credentials", async () => {
    const [first, second] = t.app.suppliers!.all;
    expect([first!.name, second!.name]).toEqual(["main", "backup"]);
    expect(first!.sandbox!.url).not.toBe(second!.sandbox!.url);
    const theirs = second!.sandbox!.catalogue();
    expect(theirs.find((p) => p.code === "BTSEL10")?.status).toBe("active");
    // what the main sandbox has inactive the backup sells, and the reverse
    expect(first!.sandbox!.catalogue().find((p) => p.code === "ISAT1000")?.status).toBe("inactive");
    expect(theirs.find((p) => p.code === "BISAT1000")?.status).toBe("active");
    expect(theirs.find((p) => p.code === "BTSEL5")?.status).toBe("inactive");
    expect(second!.reportSecret).not.toBe(first!.reportSecret);
  });

  it("buys a product the main sandbox refuses from the backup, its report settling it", async () => {
    const [main, backup] = t.app.suppliers!.all;
    const deps = t.app.orders!;
    await upsertUser(deps.db, { telegramId: 5151, firstName: "Budi" });
    await creditWallet(deps.db, { userId: 5151, amount: 100_000, key: "seed:5151" });
    const q = await createQuote(deps, {
      userId: 5151,
      chatId: 5151,
      productCode: "TSEL10",
      destination: "081234560903",
    });
    if (!q.ok) throw new Error(q.reason);
    // kios's catalogue says active; the main supplier refuses it at the order
    main!.sandbox!.setActive("TSEL10", false);
    const placed = await confirmQuote(deps, { quoteId: q.quote.id, userId: 5151 });
    if (!placed.ok) throw new Error(placed.reason);
    expect(placed.order).toMatchObject({ status: "pending", supplier: "backup" });
    // the backup's report arrives on its own path, signed with its own secret, and settles it
    const report = await until(async () => {
      const [row] = await deps.db
        .select()
        .from(supplierReports)
        .where(eq(supplierReports.refId, placed.order.refId));
      return row?.processedAt ? row : undefined;
    });
    expect(report).toMatchObject({ supplier: "backup", outcome: "order success" });
    expect(await walletBalance(deps.db, 5151)).toBe(100_000 - q.quote.price);
    expect(backup!.sandbox!.transactions()).toMatchObject([{ status: "success", code: "BTSEL10" }]);
    expect(main!.sandbox!.transactions()).toHaveLength(0);
  });

  it("points each sandbox's reports at its own path", () => {
    const [first, second] = t.app.suppliers!.all;
    expect(first!.sandbox!.account().callbackUrl).toBe(`${t.baseUrl}/supplier/callback`);
    expect(second!.sandbox!.account().callbackUrl).toBe(`${t.baseUrl}/supplier/backup/callback`);
  });
});
