import { ManualClock, signRequest } from "@kios/kit";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger.ts";
import { createSignatureSupplier } from "../../../src/supplier/signature/client.ts";
import {
  type SubmitOutcome,
  type Supplier,
  SupplierError,
  type SupplierErrorCode,
} from "../../../src/supplier/types.ts";
import { memorySink } from "../../helpers/app.ts";
import {
  envelope,
  type Stub,
  type StubReply,
  type StubRequest,
  startStub,
} from "../stub-server.ts";

const CREDS = {
  apiId: "KIOS-TEST-01",
  apiKey: "ak_live_5f2c_SECRET",
  secretKey: "sk_live_9b41e7_SECRET",
};
const START = Date.UTC(2026, 0, 1, 3, 0, 0);

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

type Handler = (request: StubRequest, index: number) => StubReply | Promise<StubReply>;

async function setup(
  handler: Handler,
  options: Partial<Parameters<typeof createSignatureSupplier>[0]> = {},
): Promise<{ supplier: Supplier; stub: Stub; clock: ManualClock }> {
  stub = await startStub(handler);
  const clock = new ManualClock({ start: START, frozen: true });
  const supplier = createSignatureSupplier({
    baseUrl: stub.url,
    ...CREDS,
    clock,
    timeoutMs: 2000,
    retryBaseMs: 1,
    ...options,
  });
  return { supplier, stub, clock };
}

const reply = (code: string, data: unknown = null, status = 200, extra = {}): StubReply => ({
  status,
  json: envelope(code, data, extra),
});

const ORDER_REQUEST = {
  cmd: "prepaid" as const,
  code: "TSEL10",
  customerNo: "081234567901",
  refId: "K01JTEST0000000000000000001",
};
const BILL_REQUEST = {
  code: "PLNPOST",
  customerNo: "530012345672",
  refId: "K01JTEST0000000000000000002",
};

function orderData(over: Record<string, unknown> = {}) {
  return {
    ref_id: ORDER_REQUEST.refId,
    status: "Pending",
    customer_no: ORDER_REQUEST.customerNo,
    code: ORDER_REQUEST.code,
    name: "Telkomsel 10.000",
    price: 10150,
    sn: null,
    created_at: "2026-01-01 10:00:00",
    ...over,
  };
}

function billData(over: Record<string, unknown> = {}) {
  return {
    ref_id: BILL_REQUEST.refId,
    status: "success",
    customer_no: BILL_REQUEST.customerNo,
    customer_name: "BUDI SANTOSO",
    code: BILL_REQUEST.code,
    tagihan: 250000,
    admin: 5000,
    total: 255000,
    sn: "0517-BAYAR-9981",
    created_at: "2026-01-01 10:00:00",
    desc: {
      lembar_tagihan: 2,
      tarif: "R1",
      daya: 1300,
      alamat: "JL. MERDEKA 1",
      unknown_extra: { nested: true },
      detail: [
        {
          periode: "202511",
          nilai_tagihan: "125000",
          admin: "2.500",
          denda: "",
          meter_awal: "100",
        },
        { periode: "202512", nilai_tagihan: "125.000", admin: "2500", denda: "5000", x: 1 },
      ],
    },
    ...over,
  };
}

function expectUnknown(outcome: SubmitOutcome, code: SupplierErrorCode) {
  expect(outcome.outcome).toBe("unknown");
  if (outcome.outcome !== "unknown") return;
  expect(outcome.error?.code).toBe(code);
  expect(outcome.reason).toBeTruthy();
}

