import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTier } from "../../src/commerce/users.ts";
import { SupplierError } from "../../src/supplier/types.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// design rule 19: a demoted reseller's H2H access ends with their tier: their key places no
// order and reads nothing, answered in the envelope, until an admin makes them a reseller

describe(`the H2H key of a demoted reseller (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h?.stop());

  it("stops at the demotion and works again after a promotion", async () => {
    const key = await h.reseller(50_000);
    const client = h.client(key);
    expect((await client.balance()).balance).toBe(50_000);

    await setTier(h.deps.db, key.userId, "customer");
    const refused = await client.order({
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: "081234567901",
      refId: "after-demotion",
    });
    expect(refused).toMatchObject({ outcome: "rejected", error: { code: "INVALID_API_KEY" } });
    const read = await client.balance().catch((err: unknown) => err);
    expect(read).toBeInstanceOf(SupplierError);
    expect((read as SupplierError).code).toBe("INVALID_API_KEY");
    expect((read as SupplierError).message).toMatch(/no longer a reseller/);

    await setTier(h.deps.db, key.userId, "reseller");
    expect((await client.balance()).balance).toBe(50_000);
  });
});
