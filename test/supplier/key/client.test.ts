import { ManualClock } from "@kios/kit";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger.ts";
import { createKeySupplier, type KeySupplierOptions } from "../../../src/supplier/key/client.ts";
import {
  type SubmitOutcome,
  SupplierError,
  type SupplierErrorCode,
} from "../../../src/supplier/types.ts";
import { memorySink } from "../../helpers/app.ts";
import { type Stub, type StubReply, type StubRequest, startStub } from "../stub-server.ts";

// the key-based adapter against a scripted stub: what goes on the wire, what each rc
// means, what is retried (reads) and what never is (transactions), and that the key
// never leaks.

const API_KEY = "ak_live_7d31_SECRET_KEY";
const START = Date.UTC(2026, 0, 1, 3, 0, 0);

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

type Handler = (request: StubRequest, index: number) => StubReply | Promise<StubReply>;

async function setup(handler: Handler, options: Partial<KeySupplierOptions> = {}) {
  stub = await startStub(handler);
  const clock = new ManualClock({ start: START, frozen: true });
  const supplier = createKeySupplier({
    baseUrl: stub.url,
    apiKey: API_KEY,
    clock,
    timeoutMs: 2000,
    retryBaseMs: 1,
    ...options,
  });
  return { supplier, stub, clock };
}

/** the key interface's envelope */
const keyReply = (
  rc: string,
  data: unknown = null,
  status = 200,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): StubReply => ({
  status,
  json: {
    status: rc === "00" ? "success" : rc === "03" ? "pending" : "failed",
    rc,
    message: `rc ${rc} message`,
    data,
    ...extra,
  },
  headers,
});

const ORDER = {
  cmd: "prepaid" as const,
  code: "TSEL10",
  customerNo: "081234567901",
  refId: "K01JTEST0000000000000000001",
};
const BILL = { code: "PLNPOST", customerNo: "530012345672", refId: "K01JTEST0000000000000000002" };

function record(over: Record<string, unknown> = {}) {
  return {
    trx_id: "TRX-88121",
    ref_id: ORDER.refId,
    product_code: ORDER.code,
    product_name: "Telkomsel 10.000",
    customer_id: ORDER.customerNo,
    price: 10150,
    status: "pending",
    sn: "",
    created_at: "2026-01-01T10:00:00+07:00",
    ...over,
  };
}

function billRecord(over: Record<string, unknown> = {}) {
  return {
    trx_id: "TRX-88122",
    ref_id: BILL.refId,
    product_code: BILL.code,
    product_name: "PLN Pascabayar",
    customer_id: BILL.customerNo,
    type: "pasca",
    price: 255000,
    status: "success",
    sn: "0517-BAYAR-9981",
    created_at: "2026-01-01T03:00:00Z",
    customer_name: "BUDI SANTOSO",
    tagihan: 250000,
    admin: 5000,
    total: 255000,
    desc: { lembar_tagihan: 1, detail: [{ periode: "202512", nilai_tagihan: "250.000" }] },
    ...over,
  };
}

function expectUnknown(outcome: SubmitOutcome, code: SupplierErrorCode) {
  expect(outcome.outcome, JSON.stringify(outcome)).toBe("unknown");
  if (outcome.outcome === "unknown") expect(outcome.error?.code).toBe(code);
}

function expectRejected(outcome: SubmitOutcome, code: SupplierErrorCode) {
  expect(outcome.outcome, JSON.stringify(outcome)).toBe("rejected");
  if (outcome.outcome === "rejected") expect(outcome.error.code).toBe(code);
}

function acceptedOf(outcome: SubmitOutcome) {
  if (outcome.outcome !== "accepted")
    throw new Error(`expected accepted: ${JSON.stringify(outcome)}`);
  return outcome.transaction;
}

async function thrown(promise: Promise<unknown>): Promise<SupplierError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(SupplierError);
    return err as SupplierError;
  }
  throw new Error("expected a SupplierError");
}

