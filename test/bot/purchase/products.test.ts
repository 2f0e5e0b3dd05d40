import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { type BotHarness, copyTexts, labels, startBotHarness } from "../../helpers/bot.ts";

// PLN tokens, e-wallets, game vouchers, the reseller quick order, history and /status.

describe("PLN, e-wallet, games, quick order, history", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  const lastOrder = async (u: number) =>
    (await listUserOrders(h.db, u, { limit: 1, offset: 0 })).items[0]!;

  async function menuEntry(u: number, entry: RegExp) {
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, entry);
    return menu.message_id;
  }

  it("PLN token: meter → amount → card → token in groups of four", async () => {
    const u = 4001;
    h.user(u);
    await h.fund(u, 100_000);
    const after = await menuEntry(u, /Token PLN/);
    await h.waitMessage(u, /nomor meter/, after);
    let at = h.say(u, "1234");
    const again = await h.waitMessage(u, /11 atau 12 digit/, at);
    expect(again.text).toContain("Masukkan nomor meter");
    at = h.say(u, "1234 5678 901");
    const list = await h.waitMessage(u, /Pilih nominal token untuk meter 12345678901/, at);
    expect(labels(list)[0]).toMatch(/^Token PLN [\d.]+ · Rp[\d.]+$/);
    await h.tapItem(u, list, /^Token PLN 20\.000 ·/);
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    expect(card.text).toContain("Produk: Token PLN 20.000");
    expect(card.text).toContain("Tujuan: 12345678901");
    h.tap(u, card, /Bayar/);
    const done = await h.waitEdit(u, card.message_id, /Berhasil/);
    const order = await lastOrder(u);
    const [token, name, tarif, daya, kwh] = order.sn!.split("/");
    const grouped = token!.replace(/(\d{4})(?=\d)/g, "$1 ");
    expect(done.text).toContain(`Token: ${grouped}`);
    expect(grouped).toMatch(/^\d{4} \d{4} \d{4} \d{4} \d{4}$/);
    expect(done.text).toContain(`Nama: ${name}`);
    expect(done.text).toContain(`Tarif/Daya: ${tarif} / ${daya}`);
    expect(done.text).toContain(`kWh: ${kwh}`);
    // the 20 digits copy in one tap, as the meter takes them
    expect(copyTexts(done)).toEqual({ "📋 Salin token": token });
    expect(token).toMatch(/^\d{20}$/);
  });

  it("each flow's quick picks are of its own kind: a meter prompt never offers phones", async () => {
    const u = 4009;
    h.user(u);
    await h.fund(u, 200_000);
    // airtime for a phone (by the quick order, a reseller's), then a token for a meter
    await setTier(h.db, u, "reseller");
    const bought = await h.waitMessage(u, /Konfirmasi pembelian/, h.say(u, "TSEL10.081234567901"));
    h.tap(u, bought, /Bayar/);
    await h.waitEdit(u, bought.message_id, /Berhasil/);
    let after = await menuEntry(u, /Token PLN/);
    let ask = await h.waitMessage(u, /nomor meter/, after);
    expect(labels(ask)).toEqual(["❌ Batal"]);
    // a phone number has a meter's length, and is refused with its reason
    const refused = await h.waitMessage(u, /bukan nomor meter/, h.say(u, "081234567901"));
    expect(refused.text).toContain("Itu nomor HP, bukan nomor meter.");
    const list = await h.waitMessage(u, /Pilih nominal token/, h.say(u, "12345678901"));
    await h.tapItem(u, list, /^Token PLN 20\.000 ·/);
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    // the meter is offered next time, the phone is not; the airtime flow offers the phone only
    after = await menuEntry(u, /Token PLN/);
    ask = await h.waitMessage(u, /nomor meter/, after);
    expect(labels(ask)).toEqual(["12345678901", "❌ Batal"]);
    await h.waitMessage(u, /^Dibatalkan\.$/, h.say(u, "/cancel"));
    after = await menuEntry(u, /Pulsa & Data/);
    ask = await h.waitMessage(u, /nomor HP/, after);
    expect(labels(ask)).toEqual(["081234567901", "❌ Batal"]);
  });

  it("a game's quick picks are that game's own ids, never another game's or a phone", async () => {
    const u = 4010;
    h.user(u);
    await h.fund(u, 200_000);
    /** Voucher Game → the game → its first item → the account id prompt */
    const askId = async (game: string) => {
      const after = await menuEntry(u, /Voucher Game/);
      const games = await h.waitMessage(u, /Pilih game/, after);
      await h.tapItem(u, games, new RegExp(`^${game}$`));
      const items = await h.waitMessage(u, new RegExp(`Pilih item ${game}`), games.message_id);
      h.tap(u, items, "i:0");
      return h.waitMessage(u, new RegExp(`Masukkan ID akun ${game}`), items.message_id);
    };
    const buy = async (card: Awaited<ReturnType<typeof h.waitMessage>>) => {
      h.tap(u, card, /Bayar/);
      await h.waitEdit(u, card.message_id, /Berhasil/);
    };
    let ask = await askId("Mobile Legends");
    expect(labels(ask)).toEqual(["❌ Batal"]);
    await h.waitMessage(u, /Zone ID/, h.say(u, "12345678"));
    await buy(await h.waitMessage(u, /Konfirmasi pembelian/, h.say(u, "(2901)")));
    // another game does not offer Mobile Legends' id
    ask = await askId("Free Fire");
    expect(labels(ask)).toEqual(["❌ Batal"]);
    await buy(await h.waitMessage(u, /Konfirmasi pembelian/, h.say(u, "987654901")));
    // each game offers its own, Mobile Legends' with its zone
    ask = await askId("Mobile Legends");
    expect(labels(ask)).toEqual(["12345678(2901)", "❌ Batal"]);
    await h.waitMessage(u, /^Dibatalkan\.$/, h.say(u, "/cancel"));
    ask = await askId("Free Fire");
    expect(labels(ask)).toEqual(["987654901", "❌ Batal"]);
    await h.waitMessage(u, /^Dibatalkan\.$/, h.say(u, "/cancel"));
    // and airtime offers no game id
    const after = await menuEntry(u, /Pulsa & Data/);
    ask = await h.waitMessage(u, /nomor HP/, after);
    expect(labels(ask)).toEqual(["❌ Batal"]);
  });

  it("a bill kind's quick picks are that kind's own numbers, never a meter's prompt's", async () => {
    const u = 4011;
    h.user(u);
    await h.fund(u, 2_000_000);
    /** Tagihan → the kind → the customer number prompt (these kinds have one product) */
    const askNumber = async (kind: RegExp) => {
      const after = await menuEntry(u, /Tagihan/);
      const kinds = await h.waitMessage(u, /Pilih jenis tagihan/, after);
      await h.tapItem(u, kinds, kind);
      return h.waitMessage(u, /Masukkan nomor pelanggan/, kinds.message_id);
    };
    let ask = await askNumber(/^PLN Pascabayar$/);
    expect(labels(ask)).toEqual(["❌ Batal"]);
    const bill = await h.waitMessage(u, /Tagihan .*\n/, h.say(u, "532100000012"));
    h.tap(u, bill, /Bayar/);
    await h.waitEdit(u, bill.message_id, /Diproses|Berhasil/);
    // another bill kind does not offer the PLN customer number
    ask = await askNumber(/^BPJS Kesehatan$/);
    expect(labels(ask)).toEqual(["❌ Batal"]);
    await h.waitMessage(u, /^Dibatalkan\.$/, h.say(u, "/cancel"));
    // its own kind does
    ask = await askNumber(/^PLN Pascabayar$/);
    expect(labels(ask)).toEqual(["532100000012", "❌ Batal"]);
    await h.waitMessage(u, /^Dibatalkan\.$/, h.say(u, "/cancel"));
    // a prepaid token's meter prompt does not either, though the number has a meter's length
    const after = await menuEntry(u, /Token PLN/);
    ask = await h.waitMessage(u, /nomor meter/, after);
    expect(labels(ask)).toEqual(["❌ Batal"]);
  });

  it("e-wallet: provider → amount → number → card → ✅", async () => {
    const u = 4002;
    h.user(u);
    await h.fund(u, 100_000);
    const after = await menuEntry(u, /E-Wallet/);
    const providers = await h.waitMessage(u, /Pilih e-wallet/, after);
    expect(labels(providers)).toEqual(
      expect.arrayContaining(["DANA", "GoPay", "LinkAja", "OVO", "ShopeePay", "❌ Batal"]),
    );
    let at = h.say(u, "GOPAY");
    const again = await h.waitMessage(u, /pilih dengan tombol/, at);
    h.tap(u, again, /^GoPay$/);
    const amounts = await h.waitMessage(u, /Pilih nominal GoPay/, again.message_id);
    await h.tapItem(u, amounts, /^GoPay 50\.000 ·/);
    const ask = await h.waitMessage(u, /nomor HP akun GoPay/, amounts.message_id);
    at = h.say(u, "nomor saya");
    await h.waitMessage(u, /tidak dikenali/, at);
    at = h.say(u, "6281234567901");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).toContain("Produk: GoPay 50.000");
    expect(card.text).toContain("Tujuan: 081234567901");
    h.tap(u, card, /Bayar/);
    const done = await h.waitEdit(u, card.message_id, /Berhasil/);
    expect(done.text).toMatch(/SN: REF\d{16}/);
    expect(ask).toBeDefined();
  });

  it("game voucher with a zone id: game → item → account id → zone → card", async () => {
    const u = 4003;
    h.user(u);
    await h.fund(u, 100_000);
    const after = await menuEntry(u, /Voucher Game/);
    const games = await h.waitMessage(u, /Pilih game/, after);
    await h.tapItem(u, games, /^Mobile Legends$/);
    const items = await h.waitMessage(u, /Pilih item Mobile Legends/, games.message_id);
    h.tap(u, items, "i:0");
    await h.waitMessage(u, /Masukkan ID akun Mobile Legends/, items.message_id);
    let at = h.say(u, "12 3");
    await h.waitMessage(u, /ID akun tidak valid/, at);
    at = h.say(u, "12345678");
    await h.waitMessage(u, /Zone ID/, at);
    at = h.say(u, "zona dua");
    await h.waitMessage(u, /Zone ID harus berupa angka/, at);
    at = h.say(u, "(2901)");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).toContain("Tujuan: 12345678(2901)");
    h.tap(u, card, /Bayar/);
    const done = await h.waitEdit(u, card.message_id, /Berhasil/);
    expect(done.text).toMatch(/SN: [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/i);
  });

  it("a game without zone asks only the account id", async () => {
    const u = 4004;
    h.user(u);
    const after = await menuEntry(u, /Voucher Game/);
    const games = await h.waitMessage(u, /Pilih game/, after);
    await h.tapItem(u, games, /^Free Fire$/);
    const items = await h.waitMessage(u, /Pilih item Free Fire/, games.message_id);
    h.tap(u, items, "i:0");
    await h.waitMessage(u, /Masukkan ID akun Free Fire/, items.message_id);
    const at = h.say(u, "987654901");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).toContain("Tujuan: 987654901");
    // no balance at all: the card says so before anything is tried
    expect(card.text).toMatch(/Saldo kurang Rp[\d.]+\./);
  });

  it("quick order: resellers get the card at once; customers get the general answer", async () => {
    const r = 4005;
    h.user(r);
    await h.fund(r, 100_000);
    let at = h.say(r, "TSEL10.081234567901");
    await h.waitMessage(r, /belum paham/, at);
    await setTier(h.db, r, "reseller");
    at = h.say(r, "TSEL10.081234567901");
    const card = await h.waitMessage(r, /Konfirmasi pembelian/, at);
    expect(card.text).toContain("Produk: Telkomsel 10.000");
    h.tap(r, card, /Bayar/);
    await h.waitEdit(r, card.message_id, /Berhasil/);
    at = h.say(r, "pln20 12345678901");
    const pln = await h.waitMessage(r, /Konfirmasi pembelian/, at);
    expect(pln.text).toContain("Token PLN 20.000");
    at = h.say(r, "NOPE99.081234567901");
    await h.waitMessage(r, /Kode produk NOPE99 tidak dikenal/, at);
    at = h.say(r, "TSEL10.0812");
    await h.waitMessage(r, /Nomor tujuan tidak sesuai/, at);
    // resellers see today's spend with their balance
    at = h.say(r, "/saldo");
    const saldo = await h.waitMessage(r, /Saldo kamu/, at);
    expect(saldo.text).toContain("Belanja hari ini: Rp");
  });

  it("history in pages, details, buy again, back; /status shows only one's own", async () => {
    const u = 4006;
    h.user(u);
    await h.fund(u, 500_000);
    await setTier(h.db, u, "reseller");
    for (let i = 0, bought = 0; i < 6; i++) {
      // another one of the same number today is typed on purpose, with which of the day it
      // is: CODE.2.DESTINATION, CODE.3.DESTINATION, …
      const again = i === 2 || bought === 0 ? "" : `${bought + 1}.`;
      if (i !== 2) bought++;
      const at = h.say(u, `TSEL5.${again}08123456790${i === 2 ? 2 : 1}`);
      const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
      h.tap(u, card, /Bayar/);
      await h.waitEdit(u, card.message_id, /Berhasil|Gagal/);
    }
    let at = h.say(u, "/riwayat");
    const page1 = await h.waitMessage(u, /Riwayat transaksi \(hal\. 1\/2\)/, at);
    expect(page1.text!.split("\n")).toHaveLength(6);
    // newest first: the third purchase (the failed one) is fourth
    expect(page1.text).toMatch(/\n1\. ✅ Telkomsel 5\.000 · 081234567901 · Rp[\d.]+ · /);
    expect(page1.text).toMatch(/\n4\. ❌ Telkomsel 5\.000 · 081234567902 · /);
    expect(labels(page1)).toEqual(expect.arrayContaining(["1/2", "▶️"]));
    h.tap(u, page1, /^▶️$/);
    const page2 = await h.waitEdit(u, page1.message_id, /hal\. 2\/2/);
    expect(page2.text).toMatch(/\n6\. ✅ Telkomsel 5\.000 · 081234567901/);
    h.tap(u, page2, /^6\. /);
    const details = await h.waitEdit(u, page1.message_id, /Berhasil|Gagal/);
    expect(details.text).toMatch(/Waktu: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} WIB/);
    expect(labels(details)).toEqual(["📋 Salin SN", "🔁 Beli lagi", "◀️ Kembali"]);
    const sixth = (await listUserOrders(h.db, u, { limit: 6, offset: 0 })).items[5]!;
    expect(copyTexts(details)).toEqual({ "📋 Salin SN": sixth.sn });
    h.tap(u, details, /Beli lagi/);
    const again = await h.waitMessage(u, /Konfirmasi pembelian/, page1.message_id);
    expect(again.text).toContain("Tujuan: 081234567901");
    h.tap(u, details, /Kembali/);
    await h.waitEdit(u, page1.message_id, /hal\. 2\/2/);

    const order = await lastOrder(u);
    at = h.say(u, `/status ${order.refId}`);
    const status = await h.waitMessage(u, new RegExp(`Ref: ${order.refId}`), at);
    expect(status.text).toMatch(/^✅ Berhasil|^❌ Gagal/);
    expect(copyTexts(status)).toEqual(order.sn ? { "📋 Salin SN": order.sn } : {});
    at = h.say(u, "/status");
    await h.waitMessage(u, /Gunakan: \/status <ref>/, at);

    const other = 4007;
    h.user(other);
    at = h.say(other, `/status ${order.refId}`);
    await h.waitMessage(other, new RegExp(`Transaksi ${order.refId} tidak ditemukan`), at);
    at = h.say(other, "/riwayat");
    await h.waitMessage(other, /Belum ada transaksi/, at);
    expect(await walletBalance(h.db, other)).toBe(0);
  });
});
