import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, phone } from "./helpers.ts";

// a second sandbox beside the first (the playground's backup supplier): its own codes,
// prices, inactive products and outcome table, so failover can be tried.

describe("a sandbox variant", () => {
  let h: Harness | undefined;
  let first: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    await first?.close();
  });

  it("prefixes every code, and keeps the names, brands and categories", async () => {
    first = await harness();
    h = await harness({ seed: 2, catalogueVariant: { codePrefix: "B" } });
    const mine = h.sandbox.catalogue();
    expect(mine.every((p) => p.code.startsWith("B"))).toBe(true);
    const tsel = mine.find((p) => p.code === "BTSEL10")!;
    const theirs = first.sandbox.catalogue().find((p) => p.code === "TSEL10")!;
    expect({ ...tsel, code: "TSEL10", price: 0 }).toMatchObject({ ...theirs, price: 0 });
    // the seed moves the prices somewhere
    const differ = mine.filter(
      (p) => first!.sandbox.catalogue().find((q) => `B${q.code}` === p.code)?.price !== p.price,
    );
    expect(differ.length).toBeGreaterThan(0);
  });

  it("is out of what it says, and sells what the first has inactive", async () => {
    h = await harness({ catalogueVariant: { codePrefix: "B", inactiveCodes: ["TSEL5"] } });
    const byCode = (code: string) => h!.sandbox.catalogue().find((p) => p.code === code)!;
    expect(byCode("BTSEL5").status).toBe("inactive");
    expect(byCode("BISAT1000").status).toBe("active");
    const answer = await h.call("/order", {
      cmd: "prepaid",
      code: "BTSEL5",
      customer_no: phone("901"),
      ref_id: "V-1",
    });
    expect(answer.body.code).toBe("PRODUCT_INACTIVE");
    const unknown = await h.call("/order", {
      cmd: "prepaid",
      code: "TSEL10",
      customer_no: phone("901"),
      ref_id: "V-2",
    });
    expect(unknown.body.code).toBe("PRODUCT_NOT_FOUND");
  });

  it("plays its own outcome table: an ending that fails elsewhere succeeds here", async () => {
    h = await harness({ outcomes: { "902": "901" } });
    const answer = await h.call("/order", {
      cmd: "prepaid",
      code: "TSEL10",
      customer_no: phone("902"),
      ref_id: "V-3",
    });
    expect(answer.body.code).toBe("ORDER_SUCCESS");
    const same = await h.call("/order", {
      cmd: "prepaid",
      code: "TSEL10",
      customer_no: phone("904"),
      ref_id: "V-4",
    });
    expect(same.body.code).toBe("ORDER_PENDING");
  });
});
