import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listMarkupRules } from "../../../src/commerce/catalogue/index.ts";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { findUser, setTier } from "../../../src/commerce/users.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { ADMIN_ID, type BotHarness, labels, startBotHarness } from "../../helpers/bot.ts";

// every admin command as the owner uses it

describe("admin commands", () => {
  let h: BotHarness;
  const A = ADMIN_ID;
  beforeAll(async () => {
    h = await startBotHarness();
    h.user(A, { first_name: "Owner" });
    await h.waitMessage(A, /Halo Owner/, h.say(A, "/start"));
  });
  afterAll(() => h?.stop());

  async function admin(text: string, expectRe: RegExp) {
    const at = h.say(A, text);
    return h.waitMessage(A, expectRe, at);
  }

  it("/balance shows the supplier balance", async () => {
    const m = await admin("/balance", /Saldo supplier/);
    expect(m.text).toMatch(
      /^🏦 Saldo supplier: Rp[\d.]+ \(jawaban supplier barusan, \d\d:\d\d WIB\)$/,
    );
  });

  it("/sync syncs the catalogue and reports the changes", async () => {
    const at = h.say(A, "/sync");
    const progress = await h.waitMessage(A, /Sinkronisasi katalog/, at);
    const done = await h.waitEdit(A, progress.message_id, /Katalog tersinkron/);
    expect(done.text).toMatch(/Total: [\d.]+\nBaru: 0 · Berubah: 0\n/);
    expect(done.text).toContain("Perubahan harga: 0");
  });

  it("/credit and /debit move money through the ledger and tell the user", async () => {
    const u = 7001;
    h.user(u);
    await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    let m = await admin("/credit 7001 50.000 transfer BCA", /ditambah/);
    expect(m.text).toBe("✅ Saldo user 7001 ditambah Rp50.000. Saldo: Rp50.000");
    const told = await h.waitMessage(u, /ditambah Rp50\.000 oleh admin/);
    expect(told.text).toContain("(catatan: transfer BCA)");
    m = await admin("/debit 7001 20000", /dikurangi/);
    expect(m.text).toBe("✅ Saldo user 7001 dikurangi Rp20.000. Saldo: Rp30.000");
    m = await admin("/debit 7001 999999", /tidak cukup/);
    expect(m.text).toBe("⚠️ Saldo user tidak cukup (Rp30.000).");
    expect(await walletBalance(h.db, u)).toBe(30_000);
    await admin("/credit 7001", /Gunakan: \/credit <telegram_user_id> <jumlah>/);
    await admin("/debit abc 100", /Gunakan: \/debit/);
  });

  it("/role makes a reseller; /user shows a user", async () => {
    const u = 7002;
    h.user(u, { first_name: "Rina", username: "rina" });
    await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    let m = await admin("/role 7002 reseller", /sekarang/);
    expect(m.text).toBe("✅ User 7002 sekarang reseller.");
    expect((await findUser(h.db, u))?.tier).toBe("reseller");
    await admin("/role 7002 boss", /Gunakan: \/role/);
    m = await admin("/user 7002", /User 7002/);
    expect(m.text).toContain("Nama: Rina (@rina)");
    expect(m.text).toContain("Peran: reseller · Bahasa: id");
    expect(m.text).toContain("Saldo: Rp0");
    expect(m.text).toContain("Pesanan: 0");
    await admin("/user 99999", /belum pernah memakai bot/);
  });

  it("/markup lists, sets and deletes rules", async () => {
    let m = await admin("/markup", /Aturan markup/);
    expect(m.text).toContain("Belum ada aturan");
    m = await admin("/markup set brand TELKOMSEL reseller 1.5 100", /Aturan disimpan/);
    expect(m.text).toMatch(/^✅ Aturan disimpan: #\d+ reseller · brand TELKOMSEL · 1\.5% \+Rp100$/);
    m = await admin("/markup set all customer 2", /Aturan disimpan/);
    expect(m.text).toMatch(/customer · all · 2%$/);
    const rules = await listMarkupRules(h.db);
    expect(rules).toHaveLength(2);
    m = await admin("/markup", /Aturan markup/);
    expect(m.text).toContain("reseller · brand TELKOMSEL · 1.5% +Rp100");
    m = await admin("/markup set brand NOSUCHBRAND customer 1", /Ditolak/);
    expect(m.text).toBe(
      '⚠️ Ditolak: tidak ada produk di katalog dengan brand "NOSUCHBRAND" (sinkronkan katalog dulu?)',
    );
    m = await admin("/markup set all customer 2000", /Ditolak/);
    expect(m.text).toBe("⚠️ Ditolak: persentase harus dari -100 % sampai 1000 % (tertulis 2000 %)");
    await admin("/markup set sideways customer 1", /Gunakan:/);
    m = await admin(`/markup del ${rules[0]!.id}`, /Aturan dihapus/);
    expect(await listMarkupRules(h.db)).toHaveLength(1);
    expect(m).toBeDefined();
  });

  it("/stats, /pending with a re-check button", async () => {
    const u = 7003;
    h.user(u);
    await h.fund(u, 100_000);
    await setTier(h.db, u, "reseller");
    // one pending order (the default sandbox outcome settles later)
    const at = h.say(u, "TSEL10.081234567123");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, card, /Bayar/);
    const order = await vi.waitFor(async () => {
      const o = (await listUserOrders(h.db, u, { limit: 1, offset: 0 })).items[0];
      expect(o?.status).toBe("pending");
      return o!;
    });

    let m = await admin("/stats", /Statistik/);
    expect(m.text).toMatch(
      /Hari ini\nPesanan: \d+ \(✅ \d+ · ❌ \d+ · ⏳ [1-9]\d*\)\nOmzet: Rp[\d.]+ · Margin: Rp[\d.]+/,
    );
    expect(m.text).toContain("7 hari terakhir");

    m = await admin("/pending", /Pesanan terbuka/);
    expect(m.text).toContain(order.refId);
    expect(m.text).toContain("pending · Telkomsel 10.000 · 081234567123");
    // each attempt under its order: supplier, code, ref_id, state, answer, times (WIB)
    const time = String.raw`\d\d:\d\d:\d\d`;
    expect(m.text).toMatch(
      new RegExp(
        String.raw`\n {3}1\. main · TSEL10 · ${order.refId} · open · ORDER_PENDING · ${time} → ${time} → … WIB`,
      ),
    );
    // an admin's /status finds anyone's order, with its attempts; the buyer's shows none
    const seen = await admin(`/status ${order.refId}`, /Percobaan/);
    expect(seen.text).toMatch(new RegExp(`1. main · TSEL10 · ${order.refId} · open`));
    const own = await h.waitMessage(u, new RegExp(order.refId), h.say(u, `/status ${order.refId}`));
    expect(own.text).not.toMatch(/Percobaan|main ·/);
    const stranger = 7004;
    h.user(stranger);
    await h.waitMessage(
      stranger,
      /tidak ditemukan|Tidak ditemukan/i,
      h.say(stranger, `/status ${order.refId}`),
    );
    const button = labels(m).find((l) => l.includes(order.refId.slice(-8)))!;
    await h.sandbox.settleNow();
    h.tap(A, m, new RegExp(button.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    expect(await h.waitToast(A, new RegExp(`${order.refId}: `))).toBe(
      `${order.refId}: ✅ berhasil`,
    );
    await h.waitEdit(u, card.message_id, /Berhasil/);
    await admin("/pending", /Tidak ada pesanan yang tertahan/);
  });

  it("/test makes a testing-mode order: the supplier's testing flag, no money moved", async () => {
    const before = await walletBalance(h.db, A);
    await admin("/test", /Gunakan: \/test/);
    const card = await admin("/test TSEL10.081234567901", /Konfirmasi pembelian/);
    expect(card.text).toContain("🧪 Mode uji");
    h.tap(A, card, /Bayar/);
    await h.waitEdit(A, card.message_id, /Berhasil/);
    const order = (await listUserOrders(h.db, A, { limit: 1, offset: 0 })).items[0]!;
    expect(order).toMatchObject({ testing: true, status: "success" });
    const sent = h.sandbox.transactions().find((t) => t.refId === order.refId);
    expect(sent).toMatchObject({ testing: true, charged: 0 });
    expect(await walletBalance(h.db, A)).toBe(before);
  });

  it("an expired /test card quotes again as a test, never as a real purchase", async () => {
    const before = await walletBalance(h.db, A);
    const card = await admin("/test TSEL10.081234567902", /Konfirmasi pembelian/);
    expect(card.text).toContain("🧪 Mode uji");
    h.clock.advance(11 * 60_000);
    h.tap(A, card, /Bayar/);
    const expired = await h.waitEdit(A, card.message_id, /kedaluwarsa/);
    h.tap(A, expired, /Cek harga terbaru/);
    const fresh = await h.waitEdit(A, card.message_id, /Konfirmasi pembelian/);
    expect(fresh.text).toContain("🧪 Mode uji");
    expect(await walletBalance(h.db, A)).toBe(before);
  });

  it("a /credit delivered twice moves money once and says so the second time", async () => {
    const u = 6101;
    h.user(u);
    const before = await walletBalance(h.db, u);
    const update = {
      update_id: 990_001,
      message: {
        message_id: 990_001,
        date: Math.floor(Date.now() / 1000),
        chat: { id: A, type: "private" as const, first_name: "Owner" },
        from: { id: A, is_bot: false, first_name: "Owner" },
        text: `/credit ${u} 7000 redelivered`,
        entities: [{ type: "bot_command" as const, offset: 0, length: 7 }],
      },
    };
    const at = h.lastId(A);
    await h.bot.handleUpdate(update);
    await h.waitMessage(A, /ditambah|Saldo user/, at);
    const second = h.lastId(A);
    await h.bot.handleUpdate(update);
    await h.waitMessage(A, /sudah dijalankan/, second);
    expect(await walletBalance(h.db, u)).toBe(before + 7000);
  });

  it("/broadcast queues one message per user, delivered by the notifier", async () => {
    const users = [7101, 7102, 7103];
    for (const u of users) {
      h.user(u);
      await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    }
    h.telegram.block(7103, true);
    await vi.waitFor(async () => expect((await findUser(h.db, 7103))?.blockedAt).not.toBeNull());
    const m = await admin(
      "/broadcast Promo <b>hari ini</b>: pulsa diskon!",
      /Broadcast dijadwalkan/,
    );
    expect(m.text).toMatch(/^📣 Broadcast dijadwalkan untuk \d+ user\.$/);
    for (const u of [7101, 7102, A]) {
      const b = await h.waitMessage(u, /Promo/);
      expect(b.text).toBe("Promo <b>hari ini</b>: pulsa diskon!");
    }
    expect(h.chat(7103).messages.some((x) => /Promo/.test(x.text ?? ""))).toBe(false);
    await admin("/broadcast", /Gunakan: \/broadcast <teks>/);
  });
});
