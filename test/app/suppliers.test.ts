import { hubSignature } from "@kios/digiflazz-sandbox";
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

describe(`the playground's two sandbox suppliers (${testDriver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ sandboxes: 2 });
  });
  afterAll(() => t?.stop());

  it("runs the seed-protocol sandbox first and a Digiflazz sandbox as its backup", async () => {
    const [first, second] = t.app.suppliers!.all;
    expect([first!.name, second!.name]).toEqual(["main", "backup"]);
    expect(second!.supplier.interface).toBe("digiflazz");
    expect(second!.digiflazzSandbox).toBeDefined();
    expect(second!.reportSecret).not.toBe(first!.reportSecret);
  });

  it("buys a product the main sandbox refuses from the Digiflazz backup, in one confirmation", async () => {
    const [main, backup] = t.app.suppliers!.all;
    const deps = t.app.orders!;
    await upsertUser(deps.db, { telegramId: 5151, firstName: "Budi" });
    await creditWallet(deps.db, { userId: 5151, amount: 100_000, key: "seed:5151" });
    const q = await createQuote(deps, {
      userId: 5151,
      chatId: 5151,
      productCode: "TSEL10",
      destination: "081234560901",
    });
    if (!q.ok) throw new Error(q.reason);
    // kios's catalogue says active; the main supplier refuses it at the order
    main!.sandbox!.setActive("TSEL10", false);
    const placed = await confirmQuote(deps, { quoteId: q.quote.id, userId: 5151 });
    if (!placed.ok) throw new Error(placed.reason);
    expect(placed.order).toMatchObject({
      status: "success",
      supplier: "backup",
      routeCode: "tsel10",
    });
    expect(await walletBalance(deps.db, 5151)).toBe(100_000 - q.quote.price);
    const sent = backup!.digiflazzSandbox!.state.requests;
    expect(sent).toMatchObject([{ ref_id: placed.order.refId, max_price: q.quote.price }]);
    expect(main!.sandbox!.transactions()).toHaveLength(0);
  });

  it("takes the Digiflazz backup's webhook on its own path, verified by X-Hub-Signature", async () => {
    const [first, second] = t.app.suppliers!.all;
    expect(first!.sandbox!.account().callbackUrl).toBe(`${t.baseUrl}/supplier/callback`);
    const raw = JSON.stringify({
      data: {
        ref_id: "DF-HOOK-1",
        customer_no: "0812",
        buyer_sku_code: "tsel10",
        status: "Sukses",
        rc: "00",
        price: 10_000,
        sn: "SN",
      },
    });
    const send = (signature?: string) =>
      fetch(`${t.baseUrl}/supplier/backup/callback`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(signature ? { "x-hub-signature": signature } : {}),
        },
        body: raw,
      });
    expect((await send()).status).toBe(401);
    expect((await send(hubSignature("not-the-secret", raw))).status).toBe(401);
    const ok = await send(hubSignature(second!.reportSecret, raw));
    expect(ok.status).toBe(200);
    expect(await (await send(hubSignature(second!.reportSecret, raw))).json()).toMatchObject({
      duplicate: true,
    });
    const rows = await t.app
      .orders!.db.select()
      .from(supplierReports)
      .where(eq(supplierReports.refId, "DF-HOOK-1"));
    expect(rows.map((r) => [r.supplier, r.reportedStatus])).toEqual([["backup", "success"]]);
  });
});