describe("requests on the wire", () => {
  it("sends Authorization: Bearer and no signature; GETs carry no body", async () => {
    const { supplier, stub } = await setup((req) =>
      req.path.startsWith("/balance")
        ? keyReply("00", { balance: 1, balance_formatted: "Rp1" })
        : keyReply("03", record()),
    );
    expect(supplier.interface).toBe("key");
    await supplier.balance();
    await supplier.order(ORDER);
    const [balance, order] = stub.requests;
    expect(balance).toMatchObject({ method: "GET", path: "/balance", raw: "" });
    expect(balance!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(order!.method).toBe("POST");
    expect(order!.path).toBe("/transaction");
    expect(order!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(order!.headers["content-type"]).toBe("application/json; charset=utf-8");
    // the newer release's names only: customer_id, never phone; no api_id, timestamp, signature
    expect(order!.body).toEqual({
      product_code: "TSEL10",
      customer_id: "081234567901",
      ref_id: ORDER.refId,
    });
  });

  it("shapes every operation: paths, queries and bodies", async () => {
    const { supplier, stub } = await setup((req) => {
      if (req.path.startsWith("/balance")) return keyReply("00", { balance: 1 });
      if (req.path.startsWith("/products")) return keyReply("00", []);
      if (req.path === "/inquiry") return keyReply("00", { tagihan: 1, admin: 0, total: 1 });
      if (req.path.startsWith("/transaction?") || req.path.startsWith("/transaction/")) {
        return keyReply("50", null, 404);
      }
      return keyReply("00", billRecord());
    });
    await supplier.balance();
    await supplier.products("pasca");
    await supplier.inquiry(BILL);
    await supplier.payBill({ ...BILL, testing: true });
    await supplier.status("K-ANY/1");
    await supplier.transactionById("TRX-1");
    expect(stub.requests.map((r) => [r.method, r.path, r.raw ? r.body : null])).toEqual([
      ["GET", "/balance", null],
      ["GET", "/products?type=pasca", null],
      [
        "POST",
        "/inquiry",
        { product_code: "PLNPOST", customer_id: BILL.customerNo, ref_id: BILL.refId },
      ],
      [
        "POST",
        "/transaction",
        {
          product_code: "PLNPOST",
          customer_id: BILL.customerNo,
          ref_id: BILL.refId,
          testing: true,
        },
      ],
      ["GET", "/transaction?ref_id=K-ANY%2F1", null],
      ["GET", "/transaction/TRX-1", null],
    ]);
  });

  it("sends testing only when true", async () => {
    const { supplier, stub } = await setup(() => keyReply("03", record()));
    await supplier.order({ ...ORDER, testing: false });
    await supplier.order({ ...ORDER, testing: true });
    expect(stub.requests[0]!.body).not.toHaveProperty("testing");
    expect(stub.requests[1]!.body.testing).toBe(true);
  });

  it("completes a base URL given without /v1", async () => {
    const { stub: s } = await setup(() => keyReply("00", { balance: 5 }));
    const supplier = createKeySupplier({ baseUrl: s.url.replace(/\/v1$/, "/"), apiKey: API_KEY });
    expect((await supplier.balance()).balance).toBe(5);
    expect(s.requests[0]!.path).toBe("/balance");
  });

  it("sends nothing for an invalid ref_id, product or destination", async () => {
    const { supplier, stub } = await setup(() => keyReply("03", record()));
    const outcome = await supplier.order({ ...ORDER, refId: "x".repeat(65), customerNo: " " });
    expectRejected(outcome, "VALIDATION_ERROR");
    if (outcome.outcome === "rejected") {
      expect(Object.keys(outcome.error.details.errors ?? {})).toEqual(["ref_id", "customer_id"]);
    }
    expectRejected(await supplier.payBill({ ...BILL, code: "" }), "VALIDATION_ERROR");
    await expect(supplier.inquiry({ ...BILL, refId: "" })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    await expect(supplier.status("has space")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    for (const trxId of ["../x", "..", ""]) {
      await expect(supplier.transactionById(trxId)).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
      });
    }
    expect(stub.requests).toHaveLength(0);
  });
});

describe("reads", () => {
  it("balance → { balance, balanceFormatted }; a numeric rc is tolerated", async () => {
    const { supplier } = await setup(() => ({
      json: { status: "success", rc: 0, message: "ok", data: { balance: "5.000.000" } },
    }));
    expect(await supplier.balance()).toEqual({ balance: 5_000_000, balanceFormatted: "5000000" });
  });

  it("products: reads category, brand and desc when present, derives them when absent", async () => {
    const { supplier } = await setup(() =>
      keyReply("00", [
        {
          code: "TSEL10",
          name: "Telkomsel 10.000",
          price: 10150,
          type: "prepaid",
          status: "active",
          category: "Pulsa",
          brand: "TELKOMSEL",
          desc: "Pulsa 10rb",
          start_cut_off: "23:45",
          end_cut_off: "00:15",
        },
        // the bare record only: type is a category, the operator names the brand
        {
          code: "XLD10",
          name: "XL Data 10GB 30 hari",
          price: "25.100",
          type: "data",
          status: "active",
          operator: "XL",
        },
        { code: "ISAT5", name: "Indosat 5.000", price: 5200, type: "prepaid", status: "inactive" },
        { code: "GOPAY50", name: "GoPay 50.000", price: 51000, type: "prepaid", status: "ACTIVE" },
        { name: "no code", price: 1 },
        { code: "BAD", price: "lots" },
      ]),
    );
    const products = await supplier.products("prepaid");
    expect(products.map((p) => [p.code, p.type, p.category, p.brand, p.price, p.active])).toEqual([
      ["TSEL10", "prepaid", "Pulsa", "TELKOMSEL", 10150, true],
      ["XLD10", "prepaid", "data", "XL", 25100, true],
      ["ISAT5", "prepaid", "Pulsa", "", 5200, false],
      ["GOPAY50", "prepaid", "E-Money", "", 51000, true],
    ]);
    expect(products[0]).toMatchObject({
      desc: "Pulsa 10rb",
      startCutOff: "23:45",
      endCutOff: "00:15",
    });
  });

  it("game and pasca products without a category get Games and Tagihan", async () => {
    const { supplier } = await setup((req) =>
      keyReply("00", [{ code: req.path.includes("game") ? "ML86" : "BPJS", name: "x", price: 1 }]),
    );
    expect((await supplier.products("game"))[0]).toMatchObject({ type: "game", category: "Games" });
    expect((await supplier.products("pasca"))[0]).toMatchObject({
      type: "pasca",
      category: "Tagihan",
      active: false,
    });
  });

  it("a product list that is not a list is BAD_RESPONSE", async () => {
    const { supplier } = await setup(() => keyReply("00", { products: [] }));
    expect((await thrown(supplier.products("game"))).code).toBe("BAD_RESPONSE");
  });

  const READ_ERRORS: [string, number, SupplierErrorCode][] = [
    ["10", 400, "VALIDATION_ERROR"],
    ["20", 401, "UNAUTHORIZED"],
    ["21", 401, "INVALID_API_KEY"],
    ["31", 404, "PRODUCT_NOT_FOUND"],
    ["60", 410, "GONE"],
    ["77", 200, "UNKNOWN_CODE"],
    // a transaction's rc is no answer to a balance request
    ["03", 200, "UNKNOWN_CODE"],
  ];
  for (const [rc, status, expected] of READ_ERRORS) {
    it(`balance answered rc ${rc} (HTTP ${status}) throws ${expected}, without retrying`, async () => {
      const { supplier, stub } = await setup(() => keyReply(rc, null, status));
      const err = await thrown(supplier.balance());
      expect(err.code).toBe(expected);
      expect(err.details.httpStatus).toBe(status);
      expect(err.details.supplierCode).toBe(rc);
      expect(err.message).toContain(`rc ${rc}`);
      expect(stub.requests).toHaveLength(1);
    });
  }

  it("auth refusals name SUPPLIER_API_KEY, not the signature interface's settings", async () => {
    const { supplier } = await setup((_r, i) => keyReply(i === 0 ? "20" : "21", null, 401));
    expect((await thrown(supplier.balance())).message).toMatch(
      /Authorization: Bearer.*SUPPLIER_API_KEY/,
    );
    const revoked = await thrown(supplier.balance());
    expect(revoked.message).toContain("SUPPLIER_API_KEY");
    expect(revoked.message).not.toMatch(/api_id|SUPPLIER_SECRET_KEY/);
  });

  it("VALIDATION_ERROR carries the field errors", async () => {
    const { supplier } = await setup(() =>
      keyReply("10", null, 400, { errors: { type: ["must be prepaid, game or pasca"] } }),
    );
    const err = await thrown(supplier.products("game"));
    expect(err.details.errors).toEqual({ type: ["must be prepaid, game or pasca"] });
  });

  it("a body that is not the key envelope (e.g. the signature interface's) is BAD_RESPONSE", async () => {
    const { supplier } = await setup(() => ({
      status: 405,
      json: { success: false, code: "METHOD_NOT_ALLOWED", message: "every operation is a POST" },
    }));
    const err = await thrown(supplier.balance());
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toContain("SUPPLIER_INTERFACE=key");
  });
});

describe("retries of reads", () => {
  it("retries 5xx until it passes", async () => {
    const { supplier, stub } = await setup((_req, i) =>
      i < 2 ? { status: 502, text: "bad gateway" } : keyReply("00", { balance: 7 }),
    );
    expect((await supplier.balance()).balance).toBe(7);
    expect(stub.requests).toHaveLength(3);
  });

  const FAULTS: [string, Handler, SupplierErrorCode][] = [
    ["HTTP 500", () => keyReply("99", null, 500), "SERVER_ERROR"],
    ["rc 99 on a 200", () => keyReply("99"), "SERVER_ERROR"],
    ["HTTP 429", () => keyReply("70", null, 429), "RATE_LIMITED"],
    ["a dropped connection", () => ({ destroy: true }), "TRANSPORT_ERROR"],
  ];
  for (const [name, handler, code] of FAULTS) {
    it(`status gives up after 1 + readRetries attempts on ${name} with ${code}`, async () => {
      const { supplier, stub } = await setup(handler, { readRetries: 2 });
      const err = await thrown(supplier.status("K1"));
      expect(err.code).toBe(code);
      expect(err.retryable).toBe(true);
      expect(stub.requests).toHaveLength(3);
    });
  }

  it("retries a timeout, and throws TIMEOUT once the retries are spent", async () => {
    const { supplier, stub } = await setup(
      (_req, i) => (i === 0 ? { hang: true } : keyReply("00", [])),
      { timeoutMs: 200 },
    );
    expect(await supplier.products("game")).toEqual([]);
    expect(stub.requests).toHaveLength(2);
    await stub.close();
    const { supplier: hung, stub: s2 } = await setup(() => ({ hang: true }), {
      timeoutMs: 200,
      readRetries: 1,
    });
    const err = await thrown(hung.balance());
    expect(err.code).toBe("TIMEOUT");
    expect(err.message).toContain("200 ms");
    expect(s2.requests).toHaveLength(2);
  });
});

describe("order (POST /v1/transaction)", () => {
  it("rc 02 with a reason: the known reason is read; an unknown one is none", async () => {
    const { supplier } = await setup((_r, i) =>
      keyReply("02", record({ status: "failed", reason: i === 0 ? "out_of_stock" : "HABIS" })),
    );
    expect(acceptedOf(await supplier.order(ORDER)).reason).toBe("OUT_OF_STOCK");
    expect(acceptedOf(await supplier.order(ORDER)).reason).toBeUndefined();
  });

  const STATES: [string, string, "pending" | "success" | "failed"][] = [
    ["03", "pending", "pending"],
    ["03", "processing", "pending"],
    ["00", "processing", "pending"],
    ["00", "success", "success"],
    ["02", "failed", "failed"],
    ["00", "failed", "failed"],
  ];
  for (const [rc, state, status] of STATES) {
    it(`rc ${rc} with a ${state} record → accepted, ${status}`, async () => {
      const sn = state === "success" ? "1234567890" : "";
      const { supplier } = await setup(() => keyReply(rc, record({ status: state, sn })));
      const t = acceptedOf(await supplier.order(ORDER));
      expect(t).toMatchObject({
        kind: "order",
        refId: ORDER.refId,
        status,
        price: 10150,
        sn: sn || null,
        supplierCode: rc,
        trxId: "TRX-88121",
        createdAt: "2026-01-01 10:00:00",
      });
    });
  }

  it("ISO times in another zone are shown in WIB", async () => {
    const { supplier } = await setup(() =>
      keyReply("03", record({ created_at: "2026-01-01T03:00:00Z" })),
    );
    expect(acceptedOf(await supplier.order(ORDER)).createdAt).toBe("2026-01-01 10:00:00");
  });

  const INCONSISTENT: [string, Record<string, unknown>][] = [
    ["rc 03 with a success record", { status: "success" }],
    ["rc 02 with a pending record", { status: "pending" }],
    ["rc 00 without a status", { status: undefined }],
    ["an unknown status", { status: "refunded" }],
    ["no price on a pending order", { price: undefined }],
  ];
  for (const [name, over] of INCONSISTENT) {
    it(`${name} → unknown BAD_RESPONSE, never a guess`, async () => {
      const rc = name.includes("rc 02") ? "02" : name.includes("rc 00") ? "00" : "03";
      const { supplier } = await setup(() => keyReply(rc, record(over)));
      expectUnknown(await supplier.order(ORDER), "BAD_RESPONSE");
    });
  }

  it("rc 02 without a record → accepted failed, built from the request", async () => {
    const { supplier } = await setup(() => keyReply("02", null));
    expect(acceptedOf(await supplier.order(ORDER))).toMatchObject({
      kind: "order",
      status: "failed",
      refId: ORDER.refId,
      code: ORDER.code,
      customerNo: ORDER.customerNo,
      sn: null,
      supplierCode: "02",
    });
  });

  const REFUSALS: [string, number, SupplierErrorCode][] = [
    ["10", 400, "VALIDATION_ERROR"],
    ["20", 401, "UNAUTHORIZED"],
    ["21", 401, "INVALID_API_KEY"],
    ["30", 200, "INSUFFICIENT_BALANCE"],
    ["31", 404, "PRODUCT_NOT_FOUND"],
    ["32", 200, "PRODUCT_INACTIVE"],
    ["33", 200, "INVALID_CUSTOMER_NO"],
    ["60", 410, "GONE"],
    // the supplier's own answer turning the request away: nothing was formed
    ["70", 429, "RATE_LIMITED"],
  ];
  for (const [rc, status, code] of REFUSALS) {
    it(`rc ${rc} (HTTP ${status}) → rejected ${code}`, async () => {
      const { supplier } = await setup(() => keyReply(rc, null, status));
      const outcome = await supplier.order(ORDER);
      expectRejected(outcome, code);
      if (outcome.outcome === "rejected") expect(outcome.error.details.supplierCode).toBe(rc);
    });
  }

  const UNKNOWNS: [string, Handler, SupplierErrorCode][] = [
    [
      "HTTP 500 with a success body",
      () => keyReply("00", record({ status: "success" }), 500),
      "SERVER_ERROR",
    ],
    ["rc 99", () => keyReply("99"), "SERVER_ERROR"],
    ["HTTP 429 without the supplier's answer", () => ({ status: 429, text: "" }), "RATE_LIMITED"],
    ["a dropped connection", () => ({ destroy: true }), "TRANSPORT_ERROR"],
    ["an HTML page", () => ({ status: 502, text: "<html>" }), "SERVER_ERROR"],
    ["a 200 that is not JSON", () => ({ status: 200, text: "ok" }), "BAD_RESPONSE"],
    ["an unknown rc", () => keyReply("45"), "UNKNOWN_CODE"],
    ["rc 50 (not found) on a creation", () => keyReply("50", null, 404), "TRANSACTION_NOT_FOUND"],
  ];
  for (const [name, handler, code] of UNKNOWNS) {
    it(`${name} → unknown (${code}) after exactly one request`, async () => {
      const { supplier, stub } = await setup(handler, { readRetries: 5 });
      expectUnknown(await supplier.order(ORDER), code);
      expect(stub.requests).toHaveLength(1);
    });
  }

  it("a timeout → unknown (TIMEOUT) after exactly one request", async () => {
    const { supplier, stub } = await setup(() => ({ hang: true }), { timeoutMs: 200 });
    expectUnknown(await supplier.order(ORDER), "TIMEOUT");
    expect(stub.requests).toHaveLength(1);
  });

  const MISMATCHES: [string, Record<string, unknown>][] = [
    ["another ref_id", { ref_id: "K-OTHER" }],
    ["another product", { product_code: "XL10" }],
    ["another destination", { customer_id: "081299999999" }],
    ["a bill payment", { type: "pasca", tagihan: 10000 }],
  ];
  for (const [name, over] of MISMATCHES) {
    it(`a reply about ${name} → unknown REF_ID_MISMATCH`, async () => {
      const { supplier } = await setup(() =>
        keyReply("00", record({ status: "success", ...over })),
      );
      expectUnknown(await supplier.order(ORDER), "REF_ID_MISMATCH");
    });
  }
});

describe("payBill (POST /v1/transaction with the inquiry's ref_id)", () => {
  it("rc 00 → accepted bill with amounts and parsed details", async () => {
    const { supplier } = await setup(() => keyReply("00", billRecord()));
    const t = acceptedOf(await supplier.payBill(BILL));
    expect(t).toMatchObject({
      kind: "bill",
      status: "success",
      price: 255000,
      sn: "0517-BAYAR-9981",
      trxId: "TRX-88122",
      bill: { customerName: "BUDI SANTOSO", tagihan: 250000, admin: 5000, total: 255000 },
    });
    expect(t.bill?.desc?.detail[0]?.nilaiTagihan).toBe(250000);
  });

  it("the bare record (price only) is the total paid", async () => {
    const bare = billRecord({
      type: undefined,
      customer_name: undefined,
      tagihan: undefined,
      admin: undefined,
      total: undefined,
      desc: undefined,
      status: "processing",
      sn: "",
    });
    const { supplier } = await setup(() => keyReply("03", bare));
    expect(acceptedOf(await supplier.payBill(BILL))).toMatchObject({
      kind: "bill",
      status: "pending",
      price: 255000,
      bill: { tagihan: 255000, admin: 0, total: 255000 },
    });
  });

  it("rc 02 without a record → accepted failed bill from the request", async () => {
    const { supplier } = await setup(() => keyReply("02", null));
    expect(acceptedOf(await supplier.payBill(BILL))).toMatchObject({
      kind: "bill",
      status: "failed",
      refId: BILL.refId,
      price: 0,
    });
  });

  it("an order's record for a bill's ref_id → unknown REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() =>
      keyReply("00", record({ ...billRecord(), type: "prepaid", tagihan: undefined })),
    );
    expectUnknown(await supplier.payBill(BILL), "REF_ID_MISMATCH");
  });

  for (const [rc, code] of [
    ["41", "INQUIRY_NOT_FOUND"],
    ["42", "INQUIRY_EXPIRED"],
    ["43", "INQUIRY_MISMATCH"],
    ["30", "INSUFFICIENT_BALANCE"],
  ] as const) {
    it(`rc ${rc} → rejected ${code}`, async () => {
      const { supplier } = await setup(() => keyReply(rc, null, rc === "41" ? 404 : 200));
      expectRejected(await supplier.payBill(BILL), code);
    });
  }

  it("a 500 → unknown after exactly one request", async () => {
    const { supplier, stub } = await setup(() => keyReply("99", null, 500));
    expectUnknown(await supplier.payBill(BILL), "SERVER_ERROR");
    expect(stub.requests).toHaveLength(1);
  });
});

