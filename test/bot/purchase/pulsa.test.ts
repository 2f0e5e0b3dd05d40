import type { MessageView } from "@kios/bot-api-server";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CONVERSATION_KEY_PREFIX } from "../../../src/bot/storage/chat-state.ts";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { botState, telegramUpdates } from "../../../src/db/schema.ts";
import {
  ADMIN_ID,
  type BotHarness,
  callbackData,
  copyTexts,
  labels,
  startBotHarness,
} from "../../helpers/bot.ts";

// the pulsa & data flow end to end against the sandbox: every step, its bad inputs, its
// ways out, and what the order message becomes.

describe("pulsa & data", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  /** /start → Pulsa & Data → number → Pulsa → product list */
  async function toList(u: number, phone: string, kind: RegExp = /^Pulsa$/) {
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo|Hi /, at);
    h.tap(u, menu, /Pulsa & Data|Airtime & Data/);
    await h.waitMessage(u, /nomor HP|mobile number/, menu.message_id);
    const typed = h.say(u, phone);
    const which = await h.waitMessage(u, /pulsa atau paket data|Airtime or a data/, typed);
    h.tap(u, which, kind);
    const list = await h.waitMessage(u, /untuk|for 08/, which.message_id);
    return list;
  }

  async function toCard(u: number, phone: string, kind: RegExp = /^Pulsa$/) {
    const list = await toList(u, phone, kind);
    const item = /^Telkomsel 10\.000 ·/;
    await h.tapItem(u, list, item);
    return h.waitMessage(u, /Konfirmasi pembelian|Confirm your purchase/, list.message_id);
  }

  const orderOf = async (u: number) =>
    (await listUserOrders(h.db, u, { limit: 1, offset: 0 })).items[0]!;

  it("buys pulsa: number, operator, product, card, ✅ with the SN edited in place", async () => {
    const u = 3001;
    h.user(u);
    await h.fund(u, 200_000);
    const list = await toList(u, "0812-3456-7901");
    expect(list.text).toBe("Pulsa Telkomsel untuk 081234567901:");
    // cheapest first, the user's price on each button, paged with ◀️ n/m ▶️ and Cancel
    expect(labels(list)[0]).toMatch(/^Telkomsel .* · Rp[\d.]+$/);
    expect(labels(list)).toContain("▶️");
    expect(labels(list).at(-1)).toBe("❌ Batal");
    for (const d of callbackData(list)) expect(Buffer.byteLength(d)).toBeLessThanOrEqual(64);

    await h.tapItem(u, list, /^Telkomsel 10\.000 ·/);
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    expect(card.text).toBe(
      [
        "🧾 Konfirmasi pembelian",
        "Produk: Telkomsel 10.000",
        "Tujuan: 081234567901",
        "Harga: Rp10.400",
        "Saldo: Rp200.000 → Rp189.600",
      ].join("\n"),
    );
    expect(labels(card)).toEqual(["✅ Bayar", "❌ Batal"]);

    h.tap(u, card, /Bayar/);
    const done = await h.waitEdit(u, card.message_id, /Berhasil/);
    const order = await orderOf(u);
    expect(done.text).toBe(
      [
        "✅ Berhasil",
        "Produk: Telkomsel 10.000",
        "Tujuan: 081234567901",
        "Harga: Rp10.400",
        `Ref: ${order.refId}`,
        `SN: ${order.sn}`,
      ].join("\n"),
    );
    // the ⏳ step came first, in the same message
    expect(done.history.map((r) => r.text?.split("\n")[0])).toContain("⏳ Diproses");
    // the SN copies in one tap; the other button left is the receipt
    expect(labels(done)).toEqual(["📋 Salin SN", "🧾 Struk"]);
    expect(copyTexts(done)).toEqual({ "📋 Salin SN": order.sn });
    expect(await walletBalance(h.db, u)).toBe(189_600);
  });

  it("offers the last numbers used and buys a data package", async () => {
    const u = 3001;
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Pulsa & Data/);
    const ask = await h.waitMessage(u, /pilih nomor terakhir/, menu.message_id);
    expect(labels(ask)).toEqual(["081234567901", "❌ Batal"]);
    h.tap(u, ask, "i:0");
    const which = await h.waitMessage(u, /pulsa atau paket data/, ask.message_id);
    h.tap(u, which, /Paket Data/);
    const list = await h.waitMessage(
      u,
      /Paket data Telkomsel untuk 081234567901/,
      which.message_id,
    );
    const first = labels(list)[0]!;
    expect(first).toMatch(/^Telkomsel .*Data.* · Rp/);
    h.tap(u, list, "i:0");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    expect(card.text).toContain(`Produk: ${first.split(" · ")[0]}`);
  });

  it("browses a long list without growing the flow's log, and buys the item tapped on a later page", async () => {
    const u = 3011;
    h.user(u);
    await h.fund(u, 200_000);
    const list = await toList(u, "081234567911", /Paket Data/);
    const stateSize = async () => {
      const [row] = await h.db
        .select({ value: botState.value })
        .from(botState)
        .where(eq(botState.key, `${CONVERSATION_KEY_PREFIX}${u}`));
      return JSON.stringify(row?.value ?? null).length;
    };
    const shown = () => h.chat(u).messages.find((m) => m.message_id === list.message_id)!;
    const page = () => labels(shown()).find((l) => /^\d+\/\d+$/.test(l));
    const turn = async () => {
      const was = page();
      h.tap(u, shown(), /^▶️$/);
      await h.telegram.waitFor(u, () => page() !== was, 8000);
    };
    // what is stored once every update of the chat is finished
    const settled = async () => {
      await vi.waitFor(
        async () => {
          const open = await h.db
            .select({ id: telegramUpdates.updateId })
            .from(telegramUpdates)
            .where(and(eq(telegramUpdates.chatId, u), isNull(telegramUpdates.handledAt)));
          expect(open).toHaveLength(0);
        },
        { timeout: 8000, interval: 20 },
      );
      return stateSize();
    };
    await turn();
    const before = await settled();
    for (let i = 0; i < 11; i++) await turn();
    expect(page()).toMatch(/^13\//);
    // twelve page turns later the stored flow is no longer than before them: a page turn is
    // not replayed on every later update
    expect(await settled()).toBeLessThanOrEqual(before);
    // a tap on page 13 buys what its button says
    const wanted = labels(shown())[2]!;
    expect(callbackData(shown())[2]).toBe("i:2:12");
    h.tap(u, shown(), "i:2:12");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    expect(card.text).toContain(`Produk: ${wanted.split(" · ")[0]}`);
  });

  it("answers bad input at every step with a hint and the same question", async () => {
    const u = 3002;
    h.user(u);
    let at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Pulsa & Data/);
    await h.waitMessage(u, /nomor HP/, menu.message_id);

    at = h.say(u, "12345");
    let again = await h.waitMessage(u, /tidak dikenali/, at);
    expect(again.text).toContain("Masukkan nomor HP tujuan");
    expect(labels(again)).toEqual(["❌ Batal"]);
    at = h.telegram.sendSticker(u).message.message_id;
    again = await h.waitMessage(u, /tidak dikenali/, at);
    at = h.telegram.sendPhoto(u, { caption: "ini nomornya" }).message.message_id;
    again = await h.waitMessage(u, /tidak dikenali/, at);
    // a number of no known operator is not accepted either
    at = h.say(u, "08001234567");
    await h.waitMessage(u, /tidak dikenali/, at);

    at = h.say(u, "+62 857 1234 5901");
    const which = await h.waitMessage(u, /pulsa atau paket data/, at);
    expect(which.text).toContain("085712345901 (Indosat)");
    at = h.say(u, "pulsa saja");
    again = await h.waitMessage(u, /pilih dengan tombol/, at);
    expect(again.text).toContain("Mau beli pulsa atau paket data?");
    expect(labels(again)).toEqual(["Pulsa", "Paket Data", "❌ Batal"]);
    h.tap(u, again, /^Pulsa$/);
    const list = await h.waitMessage(u, /Pulsa Indosat untuk 085712345901/, again.message_id);

    at = h.telegram.sendSticker(u).message.message_id;
    const list2 = await h.waitMessage(u, /Pulsa Indosat untuk/, at);
    expect(list2.text).toMatch(/^Silakan pilih dengan tombol/);
    // the list moved to the new message: the old one has no buttons left
    expect(
      h.chat(u).messages.find((m) => m.message_id === list.message_id)!.reply_markup,
    ).toBeUndefined();
    h.tap(u, list2, "i:0");
    await h.waitMessage(u, /Konfirmasi pembelian/, list2.message_id);
    // after the card the flow is over: text gets the general answer and the menu
    at = h.say(u, "halo?");
    const fallback = await h.waitMessage(u, /belum paham/, at);
    expect(labels(fallback)).toContain("📱 Pulsa & Data");
  });

  it("leaves the flow by Cancel, /cancel and /start at each step", async () => {
    const u = 3003;
    h.user(u);
    // Cancel button on the number step
    let at = h.say(u, "/start");
    let menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Pulsa & Data/);
    const ask = await h.waitMessage(u, /nomor HP/, menu.message_id);
    h.tap(u, ask, /Batal/);
    const cancelled = await h.waitMessage(u, /^Dibatalkan\.$/, ask.message_id);
    expect(labels(cancelled)).toContain("📱 Pulsa & Data");
    expect(await h.waitToast(u, /Dibatalkan/)).toBe("Dibatalkan");
    at = h.say(u, "081234567901");
    await h.waitMessage(u, /belum paham/, at);

    // /cancel on the pulsa-or-data step
    menu = await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    h.tap(u, menu, /Pulsa & Data/);
    await h.waitMessage(u, /nomor HP/, menu.message_id);
    at = h.say(u, "081234567901");
    const which = await h.waitMessage(u, /pulsa atau paket data/, at);
    at = h.say(u, "/cancel");
    await h.waitMessage(u, /^Dibatalkan\.$/, at);
    at = h.say(u, "/cancel");
    await h.waitMessage(u, /Tidak ada proses/, at);
    // its buttons are stale now
    const seen = h.chat(u).callback_answers.length;
    h.tap(u, which, /^Pulsa$/);
    expect(await h.waitToast(u, /tidak berlaku/, seen)).toBe("Tombol ini sudah tidak berlaku.");

    // /start on the product list: the menu again, and the old list is dead
    const list = await toList(u, "081234567901");
    at = h.say(u, "/start");
    await h.waitMessage(u, /Halo/, at);
    const seen2 = h.chat(u).callback_answers.length;
    h.tap(u, list, "i:0");
    await h.waitToast(u, /tidak berlaku/, seen2);

    // another menu entry in the middle of a flow starts that flow instead
    const list2 = await toList(u, "081234567901");
    menu = await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    h.tap(u, menu, /Token PLN/);
    await h.waitMessage(u, /nomor meter/, menu.message_id);
    expect(list2).toBeDefined();

    // Cancel on the card
    h.tap(u, await h.waitMessage(u, /nomor meter/, menu.message_id), /Batal/);
    const card = await toCard(u, "081234567901");
    h.tap(u, card, /Batal/);
    const gone = await h.waitEdit(u, card.message_id, /dibatalkan/);
    expect(gone.text).toBe("❌ Pembelian dibatalkan.");
    expect(gone.reply_markup).toBeUndefined();
    expect(await listUserOrders(h.db, u, { limit: 5, offset: 0 })).toMatchObject({ total: 0 });
  });

  it("says how much is missing, offers a top-up, and pays once topped up", async () => {
    const u = 3004;
    h.user(u);
    await h.fund(u, 5_000);
    const card = await toCard(u, "081234567901");
    // no balance "after" below zero: the buyer can't end there, they are short instead
    expect(card.text).toBe(
      [
        "🧾 Konfirmasi pembelian",
        "Produk: Telkomsel 10.000",
        "Tujuan: 081234567901",
        "Harga: Rp10.400",
        "Saldo: Rp5.000",
        "⚠️ Saldo kurang Rp5.400. Isi saldo dulu dengan /deposit.",
      ].join("\n"),
    );
    expect(labels(card)).toEqual(["✅ Bayar", "❌ Batal", "💳 Isi saldo"]);
    h.tap(u, card, /Bayar/);
    const short = await h.waitEdit(u, card.message_id, /Saldo tidak cukup/);
    expect(short.text).toBe(
      [
        "⚠️ Saldo tidak cukup.",
        "Harga: Rp10.400",
        "Saldo: Rp5.000",
        "Kurang: Rp5.400",
        "Isi saldo dengan /deposit <jumlah> atau tombol di bawah, lalu tekan Bayar lagi.",
      ].join("\n"),
    );
    expect(labels(short)).toEqual(["💳 Isi saldo", "🔁 Bayar lagi", "❌ Batal"]);
    expect(await walletBalance(h.db, u)).toBe(5_000);

    await h.fund(u, 10_000);
    h.tap(u, short, /Bayar lagi/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    expect(await walletBalance(h.db, u)).toBe(4_600);
  });

  it("shows the order's ref on the ⏳ card while the supplier has not answered", async () => {
    const u = 3020;
    h.user(u);
    await h.fund(u, 50_000);
    // the supplier answers only when the test lets it: support can match a complaint to
    // the order from the ⏳ card meanwhile
    const real = h.orders.supplier;
    let answer = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    h.orders.supplier = {
      ...real,
      order: async (request) => {
        await held;
        return real.order(request);
      },
    };
    try {
      const card = await toCard(u, "081234567901");
      h.tap(u, card, /Bayar/);
      const waiting = await h.waitEdit(u, card.message_id, /Ref: /);
      const order = await orderOf(u);
      expect(order.status).toBe("submitted");
      expect(waiting.text).toBe(
        [
          "⏳ Diproses",
          "Produk: Telkomsel 10.000",
          "Tujuan: 081234567901",
          "Harga: Rp10.400",
          `Ref: ${order.refId}`,
          "Hasilnya akan muncul di pesan ini.",
        ].join("\n"),
      );
      answer();
      const done = await h.waitEdit(u, card.message_id, /Berhasil/);
      expect(done.text).toContain(`Ref: ${order.refId}`);
    } finally {
      answer();
      h.orders.supplier = real;
    }
  });

  it("a failed order shows the reason and the refund", async () => {
    const u = 3005;
    h.user(u);
    await h.fund(u, 50_000);
    const card = await toCard(u, "081234567902");
    h.tap(u, card, /Bayar/);
    const failed = await h.waitEdit(u, card.message_id, /Gagal/);
    expect(failed.text).toMatch(/^❌ Gagal\n/);
    expect(failed.text).toMatch(/\nAlasan: .+\n/);
    expect(failed.text).toMatch(/Saldo dikembalikan Rp10\.400\.$/);
    expect(await walletBalance(h.db, u)).toBe(50_000);
    // the buyer reads kios's reason in their language; the supplier's own (English) words are
    // the admins' only, on /status
    const order = await orderOf(u);
    expect(order.supplierMessage).toMatch(/refunded/);
    expect(failed.text).not.toContain(order.supplierMessage!);
    expect(failed.text).not.toMatch(/catatan supplier/i);
    h.user(ADMIN_ID);
    const seen = await h.waitMessage(
      ADMIN_ID,
      /Percobaan/,
      h.say(ADMIN_ID, `/status ${order.refId}`),
    );
    expect(seen.text).toContain(`Catatan supplier (khusus admin): ${order.supplierMessage}`);
  });

  it("a pending order stays ⏳ and is edited to ✅, with a push once the buyer moved on", async () => {
    const u = 3006;
    h.user(u);
    await h.fund(u, 50_000);
    const card = await toCard(u, "081234567903");
    h.tap(u, card, /Bayar/);
    const waiting = await h.waitEdit(u, card.message_id, /Diproses/);
    expect(waiting.text).toContain("Hasilnya akan muncul di pesan ini.");
    // the ⏳ message (the stored order, its ref) stays while the supplier works
    const order = await vi.waitFor(async () => {
      const o = await orderOf(u);
      expect(o?.status).toBe("pending");
      return o;
    });
    expect(order.messageId).toBe(card.message_id);
    // a double tap is impossible now: the card lost its buttons
    expect(waiting.reply_markup).toBeUndefined();

    // the buyer moves on meanwhile: the card is no longer the chat's latest message
    await h.waitMessage(u, /Saldo/, h.say(u, "/saldo"));
    await h.sandbox.settleNow();
    await resolveOrder(h.orders, order.id);
    const done = await h.waitEdit(u, card.message_id, /Berhasil/);
    const settled = await orderOf(u);
    expect(done.text).toContain(`SN: ${settled.sn}`);
    const push = await h.waitMessage(u, /Pesanan berhasil/, card.message_id);
    expect(push.text).toBe(
      `✅ Pesanan berhasil: Telkomsel 10.000 ke 081234567903.\nSN: ${settled.sn}`,
    );
    expect(push.reply_to_message_id).toBe(card.message_id);
    expect(h.deliveryErrors).toEqual([]);
  });

  it("continues a flow after a restart (a new bot on the same database)", async () => {
    const u = 3007;
    h.user(u);
    await h.fund(u, 50_000);
    let at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Pulsa & Data/);
    await h.waitMessage(u, /nomor HP/, menu.message_id);
    at = h.say(u, "081234567901");
    const which = await h.waitMessage(u, /pulsa atau paket data/, at);

    await h.restart();

    h.tap(u, which, /^Pulsa$/);
    const list = await h.waitMessage(u, /Pulsa Telkomsel untuk 081234567901/, which.message_id);
    await h.tapItem(u, list, /^Telkomsel 10\.000 ·/);
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
  });

  it("works in English: /lang, a purchase and an error", async () => {
    const u = 3008;
    h.user(u, { first_name: "Ann", language_code: "en" });
    await h.fund(u, 12_000);
    let at = h.say(u, "/lang en");
    await h.waitMessage(u, /Language switched to English/, at);
    at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Hi Ann!/, at);
    expect(labels(menu)[0]).toBe("📱 Airtime & Data");
    h.tap(u, menu, /Airtime & Data/);
    await h.waitMessage(u, /Enter the mobile number/, menu.message_id);
    at = h.say(u, "abc");
    await h.waitMessage(u, /isn't recognised/, at);
    at = h.say(u, "081234567901");
    const which = await h.waitMessage(u, /Airtime or a data package/, at);
    h.tap(u, which, /^Airtime$/);
    const list = await h.waitMessage(u, /Telkomsel airtime for 081234567901/, which.message_id);
    await h.tapItem(u, list, /^Telkomsel 10\.000 ·/);
    const card = await h.waitMessage(u, /Confirm your purchase/, list.message_id);
    expect(card.text).toContain("Price: Rp10.400");
    expect(labels(card)).toEqual(["✅ Pay", "❌ Cancel"]);
    h.tap(u, card, /Pay/);
    await h.waitEdit(u, card.message_id, /Successful/);

    // the second one is more than what is left
    const card2 = await toCard(u, "081234567901", /^Airtime$/);
    h.tap(u, card2, /Pay/);
    const short = await h.waitEdit(u, card2.message_id, /Not enough balance/);
    expect(short.text).toContain("Missing: Rp8.800");
    at = h.say(u, "/nope");
    await h.waitMessage(u, /^Unknown command/, at);
  });

  it("a stale card after expiry offers a fresh price in one tap", async () => {
    const u = 3009;
    h.user(u);
    await h.fund(u, 50_000);
    const card: MessageView = await toCard(u, "081234567901");
    h.clock.advance(11 * 60_000);
    h.tap(u, card, /Bayar/);
    const expired = await h.waitEdit(u, card.message_id, /kedaluwarsa/);
    expect(labels(expired)).toEqual(["🔄 Cek harga terbaru", "❌ Batal"]);
    h.tap(u, expired, /Cek harga terbaru/);
    const fresh = await h.waitEdit(u, card.message_id, /Konfirmasi pembelian/);
    h.tap(u, fresh, /Bayar/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    expect(await listUserOrders(h.db, u, { limit: 5, offset: 0 })).toMatchObject({ total: 1 });
  });
});
