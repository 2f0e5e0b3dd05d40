import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../src/commerce/orders/place.ts";
import { createQuote } from "../src/commerce/orders/quotes.ts";
import { upsertUser } from "../src/commerce/users.ts";
import { creditWallet, walletBalance } from "../src/commerce/wallet/ledger.ts";
import { orders, supplierCallbacks } from "../src/db/schema.ts";
import { DEFAULT_SANDBOX_CREDENTIALS } from "../src/sandbox/index.ts";
import { bootApp, type TestApp } from "./helpers/app.ts";
import { testDriver } from "./helpers/db.ts";

// the whole app with SUPPLIER_INTERFACE=key and its embedded sandbox: the catalogue syncs
// through GET /v1/products, an order goes out as POST /v1/transaction, and the sandbox's
// callback (signed the same way as for the signature interface) settles it.

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`the whole app over the key interface (${testDriver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ env: { SUPPLIER_INTERFACE: "key" } });
  });
  afterAll(() => t.stop());

  it("speaks the key interface to its embedded sandbox and syncs the catalogue", async () => {
    expect(t.app.supplier?.supplier.interface).toBe("key");
    expect(t.app.supplier?.sandbox).toBeDefined();
    const { rows } = await t.app.database.executeSql("select count(*)::int as n from products");
    expect(Number(rows[0]?.n)).toBeGreaterThan(5000);
  });

  it("settles a pending order from the supplier's callback, over HTTP, through the job runner", async () => {
    const deps = t.app.orders!;
    await upsertUser(deps.db, { telegramId: 4343, firstName: "Budi" });
    await creditWallet(deps.db, { userId: 4343, amount: 100_000, key: "seed:4343" });
    const q = await createQuote(deps, {
      userId: 4343,
      chatId: 4343,
      productCode: "TSEL10",
      destination: "081234560903",
    });
    if (!q.ok) throw new Error(q.reason);
    const placed = await confirmQuote(deps, { quoteId: q.quote.id, userId: 4343 });
    if (!placed.ok) throw new Error(placed.reason);
    expect(placed.order.status).toBe("pending");
    expect(placed.order.supplierCode).toBe("03");

    const callback = await until(async () => {
      const [row] = await deps.db
        .select()
        .from(supplierCallbacks)
        .where(eq(supplierCallbacks.refId, placed.order.refId));
      return row?.processedAt ? row : undefined;
    });
    expect(callback.outcome).toBe("order success");
    const [order] = await deps.db.select().from(orders).where(eq(orders.id, placed.order.id));
    expect(order?.status).toBe("success");
    expect(order?.sn).toBeTruthy();
    expect(await walletBalance(deps.db, 4343)).toBe(100_000 - q.quote.price);

    // it went out through the key interface: the sandbox holds it, charged once
    const sandbox = t.app.supplier!.sandbox!;
    expect(sandbox.transactions().filter((s) => s.refId === placed.order.refId)).toMatchObject([
      { status: "success", charged: expect.any(Number) },
    ]);
    const logs = t.logs();
    expect(logs).toContain('"endpoint":"POST /v1/transaction"');
    expect(logs).not.toContain('"path":"/order"');
    expect(logs).not.toContain(`Bearer ${DEFAULT_SANDBOX_CREDENTIALS.apiKey}`);
  });
});