describe("inquiry (POST /v1/inquiry)", () => {
  it("rc 00 → InquiryResult, expires_at read with its offset", async () => {
    const { supplier } = await setup(() =>
      keyReply("00", {
        ref_id: BILL.refId,
        product_code: BILL.code,
        customer_id: BILL.customerNo,
        customer_name: "BUDI",
        tagihan: 250000,
        admin: 5000,
        desc: { lembar_tagihan: 2, detail: [] },
        expires_at: "2026-01-01T10:05:00+07:00",
      }),
    );
    const result = await supplier.inquiry(BILL);
    expect(result).toMatchObject({
      refId: BILL.refId,
      customerName: "BUDI",
      tagihan: 250000,
      admin: 5000,
      total: 255000,
    });
    expect(result.desc?.lembarTagihan).toBe(2);
    expect(result.expiresAt.toISOString()).toBe("2026-01-01T03:05:00.000Z");
  });

  it("no expires_at means now + 5 minutes", async () => {
    const { supplier } = await setup(() => keyReply("00", { tagihan: 1, total: 1 }));
    expect((await supplier.inquiry(BILL)).expiresAt.getTime()).toBe(START + 5 * 60 * 1000);
  });

  for (const [rc, code] of [
    ["40", "INQUIRY_FAILED"],
    ["33", "INVALID_CUSTOMER_NO"],
    ["31", "PRODUCT_NOT_FOUND"],
    ["00", "BAD_RESPONSE"],
  ] as const) {
    it(`rc ${rc}${rc === "00" ? " without bill amounts" : ""} throws ${code}`, async () => {
      const { supplier } = await setup(() =>
        keyReply(rc, rc === "00" ? { customer_name: "X" } : null),
      );
      expect((await thrown(supplier.inquiry(BILL))).code).toBe(code);
    });
  }

  it("is not retried: a 500 throws SERVER_ERROR after one request", async () => {
    const { supplier, stub } = await setup(() => keyReply("99", null, 500));
    expect((await thrown(supplier.inquiry(BILL))).code).toBe("SERVER_ERROR");
    expect(stub.requests).toHaveLength(1);
  });

  it("an answer about another customer throws REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() =>
      keyReply("00", { customer_id: "530099999999", tagihan: 1, total: 1 }),
    );
    expect((await thrown(supplier.inquiry(BILL))).code).toBe("REF_ID_MISMATCH");
  });
});

