import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productByCode } from "../../../src/commerce/catalogue/queries.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier, product } from "../../helpers/fake-supplier.ts";

// Digiflazz's codes are lower case (tsel10) while resellers type TSEL10: a code is found
// whatever its case, and the code typed exactly wins over another case of it
describe(`a product code in any case (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    const main = createFakeSupplier({
      prepaid: [
        product({ code: "tsel10", name: "Telkomsel 10.000", brand: "TELKOMSEL", price: 10_200 }),
        product({ code: "xl5", name: "XL 5.000", brand: "XL", price: 5_300 }),
        product({ code: "XL5", name: "XL 5rb", brand: "XL", price: 5_400 }),
      ],
    });
    await syncCatalogue(db, main, { firstSupplier: "main" });
  });
  afterAll(() => t.destroy());

  it("finds a lower-case code typed in upper case, and the other way round", async () => {
    expect((await productByCode(db, "TSEL10", { tier: "customer" }))?.code).toBe("tsel10");
    expect((await productByCode(db, "Tsel10", { tier: "customer" }))?.code).toBe("tsel10");
    expect(await productByCode(db, "TSEL11", { tier: "customer" })).toBeNull();
  });

  it("prefers the code exactly as typed when two cases of it exist", async () => {
    expect((await productByCode(db, "xl5", { tier: "customer" }))?.code).toBe("xl5");
    expect((await productByCode(db, "XL5", { tier: "customer" }))?.code).toBe("XL5");
  });
});
