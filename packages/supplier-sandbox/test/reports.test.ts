import { CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER, verifyCallback } from "@kios/kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxOptions } from "../index.ts";
import { CALLBACK_EVENT } from "../index.ts";
import { CREDS, callbackReceiver, eventually, type Harness, harness, phone } from "./helpers.ts";

type Receiver = Awaited<ReturnType<typeof callbackReceiver>>;

describe("sandbox callbacks", () => {
  let h: Harness;
  let shop: Receiver;
  const start = async (options: SandboxOptions = {}, statuses: number[] = []) => {
    shop = await callbackReceiver(statuses);
    h = await harness({ callbackRetryDelaysMs: [10, 10, 10], ...options });
    h.sandbox.account().setCallbackUrl(shop.url);
  };
  beforeEach(() => {
    shop = undefined as unknown as Receiver;
  });
  afterEach(async () => {
    await h?.close();
    await shop?.close();
  });

  const order = (last3: string, refId: string, creds = CREDS) =>
    h.call(
      "/order",
      { cmd: "prepaid", code: "TSEL5", customer_no: phone(last3), ref_id: refId },
      { creds },
    );
  const statuses = () => shop.received.map((r) => r.json.data.status);

  it("posts the final state, signed with the key that placed the order", async () => {
    await start();
    await order("903", "C-903");
    await h.sandbox.settleNow();
    expect(shop.received).toHaveLength(1);
    const [cb] = shop.received;
    expect(cb!.headers["content-type"]).toContain("application/json");
    const verdict = verifyCallback(
      CREDS.secretKey,
      cb!.rawBody,
      cb!.headers[CALLBACK_TIMESTAMP_HEADER] as string,
      cb!.headers[CALLBACK_SIGNATURE_HEADER] as string,
      h.clock.now(),
    );
    expect(verdict).toEqual({ ok: true });
    const stored = await h.call("/status", { ref_id: "C-903" });
    expect(cb!.json).toEqual({ event: CALLBACK_EVENT, data: stored.body.data });
    expect(cb!.json.data).toMatchObject({
      status: "Success",
      sn: expect.stringMatching(/^\d{20}$/),
    });
    expect(h.sandbox.transactions()[0]!.callbacksDelivered).toBe(1);
  });

  it("a failure with a reason carries it in the callback's record; the pending reply did not", async () => {
    await start();
    await order("943", "C-943");
    await h.sandbox.settleNow();
    expect(shop.received).toHaveLength(1);
    expect(shop.received[0]!.json.data).toMatchObject({
      ref_id: "C-943",
      status: "Failed",
      reason: "OUT_OF_STOCK",
    });
  });

  it("signs with the secret of the key that placed the transaction", async () => {
    await start();
    h.sandbox.account().addKey({ apiKey: "second-key", secretKey: "second-secret" });
    await order("123", "C-KEY", { ...CREDS, apiKey: "second-key", secretKey: "second-secret" });
    await h.sandbox.settleNow();
    const [cb] = shop.received;
    const headers = [
      cb!.headers[CALLBACK_TIMESTAMP_HEADER] as string,
      cb!.headers[CALLBACK_SIGNATURE_HEADER] as string,
    ] as const;
    expect(verifyCallback("second-secret", cb!.rawBody, ...headers, h.clock.now()).ok).toBe(true);
    expect(verifyCallback(CREDS.secretKey, cb!.rawBody, ...headers, h.clock.now()).ok).toBe(false);
  });

  it("904 posts the failure; 905, 901 and 902 post nothing", async () => {
    await start();
    await order("904", "C-904");
    await order("905", "C-905");
    await order("901", "C-901");
    await order("902", "C-902");
    await h.sandbox.settleNow();
    expect(shop.received.map((r) => [r.json.data.ref_id, r.json.data.status])).toEqual([
      ["C-904", "Failed"],
    ]);
    expect((await h.call("/status", { ref_id: "C-905" })).body.code).toBe("ORDER_SUCCESS");
  });

  it("908 posts the final twice, then a stale Pending", async () => {
    await start();
    await order("908", "C-908");
    await h.sandbox.settleNow();
    expect(statuses()).toEqual(["Success", "Success", "Pending"]);
    expect(shop.received[2]!.json.data.sn).toBeNull();
    expect(shop.received[0]!.rawBody).toBe(shop.received[1]!.rawBody);
  });

  it("posts a bill payment's final result with lowercase status and desc", async () => {
    await start();
    await h.call("/order", {
      cmd: "inquiry",
      code: "BPJS",
      customer_no: "8888801234560",
      ref_id: "C-BILL",
    });
    await h.call("/order", {
      cmd: "pay-pasca",
      code: "BPJS",
      customer_no: "8888801234560",
      ref_id: "C-BILL",
    });
    await h.sandbox.settleNow();
    expect(shop.received).toHaveLength(1);
    expect(shop.received[0]!.json.data).toMatchObject({
      ref_id: "C-BILL",
      status: "success",
      customer_name: expect.any(String),
      desc: { lembar_tagihan: 1, jumlah_peserta: expect.any(String) },
      sn: expect.any(String),
    });
  });

  it("stamps callbacks with the sandbox clock", async () => {
    await start();
    await order("123", "C-CLOCK");
    h.clock.advance(20 * 60_000);
    await h.sandbox.settleNow();
    const [cb] = shop.received;
    const ts = Number(cb!.headers[CALLBACK_TIMESTAMP_HEADER]);
    expect(Math.abs(ts - h.clock.now() / 1000)).toBeLessThan(5);
    const headers = [
      cb!.headers[CALLBACK_TIMESTAMP_HEADER] as string,
      cb!.headers[CALLBACK_SIGNATURE_HEADER] as string,
    ] as const;
    expect(verifyCallback(CREDS.secretKey, cb!.rawBody, ...headers, h.clock.now()).ok).toBe(true);
    expect(verifyCallback(CREDS.secretKey, cb!.rawBody, ...headers, Date.now())).toEqual({
      ok: false,
      reason: "stale",
    });
  });

  it("retries a failed delivery with backoff", async () => {
    await start({}, [500, 503]);
    await order("123", "C-RETRY");
    await h.sandbox.settleNow();
    expect(statuses()).toEqual(["Success"]);
    expect(h.sandbox.transactions()[0]!.callbacksDelivered).toBe(1);
  });

  it("gives up quietly when the shop never answers well", async () => {
    await start({}, [500, 500, 500, 500, 500]);
    await order("123", "C-DOWN");
    await h.sandbox.settleNow();
    expect(shop.received).toHaveLength(0);
    expect((await h.call("/status", { ref_id: "C-DOWN" })).body.code).toBe("ORDER_SUCCESS");
  });

  it("sends nothing without a callback URL", async () => {
    await start();
    h.sandbox.account().setCallbackUrl(null);
    await order("123", "C-NOURL");
    await h.sandbox.settleNow();
    expect(shop.received).toHaveLength(0);
  });

  it("faults: drop, duplicate and reorder callbacks", async () => {
    await start({ faults: { dropCallbacks: true } });
    await order("123", "C-DROP");
    await h.sandbox.settleNow();
    expect(shop.received).toHaveLength(0);

    h.sandbox.faults = { ...h.sandbox.faults, dropCallbacks: false, duplicateCallbacks: true };
    await order("123", "C-DUP");
    await h.sandbox.settleNow();
    expect(statuses()).toEqual(["Success", "Success"]);

    shop.received.length = 0;
    h.sandbox.faults.duplicateCallbacks = false;
    h.sandbox.faults.reorderCallbacks = true;
    await order("904", "C-REORDER");
    await h.sandbox.settleNow();
    expect(statuses()).toEqual(["Failed", "Pending"]);
  });

  it("delivers from the background settle loop too", async () => {
    await start({ settleDelayMs: 30 });
    await order("123", "C-LOOP");
    const cb = await eventually(async () => shop.received[0]);
    expect(cb.json.data).toMatchObject({ ref_id: "C-LOOP", status: "Success" });
  });
});