function expectRejected(outcome: SubmitOutcome, code: SupplierErrorCode) {
  expect(outcome.outcome).toBe("rejected");
  if (outcome.outcome !== "rejected") return;
  expect(outcome.error).toBeInstanceOf(SupplierError);
  expect(outcome.error.code).toBe(code);
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
  it("POSTs signed JSON to {base_url}/<path> with only the business parameters signed", async () => {
    const { supplier, stub } = await setup((req) =>
      req.path === "/order" ? reply("ORDER_PENDING", orderData()) : reply("SUCCESS", []),
    );
    await supplier.order(ORDER_REQUEST);
    const [req] = stub.requests;
    expect(req!.method).toBe("POST");
    expect(req!.path).toBe("/order");
    expect(req!.headers["content-type"]).toBe("application/json; charset=utf-8");
    const { api_id, timestamp, signature, ...business } = req!.body;
    expect(business).toEqual({
      cmd: "prepaid",
      code: "TSEL10",
      customer_no: "081234567901",
      ref_id: ORDER_REQUEST.refId,
    });
    expect(api_id).toBe(CREDS.apiId);
    expect(timestamp).toBe(START / 1000);
    expect(signature).toBe(signRequest(CREDS, START / 1000, business));
  });

  it("sends testing only when true, and then signs it", async () => {
    const { supplier, stub } = await setup(() => reply("ORDER_PENDING", orderData()));
    await supplier.order({ ...ORDER_REQUEST, testing: false });
    await supplier.order({ ...ORDER_REQUEST, testing: true });
    expect(stub.requests[0]!.body).not.toHaveProperty("testing");
    const { api_id, timestamp, signature, ...business } = stub.requests[1]!.body;
    expect(business.testing).toBe(true);
    expect(signature).toBe(signRequest(CREDS, Number(timestamp), business));
  });

  it("shapes balance, products, inquiry, pay-pasca and status bodies", async () => {
    const { supplier, stub } = await setup((req) => {
      if (req.path === "/balance") return reply("SUCCESS", { balance: 1, balance_formatted: "1" });
      if (req.path === "/products") return reply("SUCCESS", []);
      if (req.path === "/status") return reply("TRANSACTION_NOT_FOUND", null, 404);
      if (req.body.cmd === "inquiry") return reply("INQUIRY_SUCCESS", billData());
      return reply("BILL_PAYMENT_SUCCESS", billData());
    });
    await supplier.balance();
    await supplier.products("pasca");
    await supplier.inquiry(BILL_REQUEST);
    await supplier.payBill({ ...BILL_REQUEST, testing: true });
    await supplier.status("K-ANY");
    const business = stub.requests.map(({ path, body }) => {
      const { api_id, timestamp, signature, ...rest } = body;
      return { path, rest };
    });
    expect(business).toEqual([
      { path: "/balance", rest: {} },
      { path: "/products", rest: { cmd: "pasca" } },
      {
        path: "/order",
        rest: {
          cmd: "inquiry",
          code: "PLNPOST",
          customer_no: BILL_REQUEST.customerNo,
          ref_id: BILL_REQUEST.refId,
        },
      },
      {
        path: "/order",
        rest: {
          cmd: "pay-pasca",
          code: "PLNPOST",
          customer_no: BILL_REQUEST.customerNo,
          ref_id: BILL_REQUEST.refId,
          testing: true,
        },
      },
      { path: "/status", rest: { ref_id: "K-ANY" } },
    ]);
    // balance has no business parameters: its canonical body is the empty string
    const balance = stub.requests[0]!.body;
    expect(balance.signature).toBe(signRequest(CREDS, Number(balance.timestamp), {}));
  });

  it("completes a base URL given without /v1", async () => {
    const { stub: s } = await setup(() => reply("SUCCESS", { balance: 5, balance_formatted: "5" }));
    const supplier = createSignatureSupplier({ baseUrl: s.url.replace(/\/v1$/, "/"), ...CREDS });
    expect((await supplier.balance()).balance).toBe(5);
    expect(s.requests[0]!.path).toBe("/balance");
  });

  it("refuses to send an order without a usable ref_id, product or destination", async () => {
    const { supplier, stub } = await setup(() => reply("ORDER_PENDING", orderData()));
    const outcome = await supplier.order({ ...ORDER_REQUEST, refId: "", customerNo: " " });
    expectRejected(outcome, "VALIDATION_ERROR");
    if (outcome.outcome === "rejected") {
      expect(Object.keys(outcome.error.details.errors ?? {})).toEqual(["ref_id", "customer_no"]);
    }
    await expect(supplier.status("has space")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect(stub.requests).toHaveLength(0);
  });
});