describe("status and transactionById", () => {
  it("rc 50 → { found: false }", async () => {
    const { supplier } = await setup(() => keyReply("50", null, 404));
    expect(await supplier.status("K1")).toEqual({ found: false });
    expect(await supplier.transactionById("TRX-1")).toEqual({ found: false });
  });

  it("an order record → found, processing normalised to pending", async () => {
    const { supplier } = await setup(() => keyReply("03", record({ status: "processing" })));
    expect(await supplier.status(ORDER.refId)).toMatchObject({
      found: true,
      transaction: { kind: "order", status: "pending", trxId: "TRX-88121" },
    });
  });

  it("a bill record → found, kind bill", async () => {
    const { supplier } = await setup(() => keyReply("00", billRecord()));
    expect(await supplier.status(BILL.refId)).toMatchObject({
      found: true,
      transaction: { kind: "bill", status: "success", price: 255000 },
    });
  });

  it("an answer about another ref_id or trx_id throws REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() => keyReply("00", record({ status: "success" })));
    expect((await thrown(supplier.status("K-OTHER"))).code).toBe("REF_ID_MISMATCH");
    expect((await thrown(supplier.transactionById("TRX-OTHER"))).code).toBe("REF_ID_MISMATCH");
    expect(await supplier.transactionById("TRX-88121")).toMatchObject({ found: true });
  });

  it("rc 00 without a record throws BAD_RESPONSE; an auth rc throws that code", async () => {
    const { supplier } = await setup((_r, i) =>
      i === 0 ? keyReply("00", null) : keyReply("21", null, 401),
    );
    expect((await thrown(supplier.status("K1"))).code).toBe("BAD_RESPONSE");
    expect((await thrown(supplier.status("K1"))).code).toBe("INVALID_API_KEY");
  });
});

