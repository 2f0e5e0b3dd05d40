import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, NO_FAULTS } from "../index.ts";
import { type Harness, harness, phone } from "./helpers.ts";

describe("sandbox fault injection", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("errorRate answers 500 SERVER_ERROR after the work is done", async () => {
    h = await harness({ faults: { errorRate: 1 } });
    const balance = await h.call("/balance");
    expect(balance.status).toBe(500);
    expect(balance.body).toMatchObject({ success: false, code: "SERVER_ERROR", data: null });

    const order = await h.call("/order", {
      cmd: "prepaid",
      code: "TSEL5",
      customer_no: phone("123"),
      ref_id: "F-500",
    });
    expect(order.status).toBe(500);
    h.sandbox.faults.errorRate = 0;
    // the order exists and was charged: only /v1/status can tell
    const status = await h.call("/status", { ref_id: "F-500" });
    expect(status.body).toMatchObject({ code: "ORDER_PENDING", data: { ref_id: "F-500" } });
    expect(h.sandbox.transactions()[0]!.charged).toBeGreaterThan(0);
  });

  it("latencyMs holds every reply back at least that long", async () => {
    h = await harness({ faults: { latencyMs: 250 } });
    const started = performance.now();
    const { status } = await h.call("/balance");
    expect(status).toBe(200);
    // a lower bound only: the reply cannot come sooner than the injected wait
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it("timeoutRate holds replies back past a client's timeout, after doing the work", async () => {
    h = await harness({ slowReplyMs: 5_000, faults: { timeoutRate: 1 } });
    const slow = h.call(
      "/order",
      { cmd: "prepaid", code: "TSEL5", customer_no: phone("123"), ref_id: "F-SLOW" },
      { signal: AbortSignal.timeout(200) },
    );
    await expect(slow).rejects.toThrow();
    h.sandbox.faults = { ...NO_FAULTS };
    expect((await h.call("/status", { ref_id: "F-SLOW" })).body.code).toBe("ORDER_PENDING");
  });

  it("decides faults with the seeded generator, the same on every run", async () => {
    const pattern = async (seed: number) => {
      const sandbox = createSandbox({ seed, faults: { errorRate: 0.5 } });
      try {
        const out: number[] = [];
        for (let i = 0; i < 24; i++) {
          const res = await sandbox.app.request("/v1/balance", { method: "POST", body: "{}" });
          out.push(res.status);
        }
        return out;
      } finally {
        await sandbox.close();
      }
    };
    const a = await pattern(42);
    expect(await pattern(42)).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(400);
  });

  it("refuses rates outside 0..1", () => {
    expect(() => createSandbox({ faults: { errorRate: 2 } })).toThrow(/errorRate/);
    const sandbox = createSandbox();
    expect(() => {
      sandbox.faults = { ...NO_FAULTS, timeoutRate: -1 };
    }).toThrow(/timeoutRate/);
    return sandbox.close();
  });
});
