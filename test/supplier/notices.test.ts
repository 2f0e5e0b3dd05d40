import { ManualClock } from "@kios/kit";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import { memorySink } from "../helpers/app.ts";
import { envelope, type Stub, type StubReply, type StubRequest, startStub } from "./stub-server.ts";

// the signature adapter reads deprecation warnings the way the key adapter does (the
// shared notices.ts, fed by the shared transport): the same forms, once per endpoint

const CREDS = {
  apiId: "KIOS-TEST-01",
  apiKey: "ak_live_5f2c_SECRET",
  secretKey: "sk_live_9b41e7_SECRET",
};

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

type Handler = (request: StubRequest, index: number) => StubReply;

async function setup(handler: Handler, options: { logger?: ReturnType<typeof createLogger> } = {}) {
  stub = await startStub(handler);
  return createSignatureSupplier({
    baseUrl: stub.url,
    ...CREDS,
    clock: new ManualClock({ start: Date.UTC(2026, 0, 1, 3, 0, 0), frozen: true }),
    timeoutMs: 2000,
    retryBaseMs: 1,
    readRetries: 0,
    ...options,
  });
}

const reply = (
  code: string,
  data: unknown,
  status = 200,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): StubReply => ({ status, json: envelope(code, data, extra), headers });

const PRODUCT = {
  code: "TSEL10",
  name: "Telkomsel 10.000",
  category: "Pulsa",
  brand: "TELKOMSEL",
  type: "prepaid",
  price: 10150,
  status: "active",
};

function warnings(text: string) {
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === "supplier deprecation warning");
}

describe("deprecation warnings (signature interface)", () => {
  it("are logged once per endpoint at warn level and listed by notices()", async () => {
    const sink = memorySink();
    const logger = createLogger({ level: "warn", pretty: false, destination: sink.stream });
    const supplier = await setup(
      (req) =>
        req.path === "/balance"
          ? reply(
              "SUCCESS",
              { balance: 1 },
              200,
              {},
              {
                deprecation: "@1751302800",
                sunset: "Thu, 01 Jan 2026 00:00:00 GMT",
                warning: '299 - "POST /v1/balance moves to the key interface"',
              },
            )
          : reply("SUCCESS", [PRODUCT], 200, { warning: "cmd=prepaid is deprecated" }),
      { logger },
    );
    expect(supplier.notices()).toEqual([]);
    for (let i = 0; i < 3; i++) {
      await supplier.balance();
      await supplier.products("prepaid");
    }
    expect(supplier.notices()).toEqual([
      "POST /balance: POST /v1/balance moves to the key interface; deprecated since 2025-06-30; sunset 2026-01-01",
      "POST /products: cmd=prepaid is deprecated",
    ]);
    await new Promise((r) => setTimeout(r, 20));
    expect(warnings(sink.text()).map((l) => [l.level, l.endpoint])).toEqual([
      [40, "POST /balance"],
      [40, "POST /products"],
    ]);
  });

  it("are read from refusals and faults too, one notice for all of /order", async () => {
    const forms: StubReply[] = [
      reply("TRANSACTION_NOT_FOUND", null, 404, {}, { warning: '299 supplier.example "use v2"' }),
      reply("SERVER_ERROR", null, 500, { deprecation: { message: "order v1 ends soon" } }),
      reply("INSUFFICIENT_BALANCE", null, 400, {}, { deprecation: "true" }),
    ];
    const supplier = await setup((_r, i) => forms[i]!);
    expect(await supplier.status("K1")).toEqual({ found: false });
    const order = await supplier.order({
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: "081234567901",
      refId: "K01JTEST0000000000000000001",
    });
    expect(order.outcome).toBe("unknown");
    const bill = await supplier.payBill({
      code: "PLNPOST",
      customerNo: "530012345672",
      refId: "K01JTEST0000000000000000002",
    });
    expect(bill.outcome).toBe("rejected");
    expect(supplier.notices()).toEqual(["POST /status: use v2", "POST /order: order v1 ends soon"]);
  });

  it("keep no secret, no signature, no control characters, at most 300 characters", async () => {
    // the stub quotes the credentials and the request's own signature back
    const supplier = await setup((req) =>
      reply("SUCCESS", { balance: 1 }, 200, {
        warning: `line one\nline two ${CREDS.apiKey} ${CREDS.secretKey} ${String(req.body.signature)} ${"x".repeat(400)}`,
      }),
    );
    await supplier.balance();
    const [notice] = supplier.notices();
    expect(notice).toContain("[redacted]");
    expect(notice).not.toContain("\n");
    expect(notice).not.toContain(CREDS.apiKey);
    expect(notice).not.toContain(CREDS.secretKey);
    const signature = String(stub!.requests[0]!.body.signature);
    expect(signature.length).toBeGreaterThan(10);
    expect(notice).not.toContain(signature);
    expect(notice!.length).toBeLessThanOrEqual("POST /balance: ".length + 300);
  });
});
