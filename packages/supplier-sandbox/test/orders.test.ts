import { ManualClock } from "@kios/kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_BALANCE } from "../index.ts";
import { eventually, type Harness, harness, phone } from "./helpers.ts";

type OrderData = {
  ref_id: string;
  status: string;
  customer_no: string;
  code: string;
  name: string;
  price: number;
  sn: string | null;
  created_at: string;
};

describe("sandbox orders (prepaid and game)", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  const order = (params: Record<string, unknown>) =>
    h.call("/order", { cmd: "prepaid", code: "TSEL10", ...params });
  const status = (refId: string) => h.call("/status", { ref_id: refId });
  const price = (code: string) => h.sandbox.catalogue().find((p) => p.code === code)!.price;
  const balance = () => h.sandbox.account().balance;

  it("901: succeeds at once with an SN, charging the price", async () => {
    const { status: http, body } = await order({ customer_no: phone("901"), ref_id: "O-901" });
    expect(http).toBe(200);
    expect(body).toMatchObject({ success: true, code: "ORDER_SUCCESS", errors: null, meta: null });
    const data = body.data as OrderData;
    expect(data).toEqual({
      ref_id: "O-901",
      status: "Success",
      customer_no: phone("901"),
      code: "TSEL10",
      name: "Telkomsel 10.000",
      price: price("TSEL10"),
      sn: expect.stringMatching(/^\d{20}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
  });

  it("902: fails at once with the record and refunds", async () => {
    const { status: http, body } = await order({ customer_no: phone("902"), ref_id: "O-902" });
    expect(http).toBe(200);
    expect(body).toMatchObject({ success: false, code: "ORDER_FAILED" });
    expect(body.data).toMatchObject({ ref_id: "O-902", status: "Failed", sn: null });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
    expect((await status("O-902")).body.code).toBe("ORDER_FAILED");
  });

  it("903 and the default: pending, then success with an SN", async () => {
    for (const [customer, ref] of [
      [phone("903"), "O-903"],
      [phone("123"), "O-DEF"],
    ] as const) {
      const { body } = await order({ customer_no: customer, ref_id: ref });
      expect(body).toMatchObject({ success: true, code: "ORDER_PENDING" });
      expect(body.data).toMatchObject({ status: "Pending", sn: null });
      expect((await status(ref)).body.code).toBe("ORDER_PENDING");
    }
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - 2 * price("TSEL10"));
    await h.sandbox.settleNow();
    for (const ref of ["O-903", "O-DEF"]) {
      const { status: http, body } = await status(ref);
      expect(http).toBe(200);
      expect(body).toMatchObject({ success: true, code: "ORDER_SUCCESS" });
      expect((body.data as OrderData).sn).toMatch(/^\d{20}$/);
    }
  });

  it("904: pending, then failed with a refund", async () => {
    await order({ customer_no: phone("904"), ref_id: "O-904" });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
    await h.sandbox.settleNow();
    const { body } = await status("O-904");
    expect(body).toMatchObject({ success: false, code: "ORDER_FAILED" });
    expect(body.data).toMatchObject({ status: "Failed", sn: null });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
  });

  it("941 to 947: fail at once with the reason on the record; 902's record has none", async () => {
    const cases = [
      ["941", "OUT_OF_STOCK"],
      ["942", "PRODUCT_DISRUPTED"],
      ["945", "SUPPLIER_ERROR"],
      ["946", "INVALID_CUSTOMER_NO"],
      ["947", "WRONG_OPERATOR"],
    ] as const;
    for (const [ending, reason] of cases) {
      const ref = `O-${ending}`;
      const { body } = await order({ customer_no: phone(ending), ref_id: ref });
      expect(body).toMatchObject({ success: false, code: "ORDER_FAILED" });
      expect(body.data).toMatchObject({ ref_id: ref, status: "Failed", sn: null, reason });
      expect((await status(ref)).body.data).toMatchObject({ status: "Failed", reason });
    }
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
    const plain = await order({ customer_no: phone("902"), ref_id: "O-902-PLAIN" });
    expect(plain.body.data).not.toHaveProperty("reason");
  });

  it("943, 944, 948: pending without a reason, then failed with it", async () => {
    const cases = [
      ["943", "OUT_OF_STOCK"],
      ["944", "PRODUCT_DISRUPTED"],
      ["948", "INVALID_CUSTOMER_NO"],
    ] as const;
    for (const [ending] of cases) {
      const { body } = await order({ customer_no: phone(ending), ref_id: `O-${ending}` });
      expect(body.code).toBe("ORDER_PENDING");
      expect(body.data).not.toHaveProperty("reason");
    }
    await h.sandbox.settleNow();
    for (const [ending, reason] of cases) {
      const { body } = await status(`O-${ending}`);
      expect(body).toMatchObject({ code: "ORDER_FAILED", data: { status: "Failed", reason } });
    }
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
  });

  it("905: pending, then final (only /v1/status tells)", async () => {
    const { body } = await order({ customer_no: phone("905"), ref_id: "O-905" });
    expect(body.code).toBe("ORDER_PENDING");
    await h.sandbox.settleNow();
    expect((await status("O-905")).body.code).toBe("ORDER_SUCCESS");
  });

  it("907: the transaction is created, then the reply is a 500", async () => {
    const { status: http, body } = await order({ customer_no: phone("907"), ref_id: "O-907" });
    expect(http).toBe(500);
    expect(body).toEqual({
      success: false,
      code: "SERVER_ERROR",
      message: expect.any(String),
      data: null,
      errors: null,
      meta: null,
    });
    const stored = await status("O-907");
    expect(stored.body).toMatchObject({ code: "ORDER_PENDING", data: { ref_id: "O-907" } });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
    // a repeat with the ref_id answers normally and charges nothing more
    const repeat = await order({ customer_no: phone("907"), ref_id: "O-907" });
    expect(repeat.status).toBe(200);
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
  });

  it("repeats with an existing ref_id return the stored transaction and charge once", async () => {
    const first = await order({ customer_no: phone("123"), ref_id: "O-REPEAT" });
    const again = await order({ customer_no: phone("901"), code: "TSEL50", ref_id: "O-REPEAT" });
    expect(again.body).toEqual(first.body);
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
    await h.sandbox.settleNow();
    const later = await order({ customer_no: phone("123"), ref_id: "O-REPEAT" });
    expect(later.body).toMatchObject({ code: "ORDER_SUCCESS", data: { status: "Success" } });
    expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
    expect(h.sandbox.transactions().filter((t) => t.refId === "O-REPEAT")).toHaveLength(1);
  });

  it("generates a ref_id when none or an empty one is sent", async () => {
    const a = await order({ customer_no: phone("123") });
    const b = await order({ customer_no: phone("123"), ref_id: "" });
    const refA = (a.body.data as OrderData).ref_id;
    const refB = (b.body.data as OrderData).ref_id;
    expect(refA).toMatch(/^[A-Z0-9]{6,64}$/);
    expect(refB).not.toBe(refA);
    expect((await status(refA)).status).toBe(200);
  });

  it("testing mode runs the same flow without charging", async () => {
    h.sandbox.account().setBalance(1000);
    const { body } = await order({ customer_no: phone("903"), ref_id: "O-TEST", testing: true });
    expect(body.code).toBe("ORDER_PENDING");
    await h.sandbox.settleNow();
    expect((await status("O-TEST")).body.code).toBe("ORDER_SUCCESS");
    expect(balance()).toBe(1000);
    expect(h.sandbox.transactions()[0]).toMatchObject({ testing: true, charged: 0 });
  });

  it("refuses what cannot be bought, charging nothing", async () => {
    h.sandbox.account().setBalance(5000);
    const poor = await order({ customer_no: phone("123"), ref_id: "O-POOR" });
    expect(poor.status).toBe(200);
    expect(poor.body).toMatchObject({ success: false, code: "INSUFFICIENT_BALANCE", data: null });
    expect((await status("O-POOR")).status).toBe(404);

    const missing = await order({ code: "NOPE99", customer_no: phone("123") });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("PRODUCT_NOT_FOUND");
    // a game product is not a prepaid one
    const wrongType = await order({ code: "ML86", customer_no: phone("123") });
    expect(wrongType.status).toBe(404);
    expect(wrongType.body.code).toBe("PRODUCT_NOT_FOUND");

    const inactive = await order({ code: "ISAT1000", customer_no: phone("123") });
    expect(inactive.status).toBe(200);
    expect(inactive.body).toMatchObject({ success: false, code: "PRODUCT_INACTIVE" });

    for (const customer of ["12345", "0812-3456-7890", "+6281234567890", "0812345678901234"]) {
      const bad = await order({ code: "TSEL5", customer_no: customer });
      expect(bad.body.code, customer).toBe("INVALID_CUSTOMER_NO");
    }
    const badGame = await h.call("/order", { cmd: "game", code: "ML86", customer_no: "ab12" });
    expect(badGame.body.code).toBe("INVALID_CUSTOMER_NO");
    expect(balance()).toBe(5000);
    expect(h.sandbox.transactions()).toHaveLength(0);
  });

  it("takes game ids with a zone and PLN meter numbers", async () => {
    const game = await h.call("/order", {
      cmd: "game",
      code: "ML86",
      customer_no: "123456789(2901)",
      ref_id: "G-1",
    });
    // "123456789(2901)" ends in the digits 901: success at once
    expect(game.body).toMatchObject({
      code: "ORDER_SUCCESS",
      data: { customer_no: "123456789(2901)" },
    });
    expect((game.body.data as OrderData).sn).toMatch(/^[0-9A-F]{4}(-[0-9A-F]{4}){3}$/);

    const token = await order({ code: "PLN20", customer_no: "530012345901", ref_id: "P-1" });
    expect(token.body.code).toBe("ORDER_SUCCESS");
    expect((token.body.data as OrderData).sn).toMatch(
      /^\d{20}\/[A-Z]+ [A-Z]+\/R[12]\/\d+\/\d+\.\d$/,
    );
  });

  it("derives serial numbers from the ref_id alone", async () => {
    const other = await harness();
    try {
      const params = { code: "PLN50", customer_no: "53001234901", ref_id: "SAME-REF" };
      const a = await order(params);
      const b = await other.call("/order", { cmd: "prepaid", ...params });
      expect((a.body.data as OrderData).sn).toBe((b.body.data as OrderData).sn);
      const c = await order({ ...params, ref_id: "OTHER-REF" });
      expect((c.body.data as OrderData).sn).not.toBe((a.body.data as OrderData).sn);
    } finally {
      await other.close();
    }
  });

  it("answers a status for an unknown ref_id with TRANSACTION_NOT_FOUND", async () => {
    const { status: http, body } = await status("NEVER-SEEN");
    expect(http).toBe(404);
    expect(body).toMatchObject({ success: false, code: "TRANSACTION_NOT_FOUND", data: null });
  });

  it("answers malformed orders with VALIDATION_ERROR naming each field", async () => {
    const none = await h.call("/order", {});
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual({ cmd: ["is required"] });

    const unknown = await h.call("/order", { cmd: "topup" });
    expect(unknown.body.errors?.cmd?.[0]).toContain("prepaid, game, inquiry, pay-pasca");

    const bad = await h.call("/order", {
      cmd: "prepaid",
      code: "TSEL5",
      customer_no: 81234567001,
      ref_id: "x".repeat(65),
      testing: "yes",
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, code: "VALIDATION_ERROR", data: null });
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual(["customer_no", "ref_id", "testing"]);

    const statusless = await h.call("/status", {});
    expect(statusless.status).toBe(400);
    expect(statusless.body.errors).toEqual({ ref_id: ["is required"] });
    expect(h.sandbox.transactions()).toHaveLength(0);
  });
});

describe("sandbox settling and slow replies", () => {
  it("settles pending transactions by the clock in the background", async () => {
    const h = await harness({ settleDelayMs: 50 });
    try {
      await h.call("/order", {
        cmd: "prepaid",
        code: "TSEL5",
        customer_no: phone("123"),
        ref_id: "S-1",
      });
      const settled = await eventually(async () => {
        const { body } = await h.call("/status", { ref_id: "S-1" });
        return body.code === "ORDER_SUCCESS" ? body : undefined;
      });
      expect(settled.data).toMatchObject({ status: "Success" });
    } finally {
      await h.close();
    }
  });

  it("waits for the clock: nothing settles until it reaches settleAt", async () => {
    const clock = new ManualClock({ frozen: true });
    const h = await harness({ clock, settleDelayMs: 10_000 });
    try {
      await h.call("/order", {
        cmd: "prepaid",
        code: "TSEL5",
        customer_no: phone("123"),
        ref_id: "S-2",
      });
      // several loop ticks pass in real time; the frozen clock has not moved
      await new Promise((r) => setTimeout(r, 150));
      expect((await h.call("/status", { ref_id: "S-2" })).body.code).toBe("ORDER_PENDING");
      clock.advance(10_000);
      const settled = await eventually(async () => {
        const { body } = await h.call("/status", { ref_id: "S-2" });
        return body.code === "ORDER_SUCCESS" ? body : undefined;
      });
      expect(settled.success).toBe(true);
    } finally {
      await h.close();
    }
  });

  it("writes created_at in WIB", async () => {
    const clock = new ManualClock({ start: Date.UTC(2026, 10, 1, 5, 4, 3), frozen: true });
    const h = await harness({ clock });
    try {
      const { body } = await h.call("/order", {
        cmd: "prepaid",
        code: "TSEL5",
        customer_no: phone("901"),
      });
      expect((body.data as OrderData).created_at).toBe("2026-11-01 12:04:03");
    } finally {
      await h.close();
    }
  });

  it("906: creates the transaction but holds the reply back", async () => {
    const h = await harness({ slowReplyMs: 5_000 });
    try {
      const slow = h.call(
        "/order",
        { cmd: "prepaid", code: "TSEL5", customer_no: phone("906"), ref_id: "S-906" },
        { signal: AbortSignal.timeout(200) },
      );
      await expect(slow).rejects.toThrow();
      const { body } = await h.call("/status", { ref_id: "S-906" });
      expect(body).toMatchObject({ code: "ORDER_PENDING", data: { ref_id: "S-906" } });
      const [t] = h.sandbox.transactions();
      expect(t).toMatchObject({ outcome: "906-slow-reply", status: "pending" });
      expect(t!.charged).toBe(t!.price);
    } finally {
      // close releases the held reply, so nothing lingers
      await h.close();
    }
  });
});