describe("reads", () => {
  it("balance → { balance, balanceFormatted }", async () => {
    const { supplier } = await setup(() =>
      reply("SUCCESS", { balance: 5_000_000, balance_formatted: "Rp5.000.000", extra: 1 }),
    );
    expect(await supplier.balance()).toEqual({
      balance: 5_000_000,
      balanceFormatted: "Rp5.000.000",
    });
  });

  it("products → SupplierProduct, tolerant of string prices and skipping unusable records", async () => {
    const { supplier } = await setup(() =>
      reply("SUCCESS", [
        {
          code: "TSEL10",
          name: "Telkomsel 10.000",
          category: "Pulsa",
          brand: "TELKOMSEL",
          type: "prepaid",
          price: 10150,
          status: "active",
          desc: "Pulsa 10rb",
          start_cut_off: "23:45",
          end_cut_off: "00:15",
          unknown: "ignored",
        },
        {
          code: "XL5",
          name: "XL 5.000",
          category: "Pulsa",
          brand: "XL",
          type: "prepaid",
          price: "5.100",
          status: "inactive",
          desc: "",
        },
        { name: "no code", price: 1 },
        { code: "BAD", price: "lots" },
      ]),
    );
    const products = await supplier.products("prepaid");
    expect(products).toEqual([
      {
        code: "TSEL10",
        name: "Telkomsel 10.000",
        category: "Pulsa",
        brand: "TELKOMSEL",
        type: "prepaid",
        price: 10150,
        active: true,
        desc: "Pulsa 10rb",
        startCutOff: "23:45",
        endCutOff: "00:15",
      },
      {
        code: "XL5",
        name: "XL 5.000",
        category: "Pulsa",
        brand: "XL",
        type: "prepaid",
        price: 5100,
        active: false,
        desc: "",
        startCutOff: undefined,
        endCutOff: undefined,
      },
    ]);
  });

  it("a product list that is not a list is BAD_RESPONSE", async () => {
    const { supplier } = await setup(() => reply("SUCCESS", { products: "none" }));
    expect((await thrown(supplier.products("game"))).code).toBe("BAD_RESPONSE");
  });

  const READ_ERRORS: [string, number, SupplierErrorCode][] = [
    ["INVALID_SIGNATURE", 401, "INVALID_SIGNATURE"],
    ["UNAUTHORIZED", 401, "UNAUTHORIZED"],
    ["INVALID_API_KEY", 401, "INVALID_API_KEY"],
    ["TIMESTAMP_EXPIRED", 401, "TIMESTAMP_EXPIRED"],
    ["VALIDATION_ERROR", 400, "VALIDATION_ERROR"],
    ["GONE", 410, "GONE"],
    ["SOMETHING_NEW", 200, "UNKNOWN_CODE"],
    ["ORDER_PENDING", 200, "UNKNOWN_CODE"],
  ];
  for (const [code, status, expected] of READ_ERRORS) {
    it(`balance answered ${code} (HTTP ${status}) throws ${expected}, without retrying`, async () => {
      const { supplier, stub } = await setup(() => reply(code, null, status));
      const err = await thrown(supplier.balance());
      expect(err.code).toBe(expected);
      expect(err.details.httpStatus).toBe(status);
      expect(err.details.supplierCode).toBe(code);
      expect(stub.requests).toHaveLength(1);
    });
  }

  it("VALIDATION_ERROR carries the field errors", async () => {
    const { supplier } = await setup(() =>
      reply("VALIDATION_ERROR", null, 400, { errors: { cmd: ["must be prepaid, game or pasca"] } }),
    );
    const err = await thrown(supplier.products("game"));
    expect(err.details.errors).toEqual({ cmd: ["must be prepaid, game or pasca"] });
  });

  it("a 410 without a JSON body is GONE", async () => {
    const { supplier } = await setup(() => ({ status: 410, text: "gone" }));
    expect((await thrown(supplier.balance())).code).toBe("GONE");
  });

  it("TIMESTAMP_EXPIRED says the server clock may be wrong", async () => {
    const { supplier } = await setup(() => reply("TIMESTAMP_EXPIRED", null, 401));
    const err = await thrown(supplier.balance());
    expect(err.message).toMatch(/clock may be wrong/);
  });

  it("a body that is not the envelope is BAD_RESPONSE", async () => {
    const { supplier } = await setup(() => ({ status: 200, text: "<html>hello</html>" }));
    const err = await thrown(supplier.balance());
    expect(err.code).toBe("BAD_RESPONSE");
    expect(err.message).toContain("SUPPLIER_BASE_URL");
  });
});

