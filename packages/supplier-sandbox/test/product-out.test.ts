import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, phone } from "./helpers.ts";

// productInactiveRate: an active product refused PRODUCT_INACTIVE now and then (the product
// "gangguan" for a moment), before anything is done. A refusal that proves no transaction
// was formed, so a shop with a second supplier may send the order there.

describe("sandbox fault productInactiveRate", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const order = (refId: string, code = "TSEL10") =>
    h!.call("/order", { cmd: "prepaid", code, customer_no: phone("901"), ref_id: refId });

  it("at 1 refuses every new order PRODUCT_INACTIVE, charging and creating nothing", async () => {
    h = await harness({ faults: { productInactiveRate: 1 } });
    const before = h.sandbox.account().balance;
    const answer = await order("OUT-1");
    expect(answer.body).toMatchObject({ success: false, code: "PRODUCT_INACTIVE" });
    const key = await h.key("POST", "/transaction", {
      body: { product_code: "TSEL10", customer_id: phone("901"), ref_id: "OUT-2" },
    });
    expect(key.body.status).toBe("failed");
    expect(h.sandbox.transactions()).toEqual([]);
    expect(h.sandbox.requests()).toEqual([]);
    expect(h.sandbox.account().balance).toBe(before);
    // the catalogue still lists it: the shop has no way to know before it asks
    expect(h.sandbox.catalogue().find((p) => p.code === "TSEL10")?.status).toBe("active");
  });

  it("never touches a repeat: a ref_id already formed answers with its transaction", async () => {
    h = await harness();
    expect((await order("KEEP")).body.code).toBe("ORDER_SUCCESS");
    h.sandbox.faults = { ...h.sandbox.faults, productInactiveRate: 1 };
    expect((await order("KEEP")).body.code).toBe("ORDER_SUCCESS");
    expect(h.sandbox.transactions()).toHaveLength(1);
  });

  it("at a share, refuses the same orders for a seed and leaves the other faults' dice alone", async () => {
    const run = async (seed: number, rate: number) => {
      const one = await harness({ seed, faults: { productInactiveRate: rate } });
      try {
        const codes: string[] = [];
        for (let i = 0; i < 40; i++) {
          const answer = await one.call("/order", {
            cmd: "prepaid",
            code: "TSEL10",
            customer_no: phone("901"),
            ref_id: `R-${i}`,
          });
          codes.push(String(answer.body.code));
        }
        return codes;
      } finally {
        await one.close();
      }
    };
    const first = await run(7, 0.3);
    const refused = first.filter((c) => c === "PRODUCT_INACTIVE").length;
    expect(refused).toBeGreaterThan(3);
    expect(refused).toBeLessThan(25);
    expect(first.filter((c) => c === "ORDER_SUCCESS").length).toBe(40 - refused);
    expect(await run(7, 0.3)).toEqual(first);
    expect(await run(7, 0)).toEqual(Array(40).fill("ORDER_SUCCESS"));
  });

  it("is checked like every rate", async () => {
    await expect(harness({ faults: { productInactiveRate: 2 } })).rejects.toThrow(
      /productInactiveRate/,
    );
  });
});