describe("deprecation warnings", () => {
  function logged(text: string) {
    return text
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "supplier deprecation warning");
  }

  it("are logged once per endpoint at warn level and listed by notices()", async () => {
    const sink = memorySink();
    const logger = createLogger({ level: "warn", pretty: false, destination: sink.stream });
    const { supplier } = await setup(
      (req) =>
        req.path.startsWith("/balance")
          ? keyReply(
              "00",
              { balance: 1 },
              200,
              {},
              {
                deprecation: "@1751302800",
                sunset: "Thu, 01 Jan 2026 00:00:00 GMT",
                warning: '299 - "GET /v1/balance moves to /v2/balance"',
              },
            )
          : keyReply("00", [], 200, { warning: "type=prepaid is deprecated" }),
      { logger },
    );
    expect(supplier.notices()).toEqual([]);
    for (let i = 0; i < 3; i++) {
      await supplier.balance();
      await supplier.products("prepaid");
    }
    expect(supplier.notices()).toEqual([
      "GET /v1/balance: GET /v1/balance moves to /v2/balance; deprecated since 2025-06-30; sunset 2026-01-01",
      "GET /v1/products: type=prepaid is deprecated",
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const lines = logged(sink.text());
    expect(lines.map((l) => [l.level, l.endpoint])).toEqual([
      [40, "GET /v1/balance"],
      [40, "GET /v1/products"],
    ]);
  });

  it("recognise each form alone: Deprecation, Sunset, Warning, a warning or deprecation field", async () => {
    const forms: StubReply[] = [
      keyReply("00", { balance: 1 }, 200, {}, { deprecation: "true" }),
      keyReply("00", [], 200, {}, { sunset: "Thu, 01 Jan 2026 00:00:00 GMT" }),
      keyReply("50", null, 404, {}, { warning: '299 supplier.example "use v2"' }),
      keyReply("99", null, 500, { deprecation: { message: "inquiry v1 ends soon" } }),
      keyReply("03", record(), 200, { deprecation: true }),
    ];
    const { supplier } = await setup((_r, i) => forms[i]!, { readRetries: 0 });
    await supplier.balance();
    await supplier.products("game");
    await supplier.status("K1");
    await thrown(supplier.inquiry(BILL));
    await supplier.order(ORDER);
    expect(supplier.notices()).toEqual([
      "GET /v1/balance: this endpoint is deprecated",
      "GET /v1/products: this endpoint is deprecated; sunset 2026-01-01",
      "GET /v1/transaction: use v2",
      "POST /v1/inquiry: inquiry v1 ends soon",
      "POST /v1/transaction: this endpoint is deprecated",
    ]);
  });

  it("keep no control characters, no key, and at most 300 characters", async () => {
    const { supplier } = await setup(() =>
      keyReply("00", { balance: 1 }, 200, {
        warning: `line one\nline two with ${API_KEY} ${"x".repeat(400)}`,
      }),
    );
    await supplier.balance();
    const [notice] = supplier.notices();
    expect(notice).not.toContain("\n");
    expect(notice).not.toContain(API_KEY);
    expect(notice).toContain("[redacted]");
    expect(notice!.length).toBeLessThanOrEqual("GET /v1/balance: ".length + 300);
  });
});

describe("the api key", () => {
  // the stub echoes the Authorization header in its message, field errors and warning
  const echo: Handler = (req) => {
    const said = `you sent ${String(req.headers.authorization)}`;
    return keyReply("10", null, 400, { message: said, errors: { ref_id: [said] }, warning: said });
  };

  function expectClean(value: unknown) {
    for (const text of [
      (value as Error).message,
      String(value),
      JSON.stringify(value),
      JSON.stringify((value as SupplierError).details),
    ]) {
      expect(text).not.toContain(API_KEY);
    }
  }

  it("never appears in thrown errors, outcomes, details or notices", async () => {
    const { supplier } = await setup(echo);
    const errors: unknown[] = [
      await thrown(supplier.balance()),
      await thrown(supplier.products("prepaid")),
      await thrown(supplier.status("K1")),
      await thrown(supplier.inquiry(BILL)),
    ];
    for (const outcome of [await supplier.order(ORDER), await supplier.payBill(BILL)]) {
      expect(outcome.outcome).toBe("rejected");
      if (outcome.outcome === "rejected") errors.push(outcome.error);
    }
    for (const err of errors) {
      expect((err as SupplierError).message).toContain("[redacted]");
      expectClean(err);
    }
    expect(supplier.notices().length).toBeGreaterThan(0);
    for (const notice of supplier.notices()) expect(notice).not.toContain(API_KEY);
  });

  it("never appears in timeout, transport or malformed-reply outcomes", async () => {
    const { supplier } = await setup(
      (_req, i) =>
        [{ hang: true }, { destroy: true }, { status: 200, text: "x" }][i % 3] as StubReply,
      { timeoutMs: 200 },
    );
    const outcomes = [
      await supplier.order(ORDER),
      await supplier.order(ORDER),
      await supplier.payBill(BILL),
    ];
    expect(outcomes.map((o) => (o.outcome === "unknown" ? o.error?.code : o.outcome))).toEqual([
      "TIMEOUT",
      "TRANSPORT_ERROR",
      "BAD_RESPONSE",
    ]);
    for (const o of outcomes) expectClean(o.outcome === "unknown" ? o.error : o);
  });

  it("debug logs name the endpoint, rc and ref_id, never the header or body", async () => {
    const sink = memorySink();
    const logger = createLogger({ level: "debug", pretty: false, destination: sink.stream });
    const { supplier } = await setup(
      (_req, i) => (i === 0 ? keyReply("99", null, 500) : keyReply("03", record())),
      { logger },
    );
    await supplier.order(ORDER);
    await supplier.order(ORDER);
    await new Promise((r) => setTimeout(r, 20));
    const lines = sink
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      endpoint: "POST /v1/transaction",
      ref_id: ORDER.refId,
      http: 500,
      rc: "99",
    });
    expect(lines[1]).toMatchObject({ http: 200, rc: "03" });
    expect(sink.text()).not.toContain(API_KEY);
    expect(sink.text()).not.toContain("customer_id");
  });
});