describe("retries of reads", () => {
  it("retries 5xx until it passes, counting the attempts", async () => {
    const { supplier, stub } = await setup((_req, i) =>
      i < 2
        ? { status: 502, text: "bad gateway" }
        : reply("SUCCESS", { balance: 7, balance_formatted: "7" }),
    );
    expect((await supplier.balance()).balance).toBe(7);
    expect(stub.requests).toHaveLength(3);
  });

  const FAULTS: [string, Handler, SupplierErrorCode][] = [
    ["500", () => reply("SERVER_ERROR", null, 500), "SERVER_ERROR"],
    ["429", () => reply("RATE_LIMITED", null, 429), "RATE_LIMITED"],
    ["a dropped connection", () => ({ destroy: true }), "TRANSPORT_ERROR"],
  ];
  for (const [name, handler, code] of FAULTS) {
    it(`gives up after 1 + readRetries attempts on ${name} with ${code}`, async () => {
      const { supplier, stub } = await setup(handler, { readRetries: 2 });
      const err = await thrown(supplier.status("K1"));
      expect(err.code).toBe(code);
      expect(err.retryable).toBe(true);
      expect(stub.requests).toHaveLength(3);
    });
  }

  it("retries a timeout (AbortSignal) on reads", async () => {
    const { supplier, stub } = await setup(
      (_req, i) => (i === 0 ? { hang: true } : reply("SUCCESS", [])),
      { timeoutMs: 200 },
    );
    expect(await supplier.products("game")).toEqual([]);
    expect(stub.requests).toHaveLength(2);
  });

  it("times out with TIMEOUT once the retries are spent", async () => {
    const { supplier, stub } = await setup(() => ({ hang: true }), {
      timeoutMs: 200,
      readRetries: 1,
    });
    const err = await thrown(supplier.balance());
    expect(err.code).toBe("TIMEOUT");
    expect(err.message).toContain("200 ms");
    expect(stub.requests).toHaveLength(2);
  });

  it("does not retry a definite answer", async () => {
    const { supplier, stub } = await setup(() => reply("INVALID_SIGNATURE", null, 401));
    await thrown(supplier.status("K1"));
    expect(stub.requests).toHaveLength(1);
  });

  it("an unreachable supplier is TRANSPORT_ERROR", async () => {
    const { stub: s } = await setup(() => reply("SUCCESS", []));
    const url = s.url;
    await s.close();
    stub = undefined;
    const supplier = createSignatureSupplier({ baseUrl: url, ...CREDS, retryBaseMs: 1 });
    const err = await thrown(supplier.balance());
    expect(err.code).toBe("TRANSPORT_ERROR");
    expect(err.message).toContain("ECONNREFUSED");
  });
});

