import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productByCode } from "../../../src/commerce/catalogue/queries.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { ADMIN_ID, type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// the reseller network in chat, through the local Bot API server: the owner promotes a
// reseller, who recruits by link, sets a markup; the downline buys at the reseller's price
// plus the markup; the reseller's /komisi shows the margin, and the ledger checks out

describe("a reseller recruits, prices and earns in chat", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  const R = 8201;
  const D = 8202;

  it("walks the whole journey", async () => {
    h.user(ADMIN_ID);
    h.user(R, { first_name: "Budi" });
    h.user(D, { first_name: "Sari", username: "sari" });

    // a customer has no /downline
    let at = h.say(R, "/downline");
    await h.waitMessage(R, /Fitur ini untuk reseller/, at);

    at = h.say(ADMIN_ID, `/promote ${R}`);
    const promoted = await h.waitMessage(ADMIN_ID, new RegExp(`User ${R} sekarang reseller`), at);
    expect(promoted.text).toBe(
      `✅ User ${R} sekarang reseller (tanpa upline). Dia sudah diberi tahu.`,
    );
    // the user is told what they can do now, and their menu follows
    const told = await h.waitMessage(R, /sekarang reseller/);
    expect(told.text).toMatch(/\/downline.*\n\/markup.*\n\/api/s);
    await expect
      .poll(() => h.telegram.commandsFor(R).map((c) => c.command))
      .toEqual(expect.arrayContaining(["downline", "markup", "api"]));

    at = h.say(R, "/downline");
    const list = await h.waitMessage(R, /Link pendaftaran downline/, at);
    expect(list.text).toContain("Belum ada downline");
    const link = /https:\/\/t\.me\/\w+\?start=(r_[a-z0-9]+)/.exec(list.text ?? "");
    expect(link).not.toBeNull();

    // the QR of the link, as a picture
    h.tap(R, list, /QR link/);
    const qr = await h.waitMessage(R, /Pindai untuk mendaftar/, list.message_id);
    expect(qr.photo).toBeDefined();

    // the downline opens the link and says yes: told whose downline they are; the reseller
    // is told too
    at = h.say(D, `/start ${link![1]}`);
    const offer = await h.waitMessage(D, /Budi<?\/?b?>? mengajakmu menjadi downline/, at);
    h.tap(D, offer, /Gabung/);
    await h.waitEdit(D, offer.message_id, /downline <?b?>?Budi|downline Budi/);
    await h.waitMessage(R, /Sari @sari.*downline-mu/, at);
    // once: a second link changes nothing
    at = h.say(D, `/start ${link![1]}`);
    await h.waitMessage(D, /Halo Sari/, at);

    at = h.say(R, "/markup semua 500");
    await h.waitMessage(
      R,
      /Markup #\d+ semua produk: 0% \+Rp500|Markup #\d+ semua produk: \+Rp500/,
      at,
    );
    // refusals in the reseller's language, never commerce's English
    at = h.say(R, "/markup semua 9000");
    let refused = await h.waitMessage(R, /^❌/, at);
    expect(refused.text).toBe(
      "❌ jumlah harus rupiah bulat dari Rp0 sampai Rp5.000 (tertulis Rp9.000)",
    );
    at = h.say(R, "/markup produk TSEL10 2000%");
    refused = await h.waitMessage(R, /^❌/, at);
    expect(refused.text).toMatch(
      /^❌ persentase harus dari 0 % sampai [\d.,]+ % \(tertulis 2000 %\)$/,
    );
    at = h.say(R, "/markup produk TSEL10 1%");
    const perProduct = await h.waitMessage(R, /Markup #\d+/, at);
    expect(perProduct.text).toMatch(/^✅ Markup #\d+ produk TSEL10: 1%$/);
    at = h.say(R, `/markup hapus ${/#(\d+)/.exec(perProduct.text ?? "")![1]}`);
    await h.waitMessage(R, /dihapus/, at);

    const own = await productByCode(h.db, "TSEL10", { tier: "reseller", buyer: R });
    await h.fund(D, 50_000);
    at = h.say(D, "/start p_TSEL10_081234567901");
    const card = await h.waitMessage(D, /Konfirmasi pembelian/, at);
    const shown = (own!.price + 500).toLocaleString("id-ID");
    expect(card.text).toContain(`Rp${shown}`);
    h.tap(D, card, /Bayar/);
    await h.waitEdit(D, card.message_id, /✅ Berhasil/);
    expect(await walletBalance(h.db, D)).toBe(50_000 - own!.price - 500);
    expect(await walletBalance(h.db, R)).toBe(500);

    at = h.say(R, "/komisi");
    const earnings = await h.waitMessage(R, /Komisi 7 hari terakhir/, at);
    expect(earnings.text).toContain("Rp500 dari 1 transaksi");
    expect(earnings.text).toContain("Sari: Rp500 (1 trx)");

    at = h.say(R, "/downline");
    const withOne = await h.waitMessage(R, /Downline \(1\)/, at);
    expect(withOne.text).toContain(`belanja bulan ini Rp${shown}`);
    h.tap(R, withOne, /1\. Sari/);
    await h.waitEdit(R, withOne.message_id, /Telkomsel 10\.000 · 081234567901/);

    // a balance transfer to the downline, confirmed on its card; both sides told
    await h.fund(R, 20_000);
    at = h.say(R, "/transfer @sari 10.000");
    const transfer = await h.waitMessage(R, /Transfer saldo/, at);
    expect(transfer.text).toContain("Jumlah: Rp10.000");
    const seen = h.lastId(D);
    h.tap(R, transfer, /Kirim/);
    await h.waitEdit(R, transfer.message_id, /Rp10\.000 terkirim/);
    await h.waitMessage(D, /menerima Rp10\.000 dari Budi/, seen);
    // not to someone outside the tree
    at = h.say(R, `/transfer ${ADMIN_ID} 1000`);
    await h.waitMessage(R, /hanya ke downline langsungmu/, at);

    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });
});
