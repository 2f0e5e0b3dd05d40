import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import { productByCode } from "../../../src/commerce/catalogue/queries.ts";
import { setReceiptSettings } from "../../../src/commerce/receipt-settings.ts";
import { products, users } from "../../../src/db/schema.ts";
import { labels } from "../../helpers/chat-driver.ts";
import { testDriver } from "../../helpers/db.ts";
import { type Journey, startJourney } from "../../helpers/e2e.ts";
import { pngSize } from "../../helpers/png.ts";

// /harga [brand|category]: the caller's own prices (customer or reseller tier) in pages,
// closed products marked, and the whole list as a picture to forward.

describe(`/harga in chat (${testDriver})`, () => {
  let j: Journey;
  const CUSTOMER = 75_001;
  const RESELLER = 75_002;

  beforeAll(async () => {
    j = await startJourney({
      env: { SHOP_NAME: "Toko Sari" },
      // photos up to 256 KiB, as the playground took them behind the app's body limit: a
      // short list's picture passes, a full page of a long one (about 300 KB) is refused
      uploadLimits: { photoBytes: 256 * 1024 },
    });
    const db = j.app.app.database.db;
    await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 0, flat: 1_000 });
    await setMarkupRule(db, { scope: "all", tier: "reseller", percentBp: 0, flat: 200 });
    j.user(CUSTOMER);
    j.user(RESELLER, { first_name: "Rina" });
    await j.waitMessage(RESELLER, /Halo/, j.say(RESELLER, "/start"));
    await db.update(users).set({ tier: "reseller" }).where(sql`${users.telegramId} = ${RESELLER}`);
  });
  afterAll(() => j?.stop());

  const priceOf = async (code: string, tier: "customer" | "reseller") =>
    (await productByCode(j.app.app.database.db, code, { tier }))!.price;
  const rp = (n: number) => `Rp${n.toLocaleString("id-ID")}`;

  it("shows the categories, then a category's prices in pages, edited in place", async () => {
    const index = await j.waitMessage(CUSTOMER, /Daftar harga/, j.say(CUSTOMER, "/harga"));
    expect(labels(index)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Pulsa \(\d+\)$/)]),
    );
    expect(labels(index)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Paket Data \(\d+\)$/)]),
    );

    j.tap(CUSTOMER, index, /^Pulsa/);
    const pulsa = await j.waitEdit(CUSTOMER, index.message_id, /Pulsa.*1\/\d+/);
    // grouped under each brand, cheapest first, without codes
    expect(pulsa.text?.split("\n")[2]).toBe("Axis");
    expect(pulsa.text).toMatch(/\nAxis [\d.]+ · Rp[\d.]+\n/);
    // brands to narrow the list, pages, the picture, back to the categories
    expect(labels(pulsa)).toEqual(
      expect.arrayContaining(["Telkomsel", "▶️", "🖼 Gambar untuk dibagikan", "📋 Semua kategori"]),
    );

    j.tap(CUSTOMER, pulsa, /▶️/);
    const page2 = await j.waitEdit(CUSTOMER, index.message_id, /Pulsa.*2\/\d+/);
    expect(page2.text).not.toEqual(pulsa.text);

    j.tap(CUSTOMER, page2, /^Telkomsel$/);
    const tsel = await j.waitEdit(CUSTOMER, index.message_id, /Pulsa · Telkomsel/);
    expect(tsel.text).toContain(`Telkomsel 10.000 · ${rp(await priceOf("TSEL10", "customer"))}`);
    expect(tsel.text).not.toContain("TSEL10 ");

    j.tap(CUSTOMER, tsel, /Semua kategori/);
    await j.waitEdit(CUSTOMER, index.message_id, /Daftar harga/);
  });

  it("gives each tier its own prices; a reseller sees the codes to order by", async () => {
    const at = j.say(RESELLER, "/harga telkomsel pulsa");
    const list = await j.waitMessage(RESELLER, /Pulsa · Telkomsel/, at);
    const reseller = await priceOf("TSEL10", "reseller");
    expect(reseller).toBeLessThan(await priceOf("TSEL10", "customer"));
    expect(list.text).toContain(`TSEL10 Telkomsel 10.000 · ${rp(reseller)}`);
    expect(list.text).toMatch(/harga reseller/i);
  });

  it("marks products that are closed, with when they open", async () => {
    const db = j.app.app.database.db;
    const until = new Date(j.clock.now() + 3_600_000);
    await db.update(products).set({ pausedUntil: until }).where(eq(products.code, "TSEL5"));
    const at = j.say(CUSTOMER, "/harga pulsa telkomsel");
    const list = await j.waitMessage(CUSTOMER, /Pulsa · Telkomsel/, at);
    expect(list.text).toMatch(/⛔ Telkomsel 5\.000 · Rp[\d.]+ · tutup s\/d \d\d:\d\d WIB/);
    expect(list.text).not.toMatch(/⛔ Telkomsel 10\.000/);
    await db.update(products).set({ pausedUntil: null }).where(eq(products.code, "TSEL5"));
  });

  it("answers a name it does not know, and offers the names that hold a part", async () => {
    let at = j.say(CUSTOMER, "/harga <b>nothing</b>");
    const none = await j.waitMessage(CUSTOMER, /Tidak ada brand atau kategori/, at);
    expect(none.text).toContain("<b>nothing</b>");
    expect(labels(none)).toEqual(expect.arrayContaining([expect.stringMatching(/^Pulsa/)]));

    at = j.say(CUSTOMER, "/harga pln");
    await j.waitMessage(CUSTOMER, /📋 Token PLN · \d+ produk/, at);

    // a product's code: its line, and its list a tap away
    at = j.say(CUSTOMER, "/harga tsel10");
    const one = await j.waitMessage(CUSTOMER, /^Telkomsel 10\.000 · Rp[\d.]+$/, at);
    j.tap(CUSTOMER, one, /Pulsa · Telkomsel/);
    await j.waitEdit(CUSTOMER, one.message_id, /📋 Pulsa · Telkomsel · \d+ produk/);

    at = j.say(CUSTOMER, "/harga tel");
    const many = await j.waitMessage(CUSTOMER, /Maksud kamu/, at);
    expect(labels(many)).toEqual(expect.arrayContaining(["Telkom", "Telkomsel"]));
  });

  it("sends the list as a picture, with a reseller's own name and prices", async () => {
    await setReceiptSettings(j.app.app.database.db, RESELLER, {
      shopName: "Rina Cell",
      markup: 1_500,
    });
    const at = j.say(RESELLER, "/harga telkomsel pulsa");
    const list = await j.waitMessage(RESELLER, /Pulsa · Telkomsel/, at);
    j.tap(RESELLER, list, /Gambar/);
    const photo = await j.waitMessage(RESELLER, /Pulsa · Telkomsel: \d+ produk/, list.message_id);
    expect(photo.caption).toContain(rp(1_500));
    const file = await fetch(`${j.telegram.url}/control/files/${photo.photo!.at(-1)!.file_id}`);
    const png = Buffer.from(await file.arrayBuffer());
    const size = pngSize(png);
    expect(size.width).toBe(600);
    expect(size.height).toBeGreaterThan(600);
    expect(size.height + size.width).toBeLessThanOrEqual(10_000);
  });

  it("says so when a picture can't be sent, instead of sending nothing", async () => {
    const at = j.say(CUSTOMER, "/harga telkomsel");
    const list = await j.waitMessage(CUSTOMER, /📋 Telkomsel · \d+ produk/, at);
    j.tap(CUSTOMER, list, /Gambar/);
    const told = await j.waitMessage(CUSTOMER, /tidak bisa dikirim/, list.message_id);
    expect(told.text).toContain("Telkomsel");
    expect(
      j.chat(CUSTOMER).messages.filter((m) => m.photo && m.message_id > list.message_id),
    ).toEqual([]);
  });

  it("says a button is stale when its list is gone", async () => {
    const db = j.app.app.database.db;
    const index = await j.waitMessage(CUSTOMER, /Daftar harga/, j.say(CUSTOMER, "/harga"));
    await db.execute(sql`update products set active = false where category = 'PLN PASCABAYAR'`);
    const seen = j.chat(CUSTOMER).callback_answers.length;
    j.tap(CUSTOMER, index, /^PLN Pascabayar/);
    await j.waitToast(CUSTOMER, /tidak berlaku/, seen);
    await db.execute(sql`update products set active = true where category = 'PLN PASCABAYAR'`);
  });
});
