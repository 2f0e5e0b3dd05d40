import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { parseQuickOrder } from "../../../src/commerce/orders/quick-order.ts";
import { sameDayPurchases } from "../../../src/commerce/orders/repeat.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// same number, same product, same day (WIB): the card asks first, and the quick order
// CODE.DESTINATION needs CODE.2.DESTINATION for a deliberate second one, whose card then
// asks nothing more (the count typed was the confirmation; Pay still holds it to its count)

describe("the repeat rule", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  const ordersOf = async (u: number) =>
    (await listUserOrders(h.db, u, { limit: 10, offset: 0 })).items;

  it("reads CODE.2.DESTINATION as a deliberate second", () => {
    expect(parseQuickOrder("TSEL10.2.081234567901")).toEqual({
      code: "TSEL10",
      destination: "081234567901",
      count: 2,
    });
    expect(parseQuickOrder("TSEL10.081234567901")).toEqual({
      code: "TSEL10",
      destination: "081234567901",
    });
  });

  it("asks before a second purchase today, in a quick order and on the card", async () => {
    const u = 8401;
    h.user(u);
    await setTier(h.db, u, "reseller");
    await h.fund(u, 100_000);
    let at = h.say(u, "TSEL10.081234567901");
    let card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).not.toContain("sudah membeli");
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /✅ Berhasil/);

    at = h.say(u, "TSEL10.081234567901");
    const refused = await h.waitMessage(u, /Sudah dibeli hari ini pukul \d\d:\d\d WIB/, at);
    expect(refused.text).toContain("TSEL10.2.081234567901");

    // the count typed is the one confirmation: its card does not ask again, its Pay buys
    at = h.say(u, "TSEL10.2.081234567901");
    card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).not.toContain("sudah membeli");
    expect(card.text).not.toContain("Beli lagi?");
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /✅ Berhasil/);
    expect(await ordersOf(u)).toHaveLength(2);

    // a link's card asks; another number does not
    at = h.say(u, "/start p_TSEL10_081234567901");
    card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).toMatch(
      /sudah membeli ini untuk nomor ini hari ini pukul \d\d:\d\d WIB\. Beli lagi\?/,
    );
    at = h.say(u, "TSEL10.081234560901");
    card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).not.toContain("Beli lagi?");
  });

  it("refuses at Pay a card made before the same purchase was paid on another", async () => {
    const u = 8403;
    h.user(u);
    await h.fund(u, 100_000);
    // two cards for the same product and number, made before either is paid
    let at = h.say(u, "/start p_TSEL10_081234567901");
    const first = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    at = h.say(u, "/start p_TSEL10_081234567901");
    const second = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(second.text).not.toContain("Beli lagi?");
    h.tap(u, first, /Bayar/);
    await h.waitEdit(u, first.message_id, /✅ Berhasil/);
    h.tap(u, second, /Bayar/);
    const refused = await h.waitEdit(u, second.message_id, /Belum dibayar/);
    expect(refused.text).toMatch(/sudah dibeli untuk nomor ini hari ini pukul \d\d:\d\d WIB/);
    expect(await ordersOf(u)).toHaveLength(1);
    // its Beli lagi is a fresh card that asks; that card's Pay buys the second one
    h.tap(u, refused, /Beli lagi/);
    const fresh = await h.waitEdit(u, second.message_id, /Beli lagi\?/);
    h.tap(u, fresh, /Bayar/);
    await h.waitEdit(u, second.message_id, /✅ Berhasil/);
    expect(await ordersOf(u)).toHaveLength(2);
  });

  it("counts typed repeats: CODE.2.DEST once, then CODE.3.DEST", async () => {
    const u = 8404;
    h.user(u);
    await setTier(h.db, u, "reseller");
    await h.fund(u, 100_000);
    for (const text of ["TSEL10.081234567901", "TSEL10.2.081234567901"]) {
      const at = h.say(u, text);
      const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
      h.tap(u, card, /Bayar/);
      await h.waitEdit(u, card.message_id, /✅ Berhasil/);
    }
    const at = h.say(u, "TSEL10.2.081234567901");
    const refused = await h.waitMessage(u, /Sudah dibeli hari ini/, at);
    expect(refused.text).toContain("TSEL10.3.081234567901");
  });

  it("a typed count's card that asks nothing is still held to its count at Pay", async () => {
    const u = 8405;
    h.user(u);
    await setTier(h.db, u, "reseller");
    await h.fund(u, 100_000);
    let at = h.say(u, "TSEL10.081234567901");
    const first = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, first, /Bayar/);
    await h.waitEdit(u, first.message_id, /✅ Berhasil/);
    // the 2nd of the day, typed: no question on its card
    at = h.say(u, "TSEL10.2.081234567901");
    const typed = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(typed.text).not.toContain("Beli lagi?");
    // another card buys the 2nd first; the typed card's Pay then refuses a 3rd
    at = h.say(u, "/start p_TSEL10_081234567901");
    const other = await h.waitMessage(u, /Beli lagi\?/, at);
    h.tap(u, other, /Bayar/);
    await h.waitEdit(u, other.message_id, /✅ Berhasil/);
    h.tap(u, typed, /Bayar/);
    await h.waitEdit(u, typed.message_id, /Belum dibayar/);
    expect(await ordersOf(u)).toHaveLength(2);
  });

  it("counts only today in WIB, and never a failed order", async () => {
    const u = 8402;
    h.user(u);
    await h.fund(u, 100_000);
    let at = h.say(u, "/start p_TSEL10_081234567902");
    const failed = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, failed, /Bayar/);
    await h.waitEdit(u, failed.message_id, /Gagal/);
    const now = h.clock.now();
    expect(
      await sameDayPurchases(h.db, {
        userId: u,
        productCode: "TSEL10",
        destination: "081234567902",
        now,
      }),
    ).toBeUndefined();
    at = h.say(u, "/start p_TSEL10_081234567901");
    const ok = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, ok, /Bayar/);
    await h.waitEdit(u, ok.message_id, /✅ Berhasil/);
    const q = { userId: u, productCode: "TSEL10", destination: "081234567901" };
    expect((await sameDayPurchases(h.db, { ...q, now }))?.count).toBe(1);
    expect(await sameDayPurchases(h.db, { ...q, now: now + 24 * 3_600_000 })).toBeUndefined();
  });
});
