import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  deleteMarkupRule,
  listMarkupRules,
  type MarkupRuleInput,
  markupRuleMatches,
  setMarkupRule,
} from "../../../src/commerce/catalogue/markup-rules.ts";
import {
  getRoundStep,
  ROUND_STEP_SETTING,
  setRoundStep,
} from "../../../src/commerce/catalogue/round-step.ts";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../../src/db/client.ts";
import { markupRules, settings } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier, product } from "../../helpers/fake-supplier.ts";

describe(`markup rules (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
    const supplier = createFakeSupplier({
      prepaid: [
        product({ code: "TSEL10", brand: "TELKOMSEL", category: "Pulsa" }),
        product({ code: "TSEL20", brand: "TELKOMSEL", category: "Pulsa", price: 20_000 }),
        product({ code: "GOPAY50", brand: "GOPAY", category: "E-Money", price: 51_000 }),
      ],
      game: [product({ code: "ML86", brand: "MOBILE LEGENDS", category: "Games", type: "game" })],
    });
    await syncCatalogue(db, supplier);
  });
  afterAll(() => t.destroy());
  beforeEach(async () => {
    await db.delete(markupRules);
  });

  it("creates a rule and replaces its numbers on a second set", async () => {
    const first = await setMarkupRule(db, {
      scope: "brand",
      scopeValue: "TELKOMSEL",
      tier: "customer",
      percentBp: 250,
      flat: 200,
    });
    expect(first).toMatchObject({
      scope: "brand",
      scopeValue: "TELKOMSEL",
      percentBp: 250,
      flat: 200,
    });
    const second = await setMarkupRule(db, {
      scope: "brand",
      scopeValue: "telkomsel",
      tier: "customer",
      percentBp: 300,
    });
    expect(second).toEqual({ ...first, percentBp: 300, flat: 0 });
    expect(await listMarkupRules(db)).toEqual([second]);
  });

  it("stores values in the catalogue's spelling", async () => {
    const cases: [MarkupRuleInput, string][] = [
      [{ scope: "brand", scopeValue: "telkomsel", tier: "customer", percentBp: 1 }, "TELKOMSEL"],
      [{ scope: "category", scopeValue: " e-money ", tier: "customer", percentBp: 1 }, "E-Money"],
      [{ scope: "category", scopeValue: "GAMES", tier: "customer", percentBp: 1 }, "Games"],
      [{ scope: "type", scopeValue: "PREPAID", tier: "customer", percentBp: 1 }, "prepaid"],
      [{ scope: "product", scopeValue: "tsel10", tier: "customer", percentBp: 1 }, "TSEL10"],
      [{ scope: "all", tier: "reseller", percentBp: 1 }, ""],
    ];
    for (const [input, stored] of cases) {
      expect((await setMarkupRule(db, input)).scopeValue).toBe(stored);
    }
  });

  it("lists rules by tier, from general to specific", async () => {
    await setMarkupRule(db, {
      scope: "product",
      scopeValue: "TSEL10",
      tier: "customer",
      percentBp: 5,
    });
    await setMarkupRule(db, { scope: "all", tier: "reseller", percentBp: 1 });
    await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 2 });
    await setMarkupRule(db, {
      scope: "brand",
      scopeValue: "GOPAY",
      tier: "customer",
      percentBp: 3,
    });
    const rules = await listMarkupRules(db);
    expect(rules.map((r) => `${r.tier}:${r.scope}:${r.scopeValue}`)).toEqual([
      "customer:all:",
      "customer:brand:GOPAY",
      "customer:product:TSEL10",
      "reseller:all:",
    ]);
  });

  it("counts the listed products each rule covers", async () => {
    const all = await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 2 });
    const tsel = await setMarkupRule(db, {
      scope: "brand",
      scopeValue: "TELKOMSEL",
      tier: "customer",
      percentBp: 2,
    });
    const game = await setMarkupRule(db, {
      scope: "type",
      scopeValue: "game",
      tier: "customer",
      percentBp: 2,
    });
    const pasca = await setMarkupRule(db, {
      scope: "type",
      scopeValue: "pasca",
      tier: "customer",
      percentBp: 2,
    });
    const matches = await markupRuleMatches(db);
    expect(matches.get(all.id)).toBe(4);
    expect(matches.get(tsel.id)).toBe(2);
    expect(matches.get(game.id)).toBe(1);
    expect(matches.get(pasca.id)).toBe(0);
  });

  it("deletes a rule once", async () => {
    const rule = await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 2 });
    expect(await deleteMarkupRule(db, rule.id)).toEqual(rule);
    await expect(deleteMarkupRule(db, rule.id)).rejects.toMatchObject({
      name: "PricingError",
      code: "RULE_NOT_FOUND",
      message: `there is no markup rule ${rule.id}`,
    });
    await expect(deleteMarkupRule(db, -1)).rejects.toMatchObject({ code: "RULE_NOT_FOUND" });
    expect(await listMarkupRules(db)).toEqual([]);
  });

  const base: MarkupRuleInput = { scope: "all", tier: "customer", percentBp: 0, flat: 0 };
  it.each([
    [{ percentBp: 100_001 }, "INVALID_PERCENT", "percentBp", /between -100 % and 1000 %/],
    [{ percentBp: -10_001 }, "INVALID_PERCENT", "percentBp", /got -100.01 %/],
    [{ percentBp: 2.5 }, "INVALID_PERCENT", "percentBp", /steps of 0.01 %/],
    [{ percentBp: Number.NaN }, "INVALID_PERCENT", "percentBp", /percentage/],
    [{ flat: 10_000_001 }, "INVALID_FLAT", "flat", /whole rupiah/],
    [{ flat: 0.5 }, "INVALID_FLAT", "flat", /got 0.5/],
    [{ scope: "everything" }, "INVALID_SCOPE", "scope", /scope must be one of all, type/],
    [{ tier: "vip" }, "INVALID_TIER", "tier", /tier must be one of customer, reseller/],
    [{ scopeValue: "TELKOMSEL" }, "INVALID_SCOPE_VALUE", "scopeValue", /takes no value/],
    [{ scope: "brand" }, "INVALID_SCOPE_VALUE", "scopeValue", /a brand rule needs a value/],
    [{ scope: "brand", scopeValue: "NOKIA" }, "UNKNOWN_SCOPE_VALUE", "scopeValue", /brand "NOKIA"/],
    [
      { scope: "category", scopeValue: "Pulsa Murah" },
      "UNKNOWN_SCOPE_VALUE",
      "scopeValue",
      /category/,
    ],
    [
      { scope: "product", scopeValue: "NOPE1" },
      "UNKNOWN_SCOPE_VALUE",
      "scopeValue",
      /product code "NOPE1"/,
    ],
    [
      { scope: "type", scopeValue: "postpaid" },
      "UNKNOWN_SCOPE_VALUE",
      "scopeValue",
      /prepaid, game or pasca/,
    ],
  ])("refuses %j with %s", async (change, code, field, message) => {
    const input = { ...base, ...change } as MarkupRuleInput;
    await expect(setMarkupRule(db, input)).rejects.toMatchObject({
      name: "PricingError",
      code,
      field,
      message: expect.stringMatching(message),
    });
    expect(await listMarkupRules(db)).toEqual([]);
  });

  it("accepts the limits themselves", async () => {
    await setMarkupRule(db, { ...base, percentBp: -10_000, flat: -10_000_000 });
    await setMarkupRule(db, { ...base, tier: "reseller", percentBp: 100_000, flat: 10_000_000 });
    expect(await listMarkupRules(db)).toHaveLength(2);
  });
});

describe(`the rounding step (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
  });
  afterAll(() => t.destroy());

  it("is Rp100 until set, then what was set", async () => {
    expect(await getRoundStep(db)).toBe(100);
    await setRoundStep(db, 500);
    expect(await getRoundStep(db)).toBe(500);
    await setRoundStep(db, 1);
    expect(await getRoundStep(db)).toBe(1);
  });

  it("refuses a step that is not a whole number from 1 to 100 000", async () => {
    for (const step of [0, -100, 2.5, 100_001, Number.NaN]) {
      await expect(setRoundStep(db, step)).rejects.toMatchObject({
        name: "PricingError",
        code: "INVALID_STEP",
      });
    }
  });

  it("falls back to Rp100 when the stored setting is broken", async () => {
    await db
      .update(settings)
      .set({ value: { nonsense: true } })
      .where(eq(settings.key, ROUND_STEP_SETTING));
    expect(await getRoundStep(db)).toBe(100);
    await db.update(settings).set({ value: "250" }).where(eq(settings.key, ROUND_STEP_SETTING));
    expect(await getRoundStep(db)).toBe(250);
  });
});