describe("order", () => {
  for (const [code, status] of [
    ["ORDER_SUCCESS", "Success"],
    ["ORDER_PENDING", "Pending"],
    ["ORDER_FAILED", "Failed"],
  ] as const) {
    it(`${code} → accepted, status ${status.toLowerCase()}`, async () => {
      const sn = status === "Success" ? "SN-123" : null;
      const { supplier } = await setup(() =>
        reply(code, orderData({ status, sn, unknown_field: "ignored" })),
      );
      const outcome = await supplier.order(ORDER_REQUEST);
      expect(outcome).toEqual({
        outcome: "accepted",
        transaction: {
          kind: "order",
          refId: ORDER_REQUEST.refId,
          status: status.toLowerCase(),
          customerNo: ORDER_REQUEST.customerNo,
          code: "TSEL10",
          name: "Telkomsel 10.000",
          price: 10150,
          sn,
          createdAt: "2026-01-01 10:00:00",
          supplierCode: code,
          message: `${code} message`,
        },
      });
    });
  }

  it("reads a failed record's reason, any case; an unknown, absent or pending one is none", async () => {
    const cases: [Record<string, unknown>, string | undefined][] = [
      [{ status: "Failed", reason: "OUT_OF_STOCK" }, "OUT_OF_STOCK"],
      [{ status: "Failed", reason: " product_disrupted " }, "PRODUCT_DISRUPTED"],
      [{ status: "Failed", reason: "INVALID_CUSTOMER_NO" }, "INVALID_CUSTOMER_NO"],
      [{ status: "Failed", reason: "STOK_HABIS" }, undefined],
      [{ status: "Failed", reason: 42 }, undefined],
      [{ status: "Failed" }, undefined],
      [{ status: "Pending", reason: "OUT_OF_STOCK" }, undefined],
    ];
    for (const [over, reason] of cases) {
      const code = over.status === "Failed" ? "ORDER_FAILED" : "ORDER_PENDING";
      const { supplier } = await setup(() =>
        // the message says "stok kosong": free text is never read for a reason
        ({ status: 200, json: { ...envelope(code, orderData(over)), message: "stok kosong" } }),
      );
      const outcome = await supplier.order(ORDER_REQUEST);
      if (outcome.outcome !== "accepted") throw new Error(outcome.outcome);
      expect(outcome.transaction.reason, JSON.stringify(over)).toBe(reason);
      await stub?.close();
      stub = undefined;
    }
  });

  it("fills a missing customer_no and code from the request", async () => {
    const { supplier } = await setup(() =>
      reply("ORDER_SUCCESS", { ref_id: ORDER_REQUEST.refId, status: "Success", price: 10150 }),
    );
    const outcome = await supplier.order(ORDER_REQUEST);
    expect(outcome.outcome).toBe("accepted");
    if (outcome.outcome === "accepted") {
      expect(outcome.transaction.customerNo).toBe(ORDER_REQUEST.customerNo);
      expect(outcome.transaction.code).toBe(ORDER_REQUEST.code);
    }
  });

  const REFUSALS: [string, number][] = [
    ["INVALID_SIGNATURE", 401],
    ["UNAUTHORIZED", 401],
    ["INVALID_API_KEY", 401],
    ["TIMESTAMP_EXPIRED", 401],
    ["INSUFFICIENT_BALANCE", 200],
    ["PRODUCT_NOT_FOUND", 404],
    ["PRODUCT_INACTIVE", 200],
    ["INVALID_CUSTOMER_NO", 200],
    ["VALIDATION_ERROR", 400],
    ["GONE", 410],
    // the supplier's own envelope refusing the request before any work: nothing was formed
    ["RATE_LIMITED", 429],
  ];
  for (const [code, status] of REFUSALS) {
    it(`${code} (HTTP ${status}) → rejected with ${code}`, async () => {
      const { supplier, stub } = await setup(() => reply(code, null, status));
      expectRejected(await supplier.order(ORDER_REQUEST), code as SupplierErrorCode);
      expect(stub.requests).toHaveLength(1);
    });
  }

  const UNKNOWNS: [string, Handler, SupplierErrorCode][] = [
    ["HTTP 500", () => reply("SERVER_ERROR", null, 500), "SERVER_ERROR"],
    ["HTTP 503 without a body", () => ({ status: 503, text: "" }), "SERVER_ERROR"],
    [
      "HTTP 500 carrying ORDER_SUCCESS",
      () => reply("ORDER_SUCCESS", orderData(), 500),
      "SERVER_ERROR",
    ],
    // a 429 without the supplier's envelope (a proxy's page) says nothing of the order
    [
      "HTTP 429 without the supplier's answer",
      () => ({ status: 429, text: "slow down" }),
      "RATE_LIMITED",
    ],
    ["a dropped connection", () => ({ destroy: true }), "TRANSPORT_ERROR"],
    ["an unknown code", () => reply("ORDER_QUEUED", orderData()), "UNKNOWN_CODE"],
    [
      "TRANSACTION_NOT_FOUND",
      () => reply("TRANSACTION_NOT_FOUND", null, 404),
      "TRANSACTION_NOT_FOUND",
    ],
    ["a non-JSON body", () => ({ status: 200, text: "ok" }), "BAD_RESPONSE"],
    ["ORDER_PENDING without data", () => reply("ORDER_PENDING", null), "BAD_RESPONSE"],
    [
      "ORDER_SUCCESS with an unknown status",
      () => reply("ORDER_SUCCESS", orderData({ status: "Done" })),
      "BAD_RESPONSE",
    ],
    [
      "ORDER_SUCCESS whose record says Failed",
      () => reply("ORDER_SUCCESS", orderData({ status: "Failed" })),
      "BAD_RESPONSE",
    ],
    [
      "ORDER_PENDING without a price",
      () => reply("ORDER_PENDING", orderData({ price: undefined })),
      "BAD_RESPONSE",
    ],
  ];
  for (const [name, handler, code] of UNKNOWNS) {
    it(`${name} → unknown (${code}) after exactly one request`, async () => {
      const { supplier, stub } = await setup(handler);
      expectUnknown(await supplier.order(ORDER_REQUEST), code);
      expect(stub.requests).toHaveLength(1);
    });
  }

  it("a timeout → unknown (TIMEOUT) after exactly one request", async () => {
    const { supplier, stub } = await setup(() => ({ hang: true }), { timeoutMs: 200 });
    expectUnknown(await supplier.order(ORDER_REQUEST), "TIMEOUT");
    expect(stub.requests).toHaveLength(1);
  });

  const MISMATCHES: [string, Record<string, unknown>][] = [
    ["another ref_id", { ref_id: "K-SOMEONE-ELSE" }],
    ["another product", { code: "XL5" }],
    ["another destination", { customer_no: "081111111111" }],
  ];
  for (const [name, over] of MISMATCHES) {
    it(`a reply about ${name} → unknown with REF_ID_MISMATCH`, async () => {
      const { supplier } = await setup(() =>
        reply("ORDER_SUCCESS", orderData({ status: "Success", sn: "1", ...over })),
      );
      expectUnknown(await supplier.order(ORDER_REQUEST), "REF_ID_MISMATCH");
    });
  }

  it("a bill payment answered for an order's ref_id → unknown with REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() => reply("BILL_PAYMENT_SUCCESS", billData()));
    expectUnknown(await supplier.order(ORDER_REQUEST), "REF_ID_MISMATCH");
  });
});

