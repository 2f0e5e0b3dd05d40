import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerCommands } from "../../../src/bot/ui/commands.ts";
import { createI18n } from "../../../src/bot/ui/i18n.ts";
import { findUser, setTier } from "../../../src/commerce/users.ts";
import {
  ADMIN_ID,
  type BotHarness,
  callbackData,
  labels,
  startBotHarness,
} from "../../helpers/bot.ts";

const ADMIN_COMMANDS = [
  "/balance",
  "/sync",
  "/credit 6001 50000",
  "/debit 6001 1000",
  "/role 6001 reseller",
  "/markup",
  "/stats",
  "/pending",
  "/broadcast halo semua",
  "/user 6001",
  "/test TSEL10.081234567901",
];

describe("start, menu, language, help, unknown input", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  it("greets with the main menu in Indonesian", async () => {
    h.user(2001, { first_name: "Budi" });
    const sent = h.say(2001, "/start");
    const m = await h.waitMessage(2001, /Halo Budi/, sent);
    expect(m.text).toBe(
      "Halo Budi! 👋\nSelamat datang di kios: pulsa, paket data, token PLN, e-wallet, voucher game, dan bayar tagihan.\nPilih menu di bawah.",
    );
    expect(labels(m)).toEqual([
      "📱 Pulsa & Data",
      "⚡ Token PLN",
      "👛 E-Wallet",
      "🎮 Voucher Game",
      "🧾 Tagihan",
      "💰 Saldo",
      "📜 Riwayat",
      "❓ Bantuan",
    ]);
    for (const data of callbackData(m)) expect(Buffer.byteLength(data)).toBeLessThanOrEqual(64);
    const stored = await findUser(h.db, 2001);
    expect(stored).toMatchObject({ firstName: "Budi", language: "id", tier: "customer" });
  });

  it("menu entries for balance, history and help answer in place", async () => {
    const u = 2001;
    const menu = await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    h.tap(u, menu, /Saldo/);
    await h.waitMessage(u, /Saldo kamu: Rp0/, menu.message_id);
    h.tap(u, menu, /Riwayat/);
    await h.waitMessage(u, /Belum ada transaksi/, menu.message_id);
    h.tap(u, menu, /Bantuan/);
    const help = await h.waitMessage(u, /^Bantuan\n/, menu.message_id);
    expect(help.text).toContain("/deposit <jumlah>");
    expect(help.text).not.toContain("Reseller");
    expect(help.text).not.toContain("/broadcast");
  });

  it("help for resellers and admins says more", async () => {
    const r = 2002;
    h.user(r);
    await setTier(h.db, r, "reseller");
    let at = h.say(r, "/help");
    const help = await h.waitMessage(r, /^Bantuan/, at);
    expect(help.text).toContain("Pesan cepat: kirim KODE.TUJUAN");
    h.user(ADMIN_ID);
    at = h.say(ADMIN_ID, "/help");
    const admin = await h.waitMessage(ADMIN_ID, /^Bantuan/, at);
    expect(admin.text).toContain("/broadcast <teks>: kirim ke semua user");
  });

  it("switches language by /lang buttons and back by /lang id", async () => {
    const u = 2003;
    h.user(u, { first_name: "Ann", language_code: "en" });
    // a new user with an English client starts in English
    let at = h.say(u, "/start");
    await h.waitMessage(u, /^Hi Ann!/, at);
    at = h.say(u, "/lang");
    const choose = await h.waitMessage(u, /Choose a language/, at);
    expect(labels(choose)).toEqual(["🇮🇩 Bahasa Indonesia", "🇬🇧 English"]);
    h.tap(u, choose, /Bahasa Indonesia/);
    const set = await h.waitMessage(u, /Bahasa diganti/, choose.message_id);
    expect(labels(set)[0]).toBe("📱 Pulsa & Data");
    expect((await findUser(h.db, u))?.language).toBe("id");
    // the stored choice wins over the client's English, in commands and in flows
    at = h.say(u, "/saldo");
    await h.waitMessage(u, /^💰 Saldo kamu: Rp0/, at);
    h.tap(u, set, /Pulsa & Data/);
    const ask = await h.waitMessage(u, /Masukkan nomor HP tujuan/, set.message_id);
    expect(labels(ask)).toEqual(["❌ Batal"]);
    at = h.say(u, "/lang en");
    const en = await h.waitMessage(u, /Language switched to English/, at);
    expect(labels(en)[0]).toBe("📱 Airtime & Data");
    at = h.say(u, "/saldo");
    await h.waitMessage(u, /^💰 Your balance: Rp0/, at);
  });

  it("unknown commands, stray text, stickers and dead buttons get a short answer", async () => {
    const u = 2004;
    h.user(u);
    let at = h.say(u, "/frobnicate");
    const unknown = await h.waitMessage(u, /Perintah tidak dikenal/, at);
    expect(unknown.text).toBe("Perintah tidak dikenal. Ketik /start untuk membuka menu.");
    at = h.say(u, "berapa harga pulsa?");
    const fallback = await h.waitMessage(u, /belum paham/, at);
    expect(labels(fallback)).toHaveLength(8);
    at = h.telegram.sendSticker(u).message.message_id;
    await h.waitMessage(u, /belum paham/, at);
    // a Cancel left on a question of a flow that is over
    const menu = await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    h.tap(u, menu, /Token PLN/);
    const ask = await h.waitMessage(u, /nomor meter/, menu.message_id);
    await h.waitMessage(u, /^Dibatalkan\.$/, h.say(u, "/cancel"));
    const seen = h.chat(u).callback_answers.length;
    h.tap(u, ask, /Batal/);
    expect(await h.waitToast(u, /Dibatalkan/, seen)).toBe("Dibatalkan");
  });

  it("admin commands from anyone else get exactly the unknown-command answer", async () => {
    const u = 2005;
    h.user(u);
    for (const command of ADMIN_COMMANDS) {
      const at = h.say(u, command);
      const reply = await h.waitMessage(u, /./, at);
      expect(reply.text, command).toBe("Perintah tidak dikenal. Ketik /start untuk membuka menu.");
      expect(reply.reply_markup).toBeUndefined();
    }
    // and nothing happened
    expect((await findUser(h.db, 6001))?.tier).not.toBe("reseller");
  });

  it("a user who blocks the bot is marked, and unmarked when they write again", async () => {
    const u = 2006;
    h.user(u);
    await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    h.telegram.block(u, true);
    await expect.poll(async () => (await findUser(h.db, u))?.blockedAt).not.toBeNull();
    h.telegram.block(u, false);
    await h.waitMessage(u, /Halo/, h.say(u, "/start"));
    expect((await findUser(h.db, u))?.blockedAt).toBeNull();
  });

  it("registers the command menu per language, admin commands only in admins' chats", async () => {
    await registerCommands(h.bot.api, createI18n(), [{ id: ADMIN_ID, language: "id" }]);
    h.user(2007, { language_code: "id" });
    h.user(2008, { language_code: "en" });
    await h.waitMessage(2007, /Halo/, h.say(2007, "/start"));
    await h.waitMessage(2008, /Hi/, h.say(2008, "/start"));
    const id = h.telegram.commandsFor(2007);
    expect(id.map((c) => c.command)).toEqual([
      "start",
      "saldo",
      "deposit",
      "riwayat",
      "harga",
      "status",
      "lang",
      "pin",
      "help",
      "cancel",
    ]);
    expect(id[1]).toEqual({ command: "saldo", description: "Cek saldo" });
    expect(h.telegram.commandsFor(2008)[1]).toEqual({
      command: "saldo",
      description: "Your balance",
    });
    const admin = h.telegram.commandsFor(ADMIN_ID).map((c) => c.command);
    expect(admin).toEqual(
      expect.arrayContaining([
        "balance",
        "sync",
        "broadcast",
        "user",
        "saldo",
        "routes",
        "promote",
        "upline",
        "api",
      ]),
    );
  });
});
