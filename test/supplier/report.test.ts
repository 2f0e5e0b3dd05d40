import { describe, expect, it } from "vitest";
import { parseSupplierReport } from "../../src/supplier/report.ts";
import { SupplierError } from "../../src/supplier/types.ts";

const orderResult = {
  ref_id: "K01JCALLBACK00000000000001",
  status: "Success",
  customer_no: "081234567903",
  code: "TSEL10",
  name: "Telkomsel 10.000",
  price: 10150,
  sn: "1234-5678-9012",
  created_at: "2026-01-01 10:00:00",
  extra: "ignored",
};

const billResult = {
  ref_id: "K01JCALLBACK00000000000002",
  status: "failed",
  customer_no: "530012345670",
  customer_name: "SITI",
  code: "PLNPOST",
  tagihan: 100000,
  admin: 2500,
  total: 102500,
  sn: null,
  created_at: "2026-01-01 10:00:00",
};

describe("parseSupplierReport", () => {
  it("reads an order result", () => {
    const parsed = parseSupplierReport(
      JSON.stringify({ event: "transaction.final", data: orderResult }),
    );
    expect(parsed.event).toBe("transaction.final");
    expect(parsed.transaction).toEqual({
      kind: "order",
      refId: orderResult.ref_id,
      status: "success",
      customerNo: orderResult.customer_no,
      code: "TSEL10",
      name: "Telkomsel 10.000",
      price: 10150,
      sn: "1234-5678-9012",
      createdAt: "2026-01-01 10:00:00",
      supplierCode: "ORDER_SUCCESS",
      message: "",
    });
  });

  it("reads a failed order's reason; an unknown one is none", () => {
    const failed = (reason: unknown) =>
      parseSupplierReport(
        JSON.stringify({
          event: "transaction.final",
          data: { ...orderResult, status: "Failed", sn: null, reason },
        }),
      ).transaction;
    expect(failed("PRODUCT_DISRUPTED").reason).toBe("PRODUCT_DISRUPTED");
    expect(failed("gangguan").reason).toBeUndefined();
    expect(failed(null).reason).toBeUndefined();
  });

  it("reads a bill payment result (told apart by tagihan and the lowercase status)", () => {
    const parsed = parseSupplierReport(
      JSON.stringify({ event: "transaction.final", data: billResult }),
    );
    expect(parsed.transaction).toMatchObject({
      kind: "bill",
      status: "failed",
      price: 102500,
      supplierCode: "BILL_PAYMENT_FAILED",
      bill: { customerName: "SITI", tagihan: 100000, admin: 2500, total: 102500 },
    });
    const { tagihan, admin, total, ...bare } = billResult;
    expect(
      parseSupplierReport(JSON.stringify({ event: "transaction.final", data: bare })).transaction
        .kind,
    ).toBe("bill");
  });

  const MALFORMED: [string, string][] = [
    ["not JSON", "{"],
    ["no event", JSON.stringify({ data: orderResult })],
    ["no data", JSON.stringify({ event: "transaction.final" })],
    ["data not an object", JSON.stringify({ event: "transaction.final", data: [orderResult] })],
    ["no ref_id", JSON.stringify({ event: "x", data: { ...orderResult, ref_id: undefined } })],
    ["no status", JSON.stringify({ event: "x", data: { ...orderResult, status: undefined } })],
    ["an unknown status", JSON.stringify({ event: "x", data: { ...orderResult, status: "Done" } })],
    [
      "a pending order without price",
      JSON.stringify({ event: "x", data: { ref_id: "K1", status: "Pending" } }),
    ],
    [
      "a paid bill without amounts",
      JSON.stringify({ event: "x", data: { ref_id: "K1", status: "success" } }),
    ],
    ["a number", "42"],
  ];
  for (const [name, body] of MALFORMED) {
    it(`throws BAD_RESPONSE on ${name}`, () => {
      let caught: unknown;
      try {
        parseSupplierReport(body);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(SupplierError);
      expect((caught as SupplierError).code).toBe("BAD_RESPONSE");
    });
  }
});