describe("payBill", () => {
  it("BILL_PAYMENT_SUCCESS → accepted with amounts and parsed bill details", async () => {
    const { supplier } = await setup(() => reply("BILL_PAYMENT_SUCCESS", billData()));
    const outcome = await supplier.payBill(BILL_REQUEST);
    expect(outcome.outcome).toBe("accepted");
    if (outcome.outcome !== "accepted") return;
    const t = outcome.transaction;
    expect(t).toMatchObject({
      kind: "bill",
      status: "success",
      refId: BILL_REQUEST.refId,
      price: 255000,
      sn: "0517-BAYAR-9981",
      supplierCode: "BILL_PAYMENT_SUCCESS",
    });
    expect(t.bill).toEqual({
      customerName: "BUDI SANTOSO",
      tagihan: 250000,
      admin: 5000,
      total: 255000,
      desc: {
        lembarTagihan: 2,
        tarif: "R1",
        daya: 1300,
        alamat: "JL. MERDEKA 1",
        jumlahPeserta: undefined,
        jatuhTempo: undefined,
        itemName: undefined,
        noRangka: undefined,
        noPol: undefined,
        tenor: undefined,
        detail: [
          {
            periode: "202511",
            nilaiTagihan: 125000,
            admin: 2500,
            denda: undefined,
            meterAwal: "100",
            meterAkhir: undefined,
            biayaLain: undefined,
          },
          {
            periode: "202512",
            nilaiTagihan: 125000,
            admin: 2500,
            denda: 5000,
            meterAwal: undefined,
            meterAkhir: undefined,
            biayaLain: undefined,
          },
        ],
      },
    });
  });

  it("BILL_PAYMENT_PENDING without desc → accepted, pending, no details", async () => {
    const { supplier } = await setup(() =>
      reply("BILL_PAYMENT_PENDING", billData({ status: "pending", sn: null, desc: undefined })),
    );
    const outcome = await supplier.payBill(BILL_REQUEST);
    expect(outcome.outcome).toBe("accepted");
    if (outcome.outcome !== "accepted") return;
    expect(outcome.transaction.status).toBe("pending");
    expect(outcome.transaction.sn).toBeNull();
    expect(outcome.transaction.bill?.desc).toBeUndefined();
  });

  it("BILL_PAYMENT_FAILED with data null → accepted failed transaction built from the request", async () => {
    const { supplier } = await setup(() => ({
      status: 200,
      json: { ...envelope("BILL_PAYMENT_FAILED"), success: false },
    }));
    expect(await supplier.payBill(BILL_REQUEST)).toEqual({
      outcome: "accepted",
      transaction: {
        kind: "bill",
        refId: BILL_REQUEST.refId,
        status: "failed",
        customerNo: BILL_REQUEST.customerNo,
        code: BILL_REQUEST.code,
        name: "",
        price: 0,
        sn: null,
        createdAt: "",
        supplierCode: "BILL_PAYMENT_FAILED",
        message: "BILL_PAYMENT_FAILED message",
      },
    });
  });

  for (const [code, status] of [
    ["INQUIRY_NOT_FOUND", 404],
    ["INQUIRY_EXPIRED", 200],
    ["INQUIRY_MISMATCH", 200],
    ["INSUFFICIENT_BALANCE", 200],
    ["INVALID_API_KEY", 401],
  ] as const) {
    it(`${code} → rejected`, async () => {
      const { supplier } = await setup(() => reply(code, null, status));
      expectRejected(await supplier.payBill(BILL_REQUEST), code);
    });
  }

  it("a 500 → unknown after exactly one request", async () => {
    const { supplier, stub } = await setup(() => reply("SERVER_ERROR", null, 500));
    expectUnknown(await supplier.payBill(BILL_REQUEST), "SERVER_ERROR");
    expect(stub.requests).toHaveLength(1);
  });

  it("a timeout → unknown after exactly one request", async () => {
    const { supplier, stub } = await setup(() => ({ hang: true }), { timeoutMs: 200 });
    expectUnknown(await supplier.payBill(BILL_REQUEST), "TIMEOUT");
    expect(stub.requests).toHaveLength(1);
  });

  it("another customer's bill for this ref_id → unknown with REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() =>
      reply("BILL_PAYMENT_SUCCESS", billData({ customer_no: "530099999990" })),
    );
    expectUnknown(await supplier.payBill(BILL_REQUEST), "REF_ID_MISMATCH");
  });

  it("an order answered for a bill's ref_id → unknown with REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() =>
      reply("ORDER_SUCCESS", orderData({ status: "Success" })),
    );
    expectUnknown(await supplier.payBill(BILL_REQUEST), "REF_ID_MISMATCH");
  });
});

