import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderEngine } from "../../../src/commerce/orders/engine.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createQuote } from "../../../src/commerce/orders/quotes.ts";
import {
  createSupplierReportDrain,
  MAX_REPORT_ATTEMPTS,
  type SupplierReportDrain,
} from "../../../src/commerce/supplier-reports/drain.ts";
import {
  claimSupplierReports,
  storeSupplierReport,
} from "../../../src/commerce/supplier-reports/inbox.ts";
import { orders, supplierReports } from "../../../src/db/schema.ts";
import { createLeases, type Leases } from "../../../src/jobs/lease.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// stored supplier reports are drained like updates: the INSERT wakes the drain, which claims
// and acts on them; a failure is tried again later, a dead worker's claims are taken back

describe(`the supplier report drain (${testDriver})`, () => {
  let h: CommerceHarness;
  let leases: Leases;
  const drains: SupplierReportDrain[] = [];
  beforeAll(async () => {
    // pending until the test settles the supplier
    h = await bootCommerce({ sandbox: { settleDelayMs: 60 * 60_000 } });
    leases = createLeases(h.database.handle);
  });
  afterAll(async () => {
    for (const d of drains) await d.stop();
    await leases?.close();
    await h?.stop();
  });

  function drain(engine: OrderEngine = h.deps, idleMs = 60_000) {
    const d = createSupplierReportDrain({
      database: h.database.handle,
      leases,
      orders: engine,
      concurrency: 8,
      logger: h.deps.logger,
      // only a notification (or a test's own doing) wakes it
      idleMs,
      reclaimMs: 200,
    });
    drains.push(d);
    return d;
  }

  async function pendingOrder(ending: string) {
    const user = await h.newUser(50_000);
    const q = await createQuote(h.deps, {
      userId: user,
      chatId: user,
      productCode: "TSEL10",
      destination: `0812345${ending}`,
    });
    if (!q.ok) throw new Error(q.reason);
    const r = await confirmQuote(h.deps, { quoteId: q.quote.id, userId: user });
    if (!r.ok) throw new Error(r.reason);
    return r.order;
  }

  const report = (refId: string, n: string) =>
    storeSupplierReport(h.deps.db, {
      rawBody: JSON.stringify({ ref_id: refId, status: "Success", n }),
      refId,
      reportedStatus: "Success",
    });
  const rowOf = async (id: number) =>
    (await h.deps.db.select().from(supplierReports).where(eq(supplierReports.id, id)))[0];
  const statusOf = async (id: number) =>
    (await h.deps.db.select().from(orders).where(eq(orders.id, id)))[0]?.status;

  it("acts on a report the moment it is stored: its INSERT wakes the drain", async () => {
    const d = drain();
    await d.start();
    const order = await pendingOrder("0901");
    await h.sandbox.settleNow();
    const { id } = await report(order.refId, "a");
    await expect.poll(() => statusOf(order.id), { timeout: 10_000 }).toBe("success");
    await expect
      .poll(async () => (await rowOf(id))?.outcome, { timeout: 5_000 })
      .toBe("order success");
    expect((await rowOf(id))?.attempts).toBe(1);
    await d.stop();
  });

  it("gives a report whose acting failed back to be tried later, and abandons it after the last try", async () => {
    const order = await pendingOrder("0911");
    await h.sandbox.settleNow();
    // the order's settlement cannot be written (its transaction fails): the report waits
    const db = h.deps.db;
    const failing: OrderEngine = {
      ...h.deps,
      db: new Proxy(db, {
        get: (target, key, receiver) =>
          key === "transaction"
            ? () => Promise.reject(new Error("the database is down for writes"))
            : Reflect.get(target, key, receiver),
      }),
    };
    const { id } = await report(order.refId, "b");
    const d = drain(failing, 50);
    await d.start();
    await expect.poll(async () => (await rowOf(id))?.error, { timeout: 10_000 }).toContain("down");
    const row = await rowOf(id);
    expect(row?.processedAt).toBeNull();
    expect(row?.claimedBy).toBeNull();
    await d.stop();
    // its tries used up: the order's own checks settle it, the report is closed
    await h.deps.db
      .update(supplierReports)
      .set({ attempts: MAX_REPORT_ATTEMPTS, claimedUntil: null })
      .where(eq(supplierReports.id, id));
    const last = drain(failing, 50);
    await last.start();
    await expect
      .poll(async () => (await rowOf(id))?.outcome, { timeout: 10_000 })
      .toMatch(/^abandoned/);
    await last.stop();
  });

  it("takes back the claims of a worker whose lease is gone, and acts on them", async () => {
    const order = await pendingOrder("0921");
    await h.sandbox.settleNow();
    const { id } = await report(order.refId, "c");
    // a worker claimed it, then died: its claim would hold for two minutes
    const [claimed] = await claimSupplierReports(h.deps.db, {
      worker: "dead-worker",
      limit: 10,
      leaseMs: 120_000,
      firstSupplier: "main",
    });
    expect(claimed?.id).toBe(id);
    const d = drain();
    await d.start();
    await expect.poll(() => statusOf(order.id), { timeout: 10_000 }).toBe("success");
    expect((await rowOf(id))?.attempts).toBe(2);
    await d.stop();
  });

  it("two drains act on each report once", async () => {
    const placed = await Promise.all(["0931", "0932", "0933", "0934", "0935"].map(pendingOrder));
    await h.sandbox.settleNow();
    const a = drain();
    const b = drain();
    await Promise.all([a.start(), b.start()]);
    const ids = await Promise.all(placed.map((o, i) => report(o.refId, `d${i}`)));
    for (const o of placed) {
      await expect.poll(() => statusOf(o.id), { timeout: 10_000 }).toBe("success");
    }
    for (const { id } of ids) {
      await expect
        .poll(async () => (await rowOf(id))?.outcome, { timeout: 5_000 })
        .toBe("order success");
      expect((await rowOf(id))?.attempts).toBe(1);
    }
    await Promise.all([a.stop(), b.stop()]);
  });
});
