import {
  DEFAULT_GATEWAY_CREDENTIALS,
  midtransSignature,
  NO_GATEWAY_FAULTS,
  type RunningGatewaySandbox,
  startGatewaySandbox,
} from "@kios/gateway-sandbox";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMidtransGateway } from "../../src/gateway/midtrans.ts";
import { GatewayError, type PaymentGateway } from "../../src/gateway/types.ts";
import { pngSize } from "../helpers/png.ts";

// kios's Midtrans client against the gateway sandbox over HTTP: the QRIS charge, status,
// cancel, and the notification's signature, with what goes wrong on the way.

const KEY = DEFAULT_GATEWAY_CREDENTIALS.serverKey;

describe("Midtrans client", () => {
  let sandbox: RunningGatewaySandbox;
  let gateway: PaymentGateway;
  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
    gateway = createMidtransGateway({ serverKey: KEY, baseUrl: sandbox.url, timeoutMs: 2_000 });
  });
  afterAll(() => sandbox?.close());
  afterEach(() => sandbox.setFaults(NO_GATEWAY_FAULTS));

  let n = 0;
  const orderId = () => `KIOS-TEST-${++n}`;

  it("creates a QRIS payment and follows it to paid", async () => {
    const id = orderId();
    const created = await gateway.createPayment({
      orderId: id,
      amount: 50_000,
      expiresInMinutes: 15,
    });
    expect("qrString" in created && created.qrString).toMatch(/^000201/);
    expect(created.expiresAt.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(created.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 1_000);
    expect(await gateway.status(id)).toMatchObject({ state: "pending", amount: 50_000 });
    sandbox.pay(id);
    expect(await gateway.status(id)).toMatchObject({
      state: "paid",
      amount: 50_000,
      raw: "settlement",
      transactionId: created.transactionId,
    });
    // a paid payment can't be cancelled: cancel answers what it is
    expect(await gateway.cancel(id)).toMatchObject({ state: "paid" });
  });

  it("reads expired, denied, cancelled and unknown payments", async () => {
    const a = orderId();
    await gateway.createPayment({ orderId: a, amount: 10_000, expiresInMinutes: 15 });
    sandbox.expire(a);
    expect((await gateway.status(a)).state).toBe("expired");
    const b = orderId();
    await gateway.createPayment({ orderId: b, amount: 10_000, expiresInMinutes: 15 });
    sandbox.deny(b);
    expect((await gateway.status(b)).state).toBe("denied");
    const c = orderId();
    await gateway.createPayment({ orderId: c, amount: 10_000, expiresInMinutes: 15 });
    expect((await gateway.cancel(c)).state).toBe("cancelled");
    expect((await gateway.status("KIOS-NONE")).state).toBe("not_found");
  });

  it("tells a refusal from an answer that may have been lost", async () => {
    const wrongKey = createMidtransGateway({ serverKey: "nope", baseUrl: sandbox.url });
    const refused = await wrongKey.status("x").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ uncertain: false, status: 401 });

    const id = orderId();
    await gateway.createPayment({ orderId: id, amount: 10_000, expiresInMinutes: 15 });
    const duplicate = await gateway
      .createPayment({ orderId: id, amount: 10_000, expiresInMinutes: 15 })
      .catch((e: unknown) => e);
    expect(duplicate).toMatchObject({ uncertain: false });

    sandbox.setFaults({ statusErrorRate: 1 });
    expect(await gateway.status(id).catch((e: unknown) => e)).toMatchObject({ uncertain: true });
    sandbox.setFaults({ statusErrorRate: 0, chargeLostAnswerRate: 1 });
    const lost = orderId();
    const answer = await gateway
      .createPayment({ orderId: lost, amount: 10_000, expiresInMinutes: 15 })
      .catch((e: unknown) => e);
    expect(answer).toMatchObject({ uncertain: true });

    const down = createMidtransGateway({
      serverKey: KEY,
      baseUrl: "http://127.0.0.1:9",
      timeoutMs: 500,
    });
    expect(await down.status("x").catch((e: unknown) => e)).toMatchObject({ uncertain: true });
  });

  // Midtrans's own QRIS reference shows a charge answer with the generate-qr-code link and no
  // qr_string: kios shows that picture; an answer with no QR at all may still have made a
  // payable charge, so it is uncertain (looked up and cancelled), never "refused"
  it("takes the QR picture from the generate-qr-code link when the answer has no qr_string", async () => {
    sandbox.setFaults({ chargeQr: "image" });
    const id = orderId();
    const created = await gateway.createPayment({
      orderId: id,
      amount: 25_000,
      expiresInMinutes: 15,
    });
    expect("qrString" in created).toBe(false);
    const png = "png" in created ? created.png : Buffer.alloc(0);
    expect(pngSize(png).width).toBeGreaterThan(100);
    const served = await fetch(`${sandbox.url}/v2/qris/${created.transactionId}/qr-code`);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(await gateway.status(id)).toMatchObject({ state: "pending", amount: 25_000 });
  });

  it("takes a charge answer without a QR it can use as uncertain", async () => {
    sandbox.setFaults({ chargeQr: "none" });
    const id = orderId();
    const none = await gateway
      .createPayment({ orderId: id, amount: 10_000, expiresInMinutes: 15 })
      .catch((e: unknown) => e);
    expect(none).toBeInstanceOf(GatewayError);
    expect(none).toMatchObject({ uncertain: true });
    // the charge exists and can be paid: the caller must find it and cancel it
    expect((await gateway.status(id)).state).toBe("pending");
  });

  it("fetches the QR picture only as a small PNG, in time, from the gateway or over https", async () => {
    const answer = (url: string) => ({
      status_code: "201",
      transaction_id: "trx-1",
      order_id: "KIOS-IMG",
      transaction_status: "pending",
      actions: [{ name: "generate-qr-code", method: "GET", url }],
    });
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const stub = (image: () => Response, chargeUrl: string) => {
      const fetched: string[] = [];
      const client = createMidtransGateway({
        serverKey: KEY,
        baseUrl: "http://127.0.0.1:9",
        qrImageTimeoutMs: 200,
        fetch: (async (input: string | URL | Request, init?: RequestInit) => {
          const url = String(input);
          if (url.endsWith("/v2/charge")) return Response.json(answer(chargeUrl));
          fetched.push(url);
          // the image is fetched without the server key
          expect(new Headers(init?.headers).get("authorization")).toBeNull();
          return image();
        }) as typeof fetch,
      });
      return {
        fetched,
        create: () =>
          client.createPayment({ orderId: "KIOS-IMG", amount: 10_000, expiresInMinutes: 15 }),
      };
    };
    const ok = stub(() => new Response(png), "https://api.midtrans.com/v2/qris/trx-1/qr-code");
    expect(await ok.create()).toMatchObject({ transactionId: "trx-1", png });
    expect(ok.fetched).toEqual(["https://api.midtrans.com/v2/qris/trx-1/qr-code"]);
    const local = stub(() => new Response(png), "http://127.0.0.1:9/v2/qris/trx-1/qr-code");
    expect(await local.create()).toMatchObject({ png });

    const refusedOnes = [
      // not a PNG
      stub(() => new Response("<html>"), "https://api.midtrans.com/q"),
      // too big for a QR
      stub(
        () => new Response(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)])),
        "https://api.midtrans.com/q",
      ),
      // an error answer
      stub(() => new Response(png, { status: 404 }), "https://api.midtrans.com/q"),
      // plain http elsewhere than the gateway itself
      stub(() => new Response(png), "http://elsewhere.example/q"),
      // too slow
      stub(
        () =>
          new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(png.subarray(0, 4));
              },
            }),
          ),
        "https://api.midtrans.com/q",
      ),
    ];
    for (const one of refusedOnes) {
      const err = await one.create().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GatewayError);
      expect(err).toMatchObject({ uncertain: true });
    }
    expect(refusedOnes[3]!.fetched).toEqual([]);
  });

  it("verifies a notification's signature_key, and nothing else passes", () => {
    const body = {
      order_id: "KIOS-1",
      status_code: "200",
      gross_amount: "50000.00",
      transaction_status: "settlement",
      signature_key: midtransSignature("KIOS-1", "200", "50000.00", KEY),
    };
    expect(gateway.verifyReport(body)).toEqual({
      orderId: "KIOS-1",
      state: "paid",
      amount: 50_000,
    });
    // any field changed after signing, another key, a bad shape: refused
    expect(gateway.verifyReport({ ...body, gross_amount: "500000.00" })).toBeUndefined();
    expect(gateway.verifyReport({ ...body, order_id: "KIOS-2" })).toBeUndefined();
    expect(
      gateway.verifyReport({
        ...body,
        signature_key: midtransSignature("KIOS-1", "200", "50000.00", "other-key"),
      }),
    ).toBeUndefined();
    expect(gateway.verifyReport({ ...body, signature_key: "abc" })).toBeUndefined();
    expect(gateway.verifyReport({ order_id: "KIOS-1" })).toBeUndefined();
    expect(gateway.verifyReport("settlement")).toBeUndefined();
    expect(gateway.verifyReport(null)).toBeUndefined();
  });
});
