import { ManualClock } from "@kios/kit";
import { describe, expect, it } from "vitest";
import { newRefId } from "../../src/supplier/ref-id.ts";
import { boot, cleanUpAfterEach, kitOf, phone, rejectedWith, thrown } from "./contract-kit.ts";

// the signature interface's own cases against the sandbox: its signature, api_id and
// timestamp checks, and the old release's path. The shared contract is contract.test.ts.

cleanUpAfterEach();
const kit = kitOf("signature");

describe("authentication", () => {
  it("wrong secret → INVALID_SIGNATURE", async () => {
    const { client } = await boot(kit);
    const supplier = client({ secretKey: "not-the-secret" });
    expect((await thrown(supplier.balance())).code).toBe("INVALID_SIGNATURE");
    const product = "TSEL10";
    rejectedWith(
      await supplier.order({
        cmd: "prepaid",
        code: product,
        customerNo: phone("901"),
        refId: newRefId(),
      }),
      "INVALID_SIGNATURE",
    );
  });

  it("unknown api_id → UNAUTHORIZED", async () => {
    const { client } = await boot(kit);
    expect((await thrown(client({ apiId: "NOBODY" }).status("K1"))).code).toBe("UNAUTHORIZED");
  });

  it("a stale or future timestamp → TIMESTAMP_EXPIRED, with a word about the clock", async () => {
    const { client, clock } = await boot(kit);
    for (const offset of [-(5 * 60 + 30) * 1000, (5 * 60 + 30) * 1000]) {
      const skewed = new ManualClock({ start: clock.now() + offset });
      const supplier = client({ clock: skewed });
      const err = await thrown(supplier.balance());
      expect(err.code).toBe("TIMESTAMP_EXPIRED");
      expect(err.message).toMatch(/clock may be wrong/);
      rejectedWith(
        await supplier.order({
          cmd: "prepaid",
          code: "TSEL10",
          customerNo: phone("901"),
          refId: newRefId(),
        }),
        "TIMESTAMP_EXPIRED",
      );
    }
  });
});

describe("the old release", () => {
  it("its path answers 410 → GONE (the client never sends it; a rewrite forces it)", async () => {
    const { client } = await boot(kit);
    const oldPath: typeof fetch = (input, init) =>
      fetch(String(input).replace(/\/(balance|order)$/, "/check"), init);
    const supplier = client({ fetch: oldPath });
    expect((await thrown(supplier.balance())).code).toBe("GONE");
    rejectedWith(
      await supplier.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: phone("901"),
        refId: newRefId(),
      }),
      "GONE",
    );
  });
});
