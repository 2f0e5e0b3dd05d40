import { ManualClock } from "@kios/kit";
import { describe, expect, it } from "vitest";
import { createWire } from "../../../src/supplier/signature/http.ts";
import { SupplierError } from "../../../src/supplier/types.ts";

// the retry loop with an injected fetch, sleep and jitter: what it waits is recorded, not timed

const CREDS = { apiId: "id", apiKey: "key-value-1", secretKey: "secret-value-1" };

function scripted(replies: (() => Response)[]) {
  const calls: { url: string; body: Record<string, unknown> }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), body: JSON.parse(String(init?.body)) });
    const next = replies[Math.min(calls.length - 1, replies.length - 1)]!;
    return next();
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const json =
  (status: number, code: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ success: status === 200, code, message: "", data: null }), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });

function wireWith(fetchImpl: typeof fetch, clock = new ManualClock()) {
  const waits: number[] = [];
  const wire = createWire({
    baseUrl: "https://supplier.example/v1",
    credentials: CREDS,
    timeoutMs: 1000,
    retryBaseMs: 100,
    clock,
    fetch: fetchImpl,
    sleep: async (ms) => {
      waits.push(ms);
      clock.advance(ms);
    },
    random: () => 1,
  });
  return { wire, waits };
}

describe("createWire", () => {
  it("backs off exponentially with jitter between read attempts", async () => {
    const { calls, fetchImpl } = scripted([json(503, "SERVER_ERROR")]);
    const { wire, waits } = wireWith(fetchImpl);
    await expect(wire.post("/status", { ref_id: "K1" }, 3)).rejects.toMatchObject({
      code: "SERVER_ERROR",
    });
    expect(calls).toHaveLength(4);
    // random() = 1: the top of each window, base·2ⁿ
    expect(waits).toEqual([100, 200, 400]);
    expect(calls.every((c) => c.url === "https://supplier.example/v1/status")).toBe(true);
  });

  it("keeps half of each step fixed (random() = 0)", async () => {
    const { fetchImpl } = scripted([json(500, "SERVER_ERROR")]);
    const waits: number[] = [];
    const wire = createWire({
      baseUrl: "https://supplier.example/v1",
      credentials: CREDS,
      timeoutMs: 1000,
      retryBaseMs: 100,
      clock: new ManualClock(),
      fetch: fetchImpl,
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0,
    });
    await expect(wire.post("/balance", {}, 2)).rejects.toBeInstanceOf(SupplierError);
    expect(waits).toEqual([50, 100]);
  });

  it("honours a numeric Retry-After on 429, up to 10 seconds", async () => {
    const { calls, fetchImpl } = scripted([
      json(429, "RATE_LIMITED", { "retry-after": "2" }),
      json(429, "RATE_LIMITED", { "retry-after": "3600" }),
      json(200, "SUCCESS"),
    ]);
    const { wire, waits } = wireWith(fetchImpl);
    const reply = await wire.post("/balance", {}, 3);
    expect(reply.envelope.code).toBe("SUCCESS");
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([2000, 10_000]);
  });

  it("signs each attempt afresh with the clock's time", async () => {
    const { calls, fetchImpl } = scripted([json(502, "SERVER_ERROR"), json(200, "SUCCESS")]);
    const clock = new ManualClock({ start: 1_767_225_600_000, frozen: true });
    const wire = createWire({
      baseUrl: "https://supplier.example/v1",
      credentials: CREDS,
      timeoutMs: 1000,
      retryBaseMs: 2000,
      clock,
      fetch: fetchImpl,
      sleep: async (ms) => clock.advance(ms),
      random: () => 1,
    });
    await wire.post("/products", { cmd: "game" }, 1);
    expect(calls.map((c) => c.body.timestamp)).toEqual([1_767_225_600, 1_767_225_602]);
    expect(calls[0]!.body.signature).not.toBe(calls[1]!.body.signature);
    expect(calls.every((c) => c.body.cmd === "game")).toBe(true);
  });

  it("a fetch that throws is TRANSPORT_ERROR, retried on reads only", async () => {
    let n = 0;
    const failing = (async () => {
      n += 1;
      throw Object.assign(new TypeError("fetch failed"), {
        cause: { code: "ECONNRESET", message: `body had ${CREDS.apiKey}` },
      });
    }) as typeof fetch;
    const { wire } = wireWith(failing);
    const err = await wire.post("/order", { cmd: "prepaid" }, 0).catch((e) => e);
    expect(err).toBeInstanceOf(SupplierError);
    expect(err.code).toBe("TRANSPORT_ERROR");
    expect(err.message).toContain("ECONNRESET");
    expect(err.message).not.toContain(CREDS.apiKey);
    expect(n).toBe(1);
    await wire.post("/balance", {}, 2).catch(() => undefined);
    expect(n).toBe(4);
  });

  it("a 5xx carries the supplier's code only when its body had one", async () => {
    const html = () => new Response("<h1>502</h1>", { status: 502 });
    const { wire } = wireWith(scripted([html]).fetchImpl);
    const err = (await wire.post("/balance", {}, 0).catch((e) => e)) as SupplierError;
    expect(err.code).toBe("SERVER_ERROR");
    expect(err.details).toEqual({ httpStatus: 502 });
    const { wire: wire2 } = wireWith(scripted([json(500, "SERVER_ERROR")]).fetchImpl);
    const err2 = (await wire2.post("/balance", {}, 0).catch((e) => e)) as SupplierError;
    expect(err2.details).toEqual({ httpStatus: 500, supplierCode: "SERVER_ERROR" });
  });
});
