import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../src/commerce/orders/place.ts";
import { createQuote } from "../src/commerce/orders/quotes.ts";
import { upsertUser } from "../src/commerce/users.ts";
import { creditWallet, walletBalance } from "../src/commerce/wallet/ledger.ts";
import { orders, supplierCallbacks } from "../src/db/schema.ts";
import { bootApp, type TestApp } from "./helpers/app.ts";
import { testDriver } from "./helpers/db.ts";

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`the whole app with its embedded sandbox (${testDriver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp();
  });
  afterAll(() => t.stop());

  it("syncs the sandbox catalogue at start", async () => {
    const { rows } = await t.app.database.executeSql("select count(*)::int as n from products");
    expect(Number(rows[0]?.n)).toBeGreaterThan(5000);
    expect(t.app.supplier?.description).toMatch(/^embedded sandbox at http:\/\/127\.0\.0\.1:/);
  });

  it("settles a pending order from the supplier's callback, over HTTP, through the job runner", async () => {
    const deps = t.app.orders!;
    await upsertUser(deps.db, { telegramId: 4242, firstName: "Ayu" });
    await creditWallet(deps.db, { userId: 4242, amount: 100_000, key: "seed:4242" });
    const q = await createQuote(deps, {
      userId: 4242,
      chatId: 4242,
      productCode: "TSEL10",
      destination: "081234560903",
    });
    if (!q.ok) throw new Error(q.reason);
    const placed = await confirmQuote(deps, { quoteId: q.quote.id, userId: 4242 });
    if (!placed.ok) throw new Error(placed.reason);
    expect(placed.order.status).toBe("pending");

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
    expect(await walletBalance(deps.db, 4242)).toBe(100_000 - q.quote.price);

    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/kios_supplier_callbacks_total\{result="accepted"\} [1-9]/);
    expect(metrics).toMatch(/kios_orders\{status="success"\} 1/);
  });
});
