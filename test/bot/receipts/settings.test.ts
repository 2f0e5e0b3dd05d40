import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiptSettingsOf } from "../../../src/commerce/receipt-settings.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { testDriver } from "../../helpers/db.ts";
import { type Journey, startJourney } from "../../helpers/e2e.ts";

// /struk for resellers: their own shop name and selling price on their buyers' receipts, and
// receipts sent by themselves after each successful order.

describe(`a reseller's receipts (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ env: { PAYMENT_GATEWAY: "none" } });
  });
  afterAll(() => j?.stop());
  const db = () => j.app.app.database.db;

  it("sets a name, a price and automatic receipts; a quick order then brings its receipt", async () => {
    const u = 76_001;
    j.user(u);
    await j.waitMessage(u, /Halo/, j.say(u, "/start"));
    await setTier(db(), u, "reseller");
    await j.fund(u, 100_000);

    let at = j.say(u, "/struk");
    const shown = await j.waitMessage(u, /Struk untuk pembelimu/, at);
    expect(shown.text).toContain("Nama toko: (nama toko ini)");
    at = j.say(u, "/struk nama Toko Budi");
    await j.waitMessage(u, /Nama toko: Toko Budi/, at);
    at = j.say(u, "/struk harga 2.000");
    await j.waitMessage(u, /Tambahan harga di struk: Rp2\.000/, at);
    at = j.say(u, "/struk otomatis on");
    await j.waitMessage(u, /Kirim struk otomatis: ya/, at);
    expect(await receiptSettingsOf(db(), u)).toEqual({
      shopName: "Toko Budi",
      markup: 2_000,
      auto: true,
    });

    // bad input: a clear message, nothing changed
    at = j.say(u, "/struk harga banyak");
    await j.waitMessage(u, /Tambahan harga berupa angka rupiah/, at);
    at = j.say(u, `/struk nama ${"x".repeat(41)}`);
    await j.waitMessage(u, /Nama toko 1–40 huruf/, at);
    expect((await receiptSettingsOf(db(), u)).markup).toBe(2_000);
    // a control character would break every receipt and price-list picture
    at = j.say(u, "/struk nama Toko\u0001Budi\u0007");
    await j.waitMessage(u, /Nama toko tidak boleh berisi karakter kontrol/, at);
    expect((await receiptSettingsOf(db(), u)).shopName).toBe("Toko Budi");

    at = j.say(u, "TSEL10.081234567901");
    const card = await j.waitMessage(u, /Konfirmasi pembelian/, at);
    j.tap(u, card, /Bayar/);
    const done = await j.waitEdit(u, card.message_id, /Berhasil/);
    const photo = await j.telegram.waitFor(
      u,
      (v) => v.messages.some((m) => m.photo && m.message_id > done.message_id),
      20_000,
    );
    const receipt = photo.messages.find((m) => m.photo && m.message_id > done.message_id)!;
    expect(receipt.reply_to_message_id).toBe(done.message_id);
  });

  it("is for resellers only", async () => {
    const u = 76_002;
    j.user(u);
    const at = j.say(u, "/struk nama Toko");
    await j.waitMessage(u, /hanya untuk reseller/, at);
    expect(await receiptSettingsOf(db(), u)).toEqual({ shopName: null, markup: 0, auto: false });
  });
});
