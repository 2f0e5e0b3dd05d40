import { signCallback } from "@kios/kit";
import { DEFAULT_SANDBOX_CREDENTIALS } from "@kios/supplier-sandbox";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createQuote } from "../../../src/commerce/orders/quotes.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { processSupplierReport } from "../../../src/commerce/supplier-reports/inbox.ts";
import { createSupplierReportRoute } from "../../../src/commerce/supplier-reports/route.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { orders, supplierReports } from "../../../src/db/schema.ts";
import { createServer } from "../../../src/server/create-server.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

const SECRET = DEFAULT_SANDBOX_CREDENTIALS.secretKey;

describe(`supplier callbacks (${testDriver})`, () => {
  let h: CommerceHarness;
  let app: ReturnType<typeof createServer>;
  const stored: number[] = [];
  beforeAll(async () => {
    // pending orders stay pending until a test settles them
    h = await bootCommerce({ sandbox: { settleDelayMs: 60 * 60_000 } });
    app = createServer({
      logger: h.deps.logger,
      health: async () => ({ ok: true, checks: {} }),
      routes: [
        createSupplierReportRoute({
          db: h.deps.db,
          secretKey: SECRET,
          clock: h.clock,
          logger: h.deps.logger,
          onStored: async (id) => {
            stored.push(id);
          },
        }),
      ],
    });
  });
  afterAll(() => h.stop());

  function post(body: string, headers: Record<string, string>) {
    return app.request("/supplier/callback", {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    });
  }

  function signed(body: string, at = Math.floor(h.clock.now() / 1000), secret: string = SECRET) {
    return post(body, {
      "x-callback-timestamp": String(at),
      "x-callback-signature": signCallback(secret, at, body),
    });
  }

  const orderBody = (refId: string, status: string, sn: string | null) =>
    JSON.stringify({
      event: "transaction.final",
      data: {
        ref_id: refId,
        status,
        customer_no: "081234560903",
        code: "TSEL10",
        name: "Telkomsel 10.000",
        price: 10_300,
        sn,
        created_at: "2026-11-22 10:00:00",
      },
    });

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
    expect(r.order.status).toBe("pending");
    return { order: r.order, user, price: q.quote.price };
  }

  it("stores a signed callback once and answers 200; a repeat is a 200 duplicate", async () => {
    const body = orderBody("KNOPE1", "Success", "SN1");
    const first = await signed(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, duplicate: false });
    const again = await signed(body);
    expect(await again.json()).toEqual({ ok: true, duplicate: true });
    const rows = await h.deps.db
      .select()
      .from(supplierReports)
      .where(eq(supplierReports.refId, "KNOPE1"));
    expect(rows).toHaveLength(1);
    expect(stored).toContain(rows[0]!.id);
  });

  it("a signed report with a NUL (escaped or raw) is refused with 400 and nothing is stored", async () => {
    // PostgreSQL stores no NUL in text: before, the store failed and the supplier got a 500
    // for ever (it retries what is not answered 2xx)
    const escaped = orderBody("KNUL\u0000X", "Success", "SN-NUL");
    const raw = orderBody("KNULRAW", "Success", "SN\u0000RAW").replace("\\u0000", "\u0000");
    expect(raw).toContain("\u0000");
    for (const body of [escaped, raw]) {
      const res = await signed(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "malformed_callback" });
    }
    const stored = await h.deps.db.select({ refId: supplierReports.refId }).from(supplierReports);
    expect(stored.map((r) => r.refId).filter((r) => r.startsWith("KNUL"))).toEqual([]);
  });

  it("refuses forged, unsigned and stale callbacks with 401, and malformed ones with 400", async () => {
    const body = orderBody("KFORGED", "Success", "SN");
    expect((await signed(body, undefined, "wrong-secret")).status).toBe(401);
    expect((await post(body, {})).status).toBe(401);
    const stale = Math.floor(h.clock.now() / 1000) - 301;
    expect((await signed(body, stale)).status).toBe(401);
    // far enough ahead that the time the request takes to arrive (the clock runs) never
    // brings it back inside the 300 s tolerance: +301 from the second's floor did, on a busy
    // machine, once the floor's fraction and the request's trip passed a second
    const future = Math.floor(h.clock.now() / 1000) + 310;
    expect((await signed(body, future)).status).toBe(401);
    // a valid signature over a different body
    const at = Math.floor(h.clock.now() / 1000);
    const tampered = await post(body.replace("Success", "Failed"), {
      "x-callback-timestamp": String(at),
      "x-callback-signature": signCallback(SECRET, at, body),
    });
    expect(tampered.status).toBe(401);
    expect((await signed("not json")).status).toBe(400);
    expect((await signed(JSON.stringify({ event: "x" }))).status).toBe(400);
    const rows = await h.deps.db
      .select()
      .from(supplierReports)
      .where(eq(supplierReports.refId, "KFORGED"));
    expect(rows).toEqual([]);
  });

  it("a callback is evidence, not truth: a signed 'Success' for a still-pending order moves nothing", async () => {
    const { order, user, price } = await pendingOrder("1111");
    const res = await signed(orderBody(order.refId, "Success", "FAKE-SN"));
    expect(res.status).toBe(200);
    const [row] = await h.deps.db
      .select()
      .from(supplierReports)
      .where(eq(supplierReports.refId, order.refId));
    // processed (the supplier asked), and the supplier's /v1/status still says pending
    expect(await processSupplierReport(h.deps, row!.id)).toBe("order pending");
    const [after] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after?.status).toBe("pending");
    expect(after?.sn).toBeNull();
    expect(await walletBalance(h.deps.db, user)).toBe(50_000 - price);
  });

  it("a true callback, once confirmed by status, settles the order; a late duplicate changes nothing", async () => {
    const { order, user } = await pendingOrder("0903");
    await h.sandbox.settleNow();
    const body = orderBody(order.refId, "Success", "whatever");
    await signed(body);
    const [row] = await h.deps.db
      .select()
      .from(supplierReports)
      .where(eq(supplierReports.refId, order.refId));
    expect(await processSupplierReport(h.deps, row!.id)).toBe("order success");
    const [after] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after?.status).toBe("success");
    // the sandbox's own sn, from status, not the callback's
    expect(after?.sn).not.toBe("whatever");
    const balance = await walletBalance(h.deps.db, user);
    const stale = await signed(orderBody(order.refId, "Pending", null));
    expect(stale.status).toBe(200);
    // the stale callback is processed like any other, and moves nothing
    const [staleRow] = await h.deps.db
      .select()
      .from(supplierReports)
      .where(
        and(eq(supplierReports.refId, order.refId), eq(supplierReports.reportedStatus, "pending")),
      );
    expect(staleRow).toBeDefined();
    expect(await processSupplierReport(h.deps, staleRow!.id)).toBe("order success");
    const [again] = await h.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(again).toMatchObject({ status: "success", sn: after?.sn, finalAt: after?.finalAt });
    expect(await walletBalance(h.deps.db, user)).toBe(balance);
  });

  it("a report that agrees with how its order settled asks the supplier nothing; one that disagrees is checked", async () => {
    const { order } = await pendingOrder("1277");
    await h.sandbox.settleNow();
    // settled by its own status check first
    expect((await resolveOrder(h.deps, order.id))?.status).toBe("success");
    let asked = 0;
    const counting = {
      ...h.deps,
      supplier: {
        ...h.supplier,
        status: (refId: string) => {
          asked += 1;
          return h.supplier.status(refId);
        },
      },
    };
    const reportOf = async (status: string) => {
      await signed(orderBody(order.refId, status, null));
      const [row] = await h.deps.db
        .select()
        .from(supplierReports)
        .where(
          and(
            eq(supplierReports.refId, order.refId),
            eq(supplierReports.reportedStatus, status === "Success" ? "success" : "failed"),
          ),
        );
      return row!.id;
    };
    expect(await processSupplierReport(counting, await reportOf("Success"))).toBe("order success");
    expect(asked).toBe(0);
    // "failed" for an order that succeeded: the supplier's own word is read
    expect(await processSupplierReport(counting, await reportOf("Failed"))).toBe("order success");
    expect(asked).toBe(1);
  });

  it("a callback for a ref_id kios never made is recorded and ignored", async () => {
    await signed(orderBody("KSTRANGER", "Success", "SN"));
    const [row] = await h.deps.db
      .select()
      .from(supplierReports)
      .where(eq(supplierReports.refId, "KSTRANGER"));
    expect(await processSupplierReport(h.deps, row!.id)).toBe("unknown_ref_id");
  });

  it("refuses an oversized body with 413", async () => {
    const res = await signed("x".repeat(70 * 1024));
    expect(res.status).toBe(413);
  });
});
