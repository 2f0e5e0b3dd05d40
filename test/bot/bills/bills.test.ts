import type { MessageView } from "@kios/bot-api-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { setReceiptSettings } from "../../../src/commerce/receipt-settings.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { type BotHarness, labels, startBotHarness } from "../../helpers/bot.ts";
import { resultDelivered } from "../../helpers/outbox.ts";

// postpaid bills: inquiry, the bill card with its 5-minute window, paying, an expired
// window (enforced by the stored inquiry's expiry, moved by the shared ManualClock).

describe("bills", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  /** /start → Tagihan → kind → (product) → number prompt */
  async function toNumber(u: number, kind: RegExp, product?: RegExp): Promise<number> {
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Tagihan/);
    const kinds = await h.waitMessage(u, /Pilih jenis tagihan/, menu.message_id);
    await h.tapItem(u, kinds, kind);
    if (product) {
      const products = await h.waitMessage(u, /Pilih produk/, kinds.message_id);
      await h.tapItem(u, products, product);
      return (await h.waitMessage(u, /Masukkan nomor pelanggan/, products.message_id)).message_id;
    }
    return (await h.waitMessage(u, /Masukkan nomor pelanggan/, kinds.message_id)).message_id;
  }

  /** the bot's messages after a message id (none deleted) */
  function bubblesAfter(u: number, id: number) {
    return h.chat(u).messages.filter((m) => m.message_id > id && !m.deleted && m.from?.is_bot);
  }

  async function billCard(u: number, kind: RegExp, number: string, product?: RegExp) {
    const asked = await toNumber(u, kind, product);
    const at = h.say(u, number);
    expect(asked).toBeGreaterThan(0);
    const card = await h.waitMessage(u, /Tagihan .*\n/, at);
    // the "checking" bubble goes once the bill is on screen
    await expect
      .poll(() =>
        h.chat(u).messages.filter((m) => /Mengecek tagihan/.test(m.text ?? "") && !m.deleted),
      )
      .toHaveLength(0);
    expect(h.chat(u).messages.some((m) => /Mengecek tagihan/.test(m.text ?? ""))).toBe(true);
    return card;
  }

  it("shows the bill as a card and pays it", async () => {
    const u = 5001;
    h.user(u);
    await h.fund(u, 2_000_000);
    const card: MessageView = await billCard(u, /^PLN Pascabayar$/, "532100000012");
    const lines = card.text!.split("\n");
    expect(lines[0]).toMatch(/^🧾 Tagihan /);
    expect(card.text).toMatch(/\nNama: .+\n/);
    expect(card.text).toContain("No. pelanggan: 532100000012");
    expect(card.text).toMatch(/\nTarif\/Daya: \S+ \/ \d+ VA\n/);
    expect(card.text).toContain("Lembar tagihan: 2");
    expect(
      lines.filter((l) => /^• Periode [A-Z][a-z]+ \d{4}: Rp[\d.]+ \(denda Rp[\d.]+\)$/.test(l)),
    ).toHaveLength(2);
    expect(card.text).toMatch(
      /\nTagihan: Rp[\d.]+\nBiaya admin: Rp[\d.]+\nTotal bayar: Rp[\d.]+\n/,
    );
    expect(card.text).toMatch(/⏱ Bayar sebelum \d{2}:\d{2} WIB \(berlaku 5 menit\)\./);
    expect(labels(card)).toEqual(["✅ Bayar", "❌ Batal"]);
    const total = Number(/Total bayar: Rp([\d.]+)/.exec(card.text!)![1]!.replace(/\./g, ""));

    h.tap(u, card, /Bayar/);
    const order = await vi.waitFor(async () => {
      const o = (await listUserOrders(h.db, u, { limit: 1, offset: 0 })).items[0];
      expect(o?.status).toBe("pending");
      return o!;
    });
    expect(order.kind).toBe("bill");
    const paying = h.chat(u).messages.find((m) => m.message_id === card.message_id)!;
    expect(paying.text).toContain(`Harga: Rp${total.toLocaleString("id-ID")}`);
    expect(paying.text).toMatch(/^⏳ Diproses/);
    await h.sandbox.settleNow();
    await resolveOrder(h.orders, order.id);
    const paid = await h.waitEdit(u, card.message_id, /Berhasil/);
    expect(paid.text).toMatch(/\nSN: [0-9A-F]{32}$/i);
    // the ✅ card still says whose bill and which months it paid, in words
    const name = /\nNama: (.+)\n/.exec(card.text!)![1]!;
    const months = lines
      .map((l) => /^• Periode ([A-Z][a-z]+ \d{4}):/.exec(l)?.[1])
      .filter((m): m is string => Boolean(m));
    expect(months).toHaveLength(2);
    for (const shown of [paying.text!, paid.text!]) {
      expect(shown).toContain(`\nNama: ${name}\n`);
      expect(shown).toContain(`\nPeriode: ${months.join(", ")}\n`);
    }
    expect(paid.text).not.toMatch(/Periode: \d{6}/);
    // the card the buyer looks at (the chat's latest message) shows the result: no notice
    await resultDelivered(h.db, order.id);
    expect(bubblesAfter(u, card.message_id)).toEqual([]);
    expect(await walletBalance(h.db, u)).toBe(2_000_000 - total);
    // and so does the history's view of it
    const at = h.say(u, "/riwayat");
    const history = await h.waitMessage(u, /Riwayat transaksi/, at);
    h.tap(u, history, /^1\. /);
    const details = await h.waitEdit(u, history.message_id, /Waktu:/);
    expect(details.text).toContain(`\nNama: ${name}\n`);
    expect(details.text).toContain(`\nPeriode: ${months.join(", ")}\n`);
  });

  it("Pay on a second card of a bill being paid shows that payment, never a second one", async () => {
    const u = 5010;
    h.user(u);
    await h.fund(u, 2_000_000);
    const first = await billCard(u, /^PLN Pascabayar$/, "532100000030");
    const second = await billCard(u, /^PLN Pascabayar$/, "532100000030");
    h.tap(u, first, /Bayar/);
    const paying = await h.waitEdit(u, first.message_id, /Diproses/);
    const ref = /Ref: (\S+)/.exec(paying.text!)![1]!;
    h.tap(u, second, /Bayar/);
    // the second card shows the first card's payment as it stands: its ⏳, its ref
    const shown = await h.waitEdit(u, second.message_id, /Ref:/);
    expect(shown.text).toMatch(/^⏳ Diproses/);
    expect(shown.text).toContain(`Ref: ${ref}`);
    await h.sandbox.settleNow();
    const order = (await listUserOrders(h.db, u, { limit: 5, offset: 0 })).items;
    expect(order).toHaveLength(1);
    await resolveOrder(h.orders, order[0]!.id);
    const done = await h.waitEdit(u, first.message_id, /Berhasil/);
    // the second card showed that payment's ⏳: it moves to the result too, never left at ⏳
    const secondDone = await h.waitEdit(u, second.message_id, /Berhasil/);
    expect(secondDone.text).toBe(done.text);
    expect(secondDone.text).toContain(`Ref: ${ref}`);
    expect((await listUserOrders(h.db, u, { limit: 5, offset: 0 })).total).toBe(1);
    expect(await walletBalance(h.db, u)).toBe(2_000_000 - order[0]!.price);
  });

  it("a late result: one notice only once the buyer moved on; the receipt carries it", async () => {
    const cases = [
      { u: 5021, movedOn: true, auto: false },
      { u: 5022, movedOn: false, auto: true },
      { u: 5023, movedOn: true, auto: true },
    ];
    for (const { u, movedOn, auto } of cases) {
      h.user(u);
      await h.fund(u, 10_000_000);
      if (auto) {
        await setTier(h.db, u, "reseller");
        await setReceiptSettings(h.db, u, { auto: true });
      }
      const card = await billCard(u, /^PLN Pascabayar$/, `53210${u - 5020}00012`);
      h.tap(u, card, /Bayar/);
      await h.waitEdit(u, card.message_id, /Diproses/);
      const order = await vi.waitFor(async () => {
        const o = (await listUserOrders(h.db, u, { limit: 1, offset: 0 })).items[0];
        expect(o?.status).toBe("pending");
        return o!;
      });
      let last = card.message_id;
      if (movedOn) last = (await h.waitMessage(u, /Saldo/, h.say(u, "/saldo"))).message_id;
      await h.sandbox.settleNow();
      await resolveOrder(h.orders, order.id);
      await h.waitEdit(u, card.message_id, /Berhasil/);
      await resultDelivered(h.db, order.id);
      const bubbles = bubblesAfter(u, last);
      // at most one new message per sale: the receipt, which says the result itself when the
      // buyer had moved on, else the notice alone; nothing when the card is in view
      expect(bubbles.map((m) => (m.photo ? "photo" : "text"))).toEqual(
        auto ? ["photo"] : movedOn ? ["text"] : [],
      );
      const said = bubbles[0]?.text ?? bubbles[0]?.caption ?? "";
      if (movedOn) expect(said).toMatch(/^✅ Pesanan berhasil: PLN Pascabayar ke 5321/);
      else expect(said).toBe("");
      if (bubbles[0]) expect(bubbles[0].reply_to_message_id).toBe(card.message_id);
    }
  });

  it("a bill reads like a bill: months and dates in words, no power rating on water", async () => {
    const u = 5008;
    h.user(u);
    await h.fund(u, 2_000_000);
    const water = await billCard(u, /^PDAM \(air\)$/, "300100000012", /PAM Jaya/);
    expect(water.text).not.toContain("Daya");
    expect(water.text).toMatch(/\nTarif: \S+\n/);
    expect(water.text).toMatch(/\nJatuh tempo: \d{1,2} [A-Z][a-z]{2} \d{4}\n/);
    const periods = water.text!.split("\n").filter((l) => l.startsWith("• Periode"));
    expect(periods).toHaveLength(2);
    for (const line of periods) expect(line).toMatch(/^• Periode [A-Z][a-z]+ \d{4}: /);
  });

  it("a mobile postpaid line asks for its phone number by the product's name", async () => {
    const u = 5009;
    h.user(u);
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Tagihan/);
    const kinds = await h.waitMessage(u, /Pilih jenis tagihan/, menu.message_id);
    // the kinds in the shop's words, not the supplier's capitals (TELKOM, BPJS KESEHATAN)
    await h.tapItem(u, kinds, /^Telkom$/);
    const products = await h.waitMessage(u, /Pilih produk/, kinds.message_id);
    expect(products.text).toContain("Pilih produk Telkom:");
    await h.tapItem(u, products, /Telkomsel Halo/);
    const ask = await h.waitMessage(u, /Masukkan nomor/, products.message_id);
    expect(ask.text).toBe("Masukkan nomor HP Telkomsel Halo.");
  });

  it("a number without a bill is said so and asked again; bad numbers get a hint", async () => {
    const u = 5002;
    h.user(u);
    await toNumber(u, /^BPJS Kesehatan$/);
    let at = h.say(u, "abc");
    const hint = await h.waitMessage(u, /6–20 digit/, at);
    expect(hint.text).toContain("Masukkan nomor pelanggan BPJS Kesehatan.");
    at = h.say(u, "8888801234567899");
    const none = await h.waitMessage(u, /Tidak ada tagihan untuk nomor ini/, at);
    expect(none).toBeDefined();
    const again = await h.waitMessage(u, /Masukkan nomor pelanggan/, none.message_id);
    h.tap(u, again, /Batal/);
    await h.waitMessage(u, /^Dibatalkan\.$/, again.message_id);
  });

  it("pressing Pay after the 5-minute window says so and re-inquires in one tap", async () => {
    const u = 5003;
    h.user(u);
    await h.fund(u, 2_000_000);
    const card = await billCard(u, /^PLN Pascabayar$/, "532100000010");
    h.clock.advance(5 * 60_000 + 1_000);
    h.tap(u, card, /Bayar/);
    const expired = await h.waitEdit(u, card.message_id, /sudah habis/);
    expect(expired.text).toBe(
      "⌛ Waktu pembayaran tagihan (5 menit) sudah habis. Cek ulang tagihan untuk membayar.",
    );
    expect(labels(expired)).toEqual(["🔄 Cek ulang tagihan", "❌ Batal"]);
    expect(await listUserOrders(h.db, u, { limit: 1, offset: 0 })).toMatchObject({ total: 0 });
    expect(await walletBalance(h.db, u)).toBe(2_000_000);

    h.tap(u, expired, /Cek ulang tagihan/);
    const fresh = await h.waitEdit(u, card.message_id, /Bayar sebelum/);
    expect(fresh.text).toContain("No. pelanggan: 532100000010");
    h.tap(u, fresh, /Bayar/);
    await vi.waitFor(async () =>
      expect(await listUserOrders(h.db, u, { limit: 1, offset: 0 })).toMatchObject({ total: 1 }),
    );
  });

  it("not enough balance for a bill: the missing amount and how to top up", async () => {
    const u = 5004;
    h.user(u);
    await h.fund(u, 10_000);
    const card = await billCard(u, /^PLN Pascabayar$/, "532100000020");
    expect(card.text).toMatch(/⚠️ Saldo kurang Rp[\d.]+\. Isi saldo dulu dengan \/deposit\./);
    h.tap(u, card, /Bayar/);
    const short = await h.waitEdit(u, card.message_id, /Saldo tidak cukup/);
    expect(short.text).toMatch(/Kurang: Rp[\d.]+/);
    h.tap(u, short, /Isi saldo/);
    await h.waitMessage(u, /Mau isi saldo berapa/, card.message_id);
  });
});
