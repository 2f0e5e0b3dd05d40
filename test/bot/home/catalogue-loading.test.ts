import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTier } from "../../../src/commerce/users.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// a new shop syncs its first catalogue in the background: until it lands, buyers are told
// it is loading, never that nothing is for sale.

describe("a shop whose catalogue has not arrived yet", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ catalogue: false, adminIds: [] });
  });
  afterAll(() => h.stop());

  it("says the catalogue is loading from the menu and from a quick order", async () => {
    const u = 8101;
    h.user(u);
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Pulsa & Data/);
    const told = await h.waitMessage(u, /Katalog produk sedang dimuat/, menu.message_id);
    expect(told.text).not.toMatch(/belum ada produk/);

    const reseller = 8102;
    h.user(reseller);
    await h.waitMessage(reseller, /Halo/, h.say(reseller, "/start"));
    await setTier(h.db, reseller, "reseller");
    const typed = h.say(reseller, "TSEL10.081234567890");
    await h.waitMessage(reseller, /Katalog produk sedang dimuat/, typed);
  });
});
