import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverDueCallbacks, queueFinalCallbacks } from "../../src/commerce/h2h/callbacks.ts";
import { updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// "an independent client that signs by docs/supplier.md": no kios code on the client side,
// the signing written out as docs/h2h.md's Node example does it. It buys, repeats a ref_id,
// checks status, and verifies kios's callback.

interface Creds {
  apiId: string;
  apiKey: string;
  secretKey: string;
}

const sortDeep = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(sortDeep)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
        )
      : v;

async function call(
  base: string,
  creds: Creds,
  nowMs: number,
  path: string,
  params: Record<string, unknown>,
) {
  const timestamp = Math.floor(nowMs / 1000);
  const canonical = Object.keys(params).length ? JSON.stringify(sortDeep(params)) : "";
  const hash = createHash("sha256").update(canonical).digest("hex");
  const signature = createHmac("sha256", creds.secretKey)
    .update(`${creds.apiId}|${creds.apiKey}|${timestamp}|${hash}`)
    .digest("hex");
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...params, api_id: creds.apiId, timestamp, signature }),
  });
  return {
    http: res.status,
    body: (await res.json()) as { success: boolean; code: string; data: Record<string, unknown> },
  };
}

function verify(secret: string, raw: string, ts: string, sig: string, nowMs: number): boolean {
  const expected = Buffer.from(createHmac("sha256", secret).update(`${ts}.${raw}`).digest("hex"));
  const given = Buffer.from(sig);
  return (
    expected.length === given.length &&
    timingSafeEqual(expected, given) &&
    Math.abs(nowMs / 1000 - Number(ts)) <= 300
  );
}

describe(`an independent client against /h2h/v1 (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h.stop());

  it("buys, repeats a ref_id, checks status, verifies the callback", async () => {
    const received: { raw: string; ts: string; sig: string }[] = [];
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => {
        raw += c;
      });
      req.on("end", () => {
        received.push({
          raw,
          ts: String(req.headers["x-callback-timestamp"]),
          sig: String(req.headers["x-callback-signature"]),
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const key = await h.reseller(100_000);
    await updateKeySettings(h.deps.db, key.userId, {
      callbackUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    });
    const now = () => h.clock.now();
    const order = {
      cmd: "prepaid",
      code: "TSEL10",
      customer_no: "081234500901",
      ref_id: "ext/2026/0001",
    };

    const balance = await call(h.baseUrl, key, now(), "/balance", {});
    expect(balance).toMatchObject({
      http: 200,
      body: { code: "SUCCESS", data: { balance: 100_000 } },
    });
    const first = await call(h.baseUrl, key, now(), "/order", order);
    expect(first).toMatchObject({
      http: 200,
      body: {
        success: true,
        code: "ORDER_SUCCESS",
        data: { ref_id: "ext/2026/0001", status: "Success" },
      },
    });
    const again = await call(h.baseUrl, key, now(), "/order", order);
    expect(again.body.data).toEqual(first.body.data);
    const status = await call(h.baseUrl, key, now(), "/status", { ref_id: "ext/2026/0001" });
    expect(status.body).toMatchObject({ code: "ORDER_SUCCESS", data: { sn: first.body.data.sn } });
    const after = await call(h.baseUrl, key, now(), "/balance", {});
    expect(after.body.data.balance).toBe(100_000 - (first.body.data.price as number));

    await queueFinalCallbacks({ db: h.deps.db, clock: h.clock });
    await deliverDueCallbacks({
      db: h.deps.db,
      box: h.box,
      clock: h.clock,
      logger: h.deps.logger,
      policy: { allowLoopbackHttp: true },
      // generous: a loaded machine must not turn a slow answer into a failed attempt
      timeoutMs: 20_000,
    });
    expect(received).toHaveLength(1);
    const cb = received[0]!;
    expect(verify(key.secretKey, cb.raw, cb.ts, cb.sig, now())).toBe(true);
    expect(verify(key.secretKey, cb.raw.replace("Success", "Failed"), cb.ts, cb.sig, now())).toBe(
      false,
    );
    expect(JSON.parse(cb.raw)).toEqual({ event: "transaction.final", data: status.body.data });
    await new Promise<void>((r) => server.close(() => r()));
  });
});