describe("inquiry", () => {
  it("INQUIRY_SUCCESS → InquiryResult with expiresAt from WIB expires_at", async () => {
    const { supplier } = await setup(() =>
      reply("INQUIRY_SUCCESS", {
        ...billData(),
        status: undefined,
        sn: undefined,
        expires_at: "2026-01-01 10:05:00",
      }),
    );
    const result = await supplier.inquiry(BILL_REQUEST);
    expect(result).toMatchObject({
      refId: BILL_REQUEST.refId,
      customerNo: BILL_REQUEST.customerNo,
      code: "PLNPOST",
      customerName: "BUDI SANTOSO",
      tagihan: 250000,
      admin: 5000,
      total: 255000,
    });
    expect(result.desc?.detail).toHaveLength(2);
    expect(result.expiresAt.toISOString()).toBe("2026-01-01T03:05:00.000Z");
  });

  it("a missing or unparseable expires_at means now + 5 minutes", async () => {
    for (const expires_at of [undefined, "soon"]) {
      const {
        supplier,
        clock,
        stub: s,
      } = await setup(() => reply("INQUIRY_SUCCESS", { ...billData(), expires_at }));
      const result = await supplier.inquiry(BILL_REQUEST);
      expect(result.expiresAt.getTime()).toBe(clock.now() + 5 * 60 * 1000);
      await s.close();
      stub = undefined;
    }
  });

  for (const [code, status] of [
    ["INQUIRY_FAILED", 200],
    ["PRODUCT_NOT_FOUND", 404],
    ["INVALID_CUSTOMER_NO", 200],
    ["PRODUCT_INACTIVE", 200],
  ] as const) {
    it(`${code} throws ${code}`, async () => {
      const { supplier } = await setup(() => reply(code, null, status));
      expect((await thrown(supplier.inquiry(BILL_REQUEST))).code).toBe(code);
    });
  }

  it("is not retried: a 500 throws SERVER_ERROR after one request", async () => {
    const { supplier, stub } = await setup(() => reply("SERVER_ERROR", null, 500));
    expect((await thrown(supplier.inquiry(BILL_REQUEST))).code).toBe("SERVER_ERROR");
    expect(stub.requests).toHaveLength(1);
  });

  it("an answer about another ref_id throws REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() =>
      reply("INQUIRY_SUCCESS", { ...billData(), ref_id: "K-OTHER" }),
    );
    expect((await thrown(supplier.inquiry(BILL_REQUEST))).code).toBe("REF_ID_MISMATCH");
  });
});

describe("status", () => {
  it("TRANSACTION_NOT_FOUND → { found: false }", async () => {
    const { supplier } = await setup(() => reply("TRANSACTION_NOT_FOUND", null, 404));
    expect(await supplier.status("K1")).toEqual({ found: false });
  });

  it("an order result → found, normalised", async () => {
    const { supplier } = await setup(() =>
      reply("ORDER_SUCCESS", orderData({ status: "Success", sn: "SN-1" })),
    );
    const result = await supplier.status(ORDER_REQUEST.refId);
    expect(result).toMatchObject({
      found: true,
      transaction: { kind: "order", status: "success", sn: "SN-1", code: "TSEL10" },
    });
  });

  it("a bill payment result → found, kind bill", async () => {
    const { supplier } = await setup(() =>
      reply("BILL_PAYMENT_PENDING", billData({ status: "pending", sn: null, desc: undefined })),
    );
    const result = await supplier.status(BILL_REQUEST.refId);
    expect(result).toMatchObject({ found: true, transaction: { kind: "bill", status: "pending" } });
  });

  it("BILL_PAYMENT_FAILED with data null → found, failed", async () => {
    const { supplier } = await setup(() => reply("BILL_PAYMENT_FAILED", null));
    const result = await supplier.status(BILL_REQUEST.refId);
    expect(result).toMatchObject({
      found: true,
      transaction: { kind: "bill", status: "failed", refId: BILL_REQUEST.refId },
    });
  });

  it("an answer about another ref_id throws REF_ID_MISMATCH", async () => {
    const { supplier } = await setup(() =>
      reply("ORDER_PENDING", orderData({ ref_id: "K-OTHER" })),
    );
    expect((await thrown(supplier.status(ORDER_REQUEST.refId))).code).toBe("REF_ID_MISMATCH");
  });

  it("an unknown code throws UNKNOWN_CODE; an auth code throws that code", async () => {
    const { supplier } = await setup((_req, i) =>
      i === 0 ? reply("WHATEVER") : reply("UNAUTHORIZED", null, 401),
    );
    expect((await thrown(supplier.status("K1"))).code).toBe("UNKNOWN_CODE");
    expect((await thrown(supplier.status("K1"))).code).toBe("UNAUTHORIZED");
  });
});

