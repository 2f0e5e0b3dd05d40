import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import {
  ADMIN_ID,
  type BotHarness,
  copyTexts,
  labels,
  startBotHarness,
} from "../../helpers/bot.ts";

// the wallet in chat: balance, deposit requests (command and flow), the admins'
// Confirm / Reject, and the user being told.

describe("wallet and deposits", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ catalogue: false });
    h.user(ADMIN_ID, { first_name: "Owner" });
    // a bot can't write first: the owner has opened it once
    await h.waitMessage(ADMIN_ID, /Halo Owner/, h.say(ADMIN_ID, "/start"));
  });
  afterAll(() => h?.stop());

  const payOf = (text: string) =>
    Number(/Transfer tepat: (Rp[\d.]+)/.exec(text)![1]!.replace(/[Rp.]/g, ""));

  it("/saldo shows the balance with a top-up button", async () => {
    const u = 6001;
    h.user(u);
    await h.fund(u, 25_000);
    const at = h.say(u, "/saldo");
    const m = await h.waitMessage(u, /Saldo kamu/, at);
    expect(m.text).toBe(
      "💰 Saldo kamu: Rp25.000\nIsi saldo: /deposit <jumlah>, misalnya /deposit 100000.",
    );
    expect(labels(m)).toEqual(["💳 Isi saldo"]);
  });

  it("/deposit <amount>: instructions for the user, a card with buttons for the admin, confirm credits", async () => {
    const u = 6002;
    h.user(u, { first_name: "Sari", username: "sari" });
    let at = h.say(u, "/deposit 100.000");
    const m = await h.waitMessage(u, /Permintaan isi saldo/, at);
    expect(m.text).toMatch(/^💳 Permintaan isi saldo D[A-Z0-9]{7}\nJumlah: Rp100\.000\n/);
    expect(m.text).toMatch(/Transfer tepat: Rp100\.\d{3} \(termasuk kode unik\)/);
    expect(m.text).toMatch(/Berlaku sampai: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} WIB/);
    expect(m.text).toContain("Transfer exactly Rp100.");
    const pay = payOf(m.text!);
    const reference = /isi saldo (D[A-Z0-9]{7})/.exec(m.text!)![1]!;
    // the transfer's code and exact amount copy in one tap each, never retyped
    expect(copyTexts(m)).toEqual({
      "📋 Salin kode": reference,
      "📋 Salin jumlah": String(pay),
    });

    const card = await h.waitMessage(ADMIN_ID, new RegExp(`Ref: ${reference}`));
    expect(card.text).toContain("Dari: Sari (@sari, 6002)");
    expect(card.text).toContain("Status: menunggu");
    expect(labels(card)).toEqual(["✅ Konfirmasi", "❌ Tolak"]);
    h.tap(ADMIN_ID, card, /Konfirmasi/);
    const decided = await h.waitEdit(ADMIN_ID, card.message_id, /dikonfirmasi/);
    expect(decided.reply_markup).toBeUndefined();
    expect(await h.waitToast(ADMIN_ID, /Dikonfirmasi/)).toBe("Dikonfirmasi, saldo user ditambah.");
    const told = await h.waitMessage(u, /berhasil/, m.message_id);
    expect(told.text).toBe(
      `✅ Isi saldo Rp${pay.toLocaleString("id-ID")} (${reference}) berhasil. Saldo sekarang Rp${pay.toLocaleString("id-ID")}.`,
    );
    expect(await walletBalance(h.db, u)).toBe(pay);
    at = h.say(u, "/deposit sejuta");
    await h.waitMessage(u, /Gunakan: \/deposit <jumlah>/, at);
  });

  it("the deposit flow from the balance message; too small is asked again; reject tells the user", async () => {
    const u = 6003;
    h.user(u);
    let at = h.say(u, "/saldo");
    const saldo = await h.waitMessage(u, /Saldo kamu/, at);
    h.tap(u, saldo, /Isi saldo/);
    const ask = await h.waitMessage(u, /Mau isi saldo berapa/, saldo.message_id);
    expect(labels(ask)).toEqual(["Rp50.000", "Rp100.000", "Rp200.000", "Rp500.000", "❌ Batal"]);
    at = h.say(u, "lima puluh");
    await h.waitMessage(u, /Jumlah tidak valid/, at);
    at = h.say(u, "5000");
    await h.waitMessage(u, /Minimal isi saldo Rp10\.000\./, at);
    const again = await h.waitMessage(u, /Mau isi saldo berapa/, at);
    h.tap(u, again, /Rp50\.000/);
    const m = await h.waitMessage(u, /Permintaan isi saldo/, again.message_id);
    const reference = /isi saldo (D[A-Z0-9]{7})/.exec(m.text!)![1]!;

    const card = await h.waitMessage(ADMIN_ID, new RegExp(`Ref: ${reference}`));
    h.tap(ADMIN_ID, card, /Tolak/);
    await h.waitEdit(ADMIN_ID, card.message_id, /ditolak/);
    const told = await h.waitMessage(u, /ditolak/, m.message_id);
    expect(told.text).toBe(
      `❌ Isi saldo ${reference} ditolak. Hubungi admin bila kamu sudah transfer.`,
    );
    expect(await walletBalance(h.db, u)).toBe(0);
  });

  it("a request decided elsewhere: the second tap is told, nothing moves twice", async () => {
    const u = 6004;
    h.user(u);
    const at = h.say(u, "/deposit 20000");
    const m = await h.waitMessage(u, /Permintaan isi saldo/, at);
    const reference = /isi saldo (D[A-Z0-9]{7})/.exec(m.text!)![1]!;
    const card = await h.waitMessage(ADMIN_ID, new RegExp(`Ref: ${reference}`));
    h.tap(ADMIN_ID, card, /Konfirmasi/);
    // a second press queued before the edit removed the buttons
    h.tap(ADMIN_ID, card, /Konfirmasi/);
    await h.waitToast(ADMIN_ID, /sudah diputuskan/);
    await h.waitMessage(u, /berhasil/, m.message_id);
    expect(await walletBalance(h.db, u)).toBe(payOf(m.text!));
  });
});
