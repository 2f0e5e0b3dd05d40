import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAliases, setAlias } from "../../../src/commerce/center/aliases.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";

// keywords come before product codes (docs/center.md): an alias may not be a product's code,
// in any case, or typing that product's text order would run the keyword instead

describe("center aliases", () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h?.stop());

  it("refuses an alias that is a product's code, in any case; takes a free word", async () => {
    expect(await setAlias(h.deps.db, "SAL", "TSEL10")).toEqual({ ok: false, reason: "is_product" });
    expect(await setAlias(h.deps.db, "SAL", "tsel10")).toEqual({ ok: false, reason: "is_product" });
    expect(await setAlias(h.deps.db, "SAL", "S")).toEqual({ ok: false, reason: "is_keyword" });
    expect(await setAlias(h.deps.db, "SAL", "SALDO")).toEqual({
      ok: true,
      keyword: "SAL",
      alias: "SALDO",
    });
    expect([...(await loadAliases(h.deps.db)).entries()]).toEqual([["SALDO", "SAL"]]);
  });
});
