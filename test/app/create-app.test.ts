import { DEFAULT_SANDBOX_CREDENTIALS } from "@kios/supplier-sandbox";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../src/commerce/orders/place.ts";
import { createQuote } from "../../src/commerce/orders/quotes.ts";
import { checkSupplierBalance } from "../../src/commerce/reconciliation/balance-check.ts";
import { upsertUser } from "../../src/commerce/users.ts";
import { creditWallet, walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { orders, supplierReports } from "../../src/db/schema.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";

// the whole app with its embedded sandbox, once per SUPPLIER_INTERFACE: the catalogue
// syncs, an order goes out over that interface, and the sandbox's callback (signed the
// same way for both) settles it.

/** how each interface shows on the wire: the pending answer's code and the order call's log */
const WIRE = {
  signature: {
    pendingCode: "ORDER_PENDING",
    orderCall: '"path":"/order"',
    otherCall: '"endpoint":"POST /v1/transaction"',
  },
  key: {
    pendingCode: "03",
    orderCall: '"endpoint":"POST /v1/transaction"',
    otherCall: '"path":"/order"',
  },
} as const;

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(["signature", "key"] as const)(
  `the whole app over the %s interface, with its embedded sandbox (${testDriver})`,
  (supplierInterface) => {
    const wire = WIRE[supplierInterface];
    let t: TestApp;
    beforeAll(async () => {
      t = await bootApp({ env: { SUPPLIER_INTERFACE: supplierInterface, METRICS_PORT: "0" } });
    });
    afterAll(() => t.stop());

    it("speaks its interface to the embedded sandbox and syncs the catalogue at start", async () => {
      expect(t.app.supplier?.supplier.interface).toBe(supplierInterface);
      expect(t.app.supplier?.sandbox).toBeDefined();
      expect(t.app.supplier?.description).toMatch(/^embedded sandbox at http:\/\/127\.0\.0\.1:/);
      const { rows } = await t.app.database.executeSql("select count(*)::int as n from products");
      expect(Number(rows[0]?.n)).toBeGreaterThan(5000);
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
      expect(placed.order.supplierCode).toBe(wire.pendingCode);

      const callback = await until(async () => {
        const [row] = await deps.db
          .select()
          .from(supplierReports)
          .where(eq(supplierReports.refId, placed.order.refId));
        return row?.processedAt ? row : undefined;
      });
      expect(callback.outcome).toBe("order success");
      const [order] = await deps.db.select().from(orders).where(eq(orders.id, placed.order.id));
      expect(order?.status).toBe("success");
      expect(order?.sn).toBeTruthy();
      expect(await walletBalance(deps.db, 4242)).toBe(100_000 - q.quote.price);

      // it went out over this interface: the sandbox holds it, charged once
      const sandbox = t.app.supplier!.sandbox!;
      expect(sandbox.transactions().filter((s) => s.refId === placed.order.refId)).toMatchObject([
        { status: "success", charged: expect.any(Number) },
      ]);
      const logs = t.logs();
      expect(logs).toContain(wire.orderCall);
      expect(logs).not.toContain(wire.otherCall);
      expect(logs).not.toContain(`Bearer ${DEFAULT_SANDBOX_CREDENTIALS.apiKey}`);

      const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
      expect(metrics).toMatch(/kios_supplier_reports_total\{result="accepted"\} [1-9]/);
      // counted as the order moved, in this process: sent, then settled
      expect(metrics).toMatch(/^kios_orders_total\{status="submitted"\} 1$/m);
      expect(metrics).toMatch(/^kios_orders_total\{status="success"\} 1$/m);
      expect(metrics).not.toMatch(/kios_orders_total\{status="failed"\}/);
      expect(metrics).toMatch(/^kios_open_orders\{status="pending"\} 0$/m);
      expect(metrics).toMatch(/kios_order_latency_seconds_count\{status="success"\} 1/);
    });

    it("counts supplier errors by code, and shows the last balance check", async () => {
      const deps = t.app.orders!;
      // a bill with nothing due: the supplier refuses the inquiry
      await expect(
        deps.supplier.inquiry({ code: "PLNPOST", customerNo: "123456789019", refId: "X-1" }),
      ).rejects.toThrow();
      await checkSupplierBalance({ db: deps.db, supplier: deps.supplier, clock: deps.clock });
      const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
      expect(metrics).toMatch(/kios_supplier_errors_total\{code="[A-Z_0-9]+"\} 1/);
      expect(metrics).toMatch(/kios_supplier_balance_rupiah [1-9]\d*/);
      expect(metrics).toMatch(/kios_reconciliation_drift_rupiah 0/);
      expect(metrics).toMatch(/kios_reconciliation_last_check_timestamp_seconds \d/);
    });

    it("counts the statements it sends to PostgreSQL", async () => {
      const read = async () => {
        const text = await (await fetch(`${t.metricsUrl}/metrics`)).text();
        const m = /^kios_db_statements_total (\d+)$/m.exec(text);
        return m ? Number(m[1]) : undefined;
      };
      const before = await read();
      if (t.app.database.kind === "pglite") {
        // in-process: nothing to count
        expect(before).toBeUndefined();
        return;
      }
      expect(before).toBeGreaterThan(0);
      await t.app.orders!.db.execute(sql`select 1`);
      expect(await read()).toBeGreaterThanOrEqual(before! + 1);
    });
  },
);
