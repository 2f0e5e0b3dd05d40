import { CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER, verifyCallback } from "@kios/kit";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, NO_FAULTS, type SandboxOptions } from "../index.ts";
import { callbackPlan, NO_CALLBACK_ROLL } from "../src/faults.ts";
import { CREDS, callbackReceiver, type Harness, harness, phone } from "./helpers.ts";

// the faults a fault campaign needs beyond latency, timeouts and a 500 after the work:
// failures before the work, dropped connections, lagging or failing status answers, and
// forged or expired callbacks.

type Receiver = Awaited<ReturnType<typeof callbackReceiver>>;

describe("sandbox faults: before, after and in between", () => {
  let h: Harness | undefined;
  let shop: Receiver | undefined;
  afterEach(async () => {
    await h?.close();
    await shop?.close();
    h = undefined;
    shop = undefined;
  });

  const order = (last3: string, refId: string) =>
    h!.call("/order", { cmd: "prepaid", code: "TSEL5", customer_no: phone(last3), ref_id: refId });

  it("errorBeforeRate answers 500 without doing the work", async () => {
    h = await harness({ faults: { errorBeforeRate: 1 } });
    const res = await order("123", "B-500");
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, code: "SERVER_ERROR" });
    h.sandbox.faults = { ...NO_FAULTS };
    expect((await h.call("/status", { ref_id: "B-500" })).body.code).toBe("TRANSACTION_NOT_FOUND");
    expect(h.sandbox.transactions()).toHaveLength(0);
  });

  it("resetBeforeRate drops the connection and creates nothing", async () => {
    h = await harness({ faults: { resetBeforeRate: 1 } });
    await expect(order("123", "R-BEFORE")).rejects.toThrow();
    expect(h.sandbox.transactions()).toHaveLength(0);
    expect(h.sandbox.requests()).toEqual([]);
  });

  it("resetAfterRate creates and charges the transaction, then drops the connection", async () => {
    h = await harness({ faults: { resetAfterRate: 1 } });
    const before = h.sandbox.account().balance;
    await expect(order("123", "R-AFTER")).rejects.toThrow();
    const [t] = h.sandbox.transactions();
    expect(t).toMatchObject({ refId: "R-AFTER", status: "pending" });
    expect(h.sandbox.account().balance).toBe(before - t!.charged);
    h.sandbox.faults = { ...NO_FAULTS };
    expect((await h.call("/status", { ref_id: "R-AFTER" })).body.code).toBe("ORDER_PENDING");
  });

  it("in-process (no socket) a reset is an empty 502", async () => {
    const sandbox = createSandbox({ faults: { resetBeforeRate: 1 } });
    try {
      const res = await sandbox.app.request("/v1/balance", { method: "POST", body: "{}" });
      expect(res.status).toBe(502);
      expect(await res.text()).toBe("");
    } finally {
      await sandbox.close();
    }
  });

  it("statusErrorRate fails status queries only", async () => {
    h = await harness({ faults: { statusErrorRate: 1 } });
    expect((await order("123", "S-500")).status).toBe(200);
    const status = await h.call("/status", { ref_id: "S-500" });
    expect(status.status).toBe(500);
    expect(status.body.code).toBe("SERVER_ERROR");
    const key = await h.key("GET", "/transaction", { query: { ref_id: "S-500" } });
    expect(key.status).toBe(500);
    expect(key.body.rc).toBe("99");
  });

  it("statusLagMs reports a settled transaction as pending until the lag has passed", async () => {
    h = await harness({ faults: { statusLagMs: 10_000 } });
    await order("903", "LAG");
    await order("901", "AT-ONCE");
    await h.sandbox.settleNow();
    expect(h.sandbox.transactions().find((t) => t.refId === "LAG")?.status).toBe("success");
    expect((await h.call("/status", { ref_id: "LAG" })).body.code).toBe("ORDER_PENDING");
    const key = await h.key("GET", "/transaction", { query: { ref_id: "LAG" } });
    expect(key.body.rc).toBe("03");
    // a transaction that was final at once was never pending: nothing earlier to show
    expect((await h.call("/status", { ref_id: "AT-ONCE" })).body.code).toBe("ORDER_SUCCESS");
    h.clock.advance(10_000);
    expect((await h.call("/status", { ref_id: "LAG" })).body.code).toBe("ORDER_SUCCESS");
  });

  it("records every order request: created once, repeats after", async () => {
    h = await harness();
    await order("123", "BOOK-1");
    await order("123", "BOOK-1");
    await order("902", "BOOK-2");
    expect(h.sandbox.requests().map((r) => [r.refId, r.result])).toEqual([
      ["BOOK-1", "created"],
      ["BOOK-1", "repeat"],
      ["BOOK-2", "created"],
    ]);
  });

  describe("callbacks", () => {
    const start = async (options: SandboxOptions) => {
      shop = await callbackReceiver();
      h = await harness({ callbackRetryDelaysMs: [], ...options });
      h.sandbox.account().setCallbackUrl(shop.url);
    };
    const verdict = (i: number) => {
      const cb = shop!.received[i]!;
      return verifyCallback(
        CREDS.secretKey,
        cb.rawBody,
        cb.headers[CALLBACK_TIMESTAMP_HEADER] as string,
        cb.headers[CALLBACK_SIGNATURE_HEADER] as string,
        h!.clock.now(),
      );
    };

    it("callbackForgeRate sends a forged callback first: a bad signature, the opposite outcome", async () => {
      await start({ faults: { callbackForgeRate: 1 } });
      await order("904", "FORGE");
      await h!.sandbox.settleNow();
      expect(shop!.received.map((r) => r.json.data.status)).toEqual(["Success", "Failed"]);
      expect(verdict(0)).toEqual({ ok: false, reason: "bad_signature" });
      expect(verdict(1)).toEqual({ ok: true });
    });

    it("callbackExpireRate sends the final state again last, signed 10 minutes in the past", async () => {
      await start({ faults: { callbackExpireRate: 1 } });
      await order("903", "EXPIRE");
      await h!.sandbox.settleNow();
      expect(shop!.received.map((r) => r.json.data.status)).toEqual(["Success", "Success"]);
      expect(verdict(0)).toEqual({ ok: true });
      expect(verdict(1)).toEqual({ ok: false, reason: "stale" });
      const cb = shop!.received[1]!;
      const signedAt = Number(cb.headers[CALLBACK_TIMESTAMP_HEADER]) * 1000;
      expect(
        verifyCallback(
          CREDS.secretKey,
          cb.rawBody,
          cb.headers[CALLBACK_TIMESTAMP_HEADER] as string,
          cb.headers[CALLBACK_SIGNATURE_HEADER] as string,
          signedAt,
        ),
      ).toEqual({ ok: true });
    });

    it("callbackDropRate drops the callbacks of some transactions, the same ones for a seed", async () => {
      const delivered = async (seed: number) => {
        await start({ seed, faults: { callbackDropRate: 0.5 } });
        for (let i = 0; i < 16; i++) await order("903", `DROP-${i}`);
        await h!.sandbox.settleNow();
        const refs = shop!.received.map((r) => String(r.json.data.ref_id)).sort();
        await h!.close();
        await shop!.close();
        h = undefined;
        shop = undefined;
        return refs;
      };
      const a = await delivered(7);
      expect(a.length).toBeGreaterThan(0);
      expect(a.length).toBeLessThan(16);
      expect(await delivered(7)).toEqual(a);
    });
  });

  it("callbackPlan: a rolled fault acts as its boolean would, for one transaction", () => {
    const roll = { ...NO_CALLBACK_ROLL };
    expect(callbackPlan("once", NO_FAULTS, { ...roll, duplicate: true })).toEqual([
      "final",
      "final",
    ]);
    expect(callbackPlan("once", NO_FAULTS, { ...roll, reorder: true, forge: true })).toEqual([
      "forged",
      "final",
      "stale",
    ]);
    expect(callbackPlan("once", NO_FAULTS, { ...roll, drop: true, forge: true })).toEqual([]);
    expect(callbackPlan("none", NO_FAULTS, { ...roll, expire: true })).toEqual([]);
  });
});
