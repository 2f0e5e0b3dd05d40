import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minMarginOf } from "../../../src/commerce/orders/min-margin.ts";
import { ADMIN_ID, type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// /minmargin: the least a route must leave over its cost, shown, set and reset by an admin
// (docs/suppliers.md#routes)

describe("/minmargin", () => {
  let h: BotHarness;
  const A = ADMIN_ID;
  beforeAll(async () => {
    h = await startBotHarness();
    h.user(A, { first_name: "Owner" });
    await h.waitMessage(A, /Halo Owner/, h.say(A, "/start"));
  });
  afterAll(() => h?.stop());

  it("shows the minimum, sets it, and resets it to MIN_MARGIN", async () => {
    await h.waitMessage(
      A,
      /Margin minimum: <b>Rp0<\/b>|Margin minimum: Rp0/,
      h.say(A, "/minmargin"),
    );
    await h.waitMessage(A, /Margin minimum sekarang .*Rp1\.500/, h.say(A, "/minmargin 1.500"));
    expect(await minMarginOf(h.db, { minMargin: 0 })).toBe(1_500);
    await h.waitMessage(A, /Margin minimum: .*Rp1\.500/, h.say(A, "/minmargin"));
    await h.waitMessage(A, /Margin minimum sekarang .*Rp0/, h.say(A, "/minmargin reset"));
    expect(await minMarginOf(h.db, { minMargin: 0 })).toBe(0);
  });

  it("answers bad input with how to use it, changing nothing", async () => {
    for (const bad of [
      "/minmargin -5",
      "/minmargin lima",
      "/minmargin 5 6",
      "/minmargin 99999999",
    ]) {
      await h.waitMessage(A, /Gunakan: \/minmargin/, h.say(A, bad));
    }
    expect(await minMarginOf(h.db, { minMargin: 0 })).toBe(0);
  });
});
