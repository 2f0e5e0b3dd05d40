import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { labels } from "../helpers/chat-driver.ts";
import { testDriver } from "../helpers/db.ts";
import { type Journey, startJourney } from "../helpers/e2e.ts";
import { resultDelivered } from "../helpers/outbox.ts";
import {
  airtimeCard,
  callbacksFor,
  expectMoney,
  formatRupiah,
  lastOrder,
  openMenu,
  plnBillCard,
  rupiahOf,
} from "./steps.ts";

// issue 6, "walk, as a user would": the purchases a customer makes, on kios's full
// start-up, once per supplier interface. Each journey has its own user; the money is
// checked after each (the wallet and `kios ledger verify`).

describe.each(["signature", "key"] as const)(
  `journeys: purchases over the %s interface (${testDriver})`,
  (supplierInterface) => {
    let j: Journey;
    beforeAll(async () => {
      j = await startJourney({ supplierInterface });
    });
    afterAll(() => j?.stop());

    // distinct users per interface, so the two app runs never share a chat on paper either
    const base = supplierInterface === "signature" ? 61_000 : 62_000;

    it("buys airtime and receives the SN in the message they paid from", async () => {
      expect(j.app.app.supplier?.supplier.interface).toBe(supplierInterface);
      const u = base + 1;
      j.user(u);
      await j.fund(u, 100_000);
      const card = await airtimeCard(j, u, "0812 3456 7901");
      expect(card.text).toContain("Tujuan: 081234567901");
      const price = rupiahOf(card.text, "Harga");
      expect(card.text).toContain(`Saldo: Rp100.000 → ${formatRupiah(100_000 - price)}`);
      j.tap(u, card, /Bayar/);
      const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
      const order = await lastOrder(j, u);
      expect(order.status).toBe("success");
      expect(done.text).toContain(`Ref: ${order.refId}`);
      expect(done.text).toContain(`SN: ${order.sn}`);
      expect(done.history.map((r) => r.text?.split("\n")[0])).toContain("⏳ Diproses");
      await expectMoney(j, u, 100_000 - price);
    });

    it("buys a Mobile Legends voucher: game → item → account id → zone → SN", async () => {
      const u = base + 2;
      j.user(u);
      await j.fund(u, 100_000);
      const menu = await openMenu(j, u, /Voucher Game/);
      const games = await j.waitMessage(u, /Pilih game/, menu.message_id);
      await j.tapItem(u, games, /^Mobile Legends$/);
      const items = await j.waitMessage(u, /Pilih item Mobile Legends/, games.message_id);
      await j.tapItem(u, items, /^Mobile Legends 86 Diamonds ·/);
      await j.waitMessage(u, /Masukkan ID akun Mobile Legends/, items.message_id);
      let at = j.say(u, "12345678");
      await j.waitMessage(u, /Zone ID/, at);
      at = j.say(u, "2901");
      const card = await j.waitMessage(u, /Konfirmasi pembelian/, at);
      expect(card.text).toContain("Produk: Mobile Legends 86 Diamonds");
      expect(card.text).toContain("Tujuan: 12345678(2901)");
      const price = rupiahOf(card.text, "Harga");
      j.tap(u, card, /Bayar/);
      const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
      expect(done.text).toMatch(/\nSN: [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/i);
      const order = await lastOrder(j, u);
      expect(order).toMatchObject({ kind: "game", productCode: "ML86", status: "success" });
      expect(order.destination).toBe("12345678(2901)");
      await expectMoney(j, u, 100_000 - price);
    });

    it("pays a bill inside its 5-minute window; the result comes later, in place", async () => {
      const u = base + 3;
      j.user(u);
      await j.fund(u, 2_000_000);
      // ends in 2: two sheets; "012" is the sandbox's default outcome (pending, then ✅)
      const card = await plnBillCard(j, u, "532100000012");
      expect(card.text).toContain("No. pelanggan: 532100000012");
      expect(card.text).toContain("Lembar tagihan: 2");
      expect(card.text).toMatch(/⏱ Bayar sebelum \d{2}:\d{2} WIB \(berlaku 5 menit\)\./);
      expect(labels(card)).toEqual(["✅ Bayar", "❌ Batal"]);
      const total = rupiahOf(card.text, "Total bayar");
      j.tap(u, card, /Bayar/);
      const paid = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
      expect(paid.text).toContain(`Harga: ${formatRupiah(total)}`);
      expect(paid.text).toMatch(/\nSN: [0-9A-F]{32}$/i);
      const bill = await lastOrder(j, u);
      expect(bill).toMatchObject({ kind: "bill", status: "success" });
      // the card in view shows the result in place: no separate notice
      await resultDelivered(j.app.app.database.db, bill.id);
      expect(j.chat(u).messages.filter((m) => m.message_id > card.message_id)).toEqual([]);
      await expectMoney(j, u, 2_000_000 - total);
    });

    it("an expired bill window: Pay says so, one tap re-inquires, then it is paid", async () => {
      const u = base + 4;
      j.user(u);
      await j.fund(u, 2_000_000);
      // ends in 901: one sheet (ends in 1), paid at once
      const card = await plnBillCard(j, u, "532100000901");
      j.clock.advance(5 * 60_000 + 1_000);
      j.tap(u, card, /Bayar/);
      const expired = await j.waitEdit(u, card.message_id, /sudah habis/);
      expect(expired.text).toBe(
        "⌛ Waktu pembayaran tagihan (5 menit) sudah habis. Cek ulang tagihan untuk membayar.",
      );
      expect(labels(expired)).toEqual(["🔄 Cek ulang tagihan", "❌ Batal"]);
      await expectMoney(j, u, 2_000_000);

      j.tap(u, expired, /Cek ulang tagihan/);
      const fresh = await j.waitEdit(u, card.message_id, /Bayar sebelum/);
      expect(fresh.text).toContain("No. pelanggan: 532100000901");
      expect(fresh.text).toContain("Lembar tagihan: 1");
      const total = rupiahOf(fresh.text, "Total bayar");
      j.tap(u, fresh, /Bayar/);
      const paid = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
      expect(paid.text).toContain(`Harga: ${formatRupiah(total)}`);
      const order = await lastOrder(j, u);
      expect(order).toMatchObject({ kind: "bill", status: "success" });
      expect(paid.text).toContain(`Ref: ${order.refId}`);
      await expectMoney(j, u, 2_000_000 - total);
    });

    it("an order that fails is refunded: ❌ with the reason and the refund", async () => {
      const u = base + 5;
      j.user(u);
      await j.fund(u, 50_000);
      const card = await airtimeCard(j, u, "081234567902");
      const price = rupiahOf(card.text, "Harga");
      j.tap(u, card, /Bayar/);
      const failed = await j.waitEdit(u, card.message_id, /❌ Gagal/);
      expect(failed.text).toMatch(/^❌ Gagal\n/);
      expect(failed.text).toMatch(/\nAlasan: .+\n/);
      expect(failed.text).not.toContain("Alasan: tidak diketahui");
      expect(failed.text).toMatch(new RegExp(`Saldo dikembalikan ${formatRupiah(price)}\\.$`));
      expect(await lastOrder(j, u)).toMatchObject({ status: "failed" });
      await expectMoney(j, u, 50_000);
    });

    it("an order that stays pending is settled by the supplier's callback: ⏳ → ✅ in place", async () => {
      const u = base + 6;
      j.user(u);
      await j.fund(u, 50_000);
      const card = await airtimeCard(j, u, "081234567903");
      const price = rupiahOf(card.text, "Harga");
      j.tap(u, card, /Bayar/);
      const waiting = await j.waitEdit(u, card.message_id, /⏳ Diproses/);
      expect(waiting.text).toContain("Hasilnya akan muncul di pesan ini.");
      expect(waiting.reply_markup).toBeUndefined();
      const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
      const order = await lastOrder(j, u);
      expect(order.status).toBe("success");
      expect(done.text).toContain(`SN: ${order.sn}`);
      // the card in view shows the result in place: no separate notice
      await resultDelivered(j.app.app.database.db, order.id);
      expect(j.chat(u).messages.filter((m) => m.message_id > card.message_id)).toEqual([]);
      // it came through the HTTP callback endpoint, was stored once and acted on
      const [callback] = await vi.waitFor(async () => {
        const rows = await callbacksFor(j, order.refId);
        expect(rows[0]?.processedAt).toBeTruthy();
        return rows;
      });
      expect(callback).toMatchObject({
        reportedStatus: expect.any(String),
        outcome: "order success",
      });
      await expectMoney(j, u, 50_000 - price);
    });
  },
);