describe("secrets", () => {
  // the stub echoes every secret it was sent back in its messages and field errors
  const echo: Handler = (req) => {
    const said = `key ${CREDS.apiKey} secret ${CREDS.secretKey} sig ${String(req.body.signature)}`;
    return {
      status: 400,
      json: {
        ...envelope("VALIDATION_ERROR"),
        message: said,
        errors: { signature: [said] },
      },
    };
  };

  function expectClean(err: unknown, signatures: string[]) {
    const forms = [
      (err as Error).message,
      String(err),
      JSON.stringify(err),
      JSON.stringify((err as SupplierError).details),
    ];
    for (const text of forms) {
      for (const secret of [CREDS.apiKey, CREDS.secretKey, ...signatures]) {
        expect(text).not.toContain(secret);
      }
    }
  }

  it("never appear in thrown errors, outcomes or their details", async () => {
    const { supplier, stub } = await setup(echo);
    const errors: unknown[] = [];
    errors.push(await thrown(supplier.balance()));
    errors.push(await thrown(supplier.products("prepaid")));
    errors.push(await thrown(supplier.status("K1")));
    errors.push(await thrown(supplier.inquiry(BILL_REQUEST)));
    const order = await supplier.order(ORDER_REQUEST);
    const bill = await supplier.payBill(BILL_REQUEST);
    for (const outcome of [order, bill]) {
      expect(outcome.outcome).toBe("rejected");
      if (outcome.outcome === "rejected") errors.push(outcome.error);
    }
    const signatures = stub.requests.map((r) => String(r.body.signature));
    for (const err of errors) {
      expect((err as SupplierError).message).toContain("[redacted]");
      expectClean(err, signatures);
    }
  });

  it("never appear in timeout, transport or malformed-reply errors", async () => {
    const { supplier, stub } = await setup(
      (_req, i) =>
        [{ hang: true }, { destroy: true }, { status: 200, text: "x" }][i % 3] as StubReply,
      { timeoutMs: 200 },
    );
    const outcomes = [
      await supplier.order(ORDER_REQUEST),
      await supplier.order(ORDER_REQUEST),
      await supplier.payBill(BILL_REQUEST),
    ];
    const signatures = stub.requests.map((r) => String(r.body.signature));
    expect(outcomes.map((o) => (o.outcome === "unknown" ? o.error?.code : o.outcome))).toEqual([
      "TIMEOUT",
      "TRANSPORT_ERROR",
      "BAD_RESPONSE",
    ]);
    for (const o of outcomes) {
      expectClean(o.outcome === "unknown" ? o.error : o, signatures);
      expect(JSON.stringify(o)).not.toContain(CREDS.apiKey);
    }
  });

  it("debug logs name the call but never the body, key or signature", async () => {
    const sink = memorySink();
    const logger = createLogger({ level: "debug", pretty: false, destination: sink.stream });
    const { supplier, stub } = await setup(
      (_req, i) =>
        i === 0 ? reply("SERVER_ERROR", null, 500) : reply("ORDER_PENDING", orderData()),
      { logger },
    );
    await supplier.order(ORDER_REQUEST);
    await supplier.order(ORDER_REQUEST);
    await new Promise((r) => setTimeout(r, 20));
    const lines = sink
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      path: "/order",
      cmd: "prepaid",
      ref_id: ORDER_REQUEST.refId,
      http: 500,
      code: "SERVER_ERROR",
    });
    expect(lines[1]).toMatchObject({ http: 200, code: "ORDER_PENDING" });
    expect(typeof lines[1].ms).toBe("number");
    const text = sink.text();
    for (const secret of [
      CREDS.apiKey,
      CREDS.secretKey,
      ...stub.requests.map((r) => String(r.body.signature)),
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
