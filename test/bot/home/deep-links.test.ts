import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botLink, purchaseParameter, purchaseReadings } from "../../../src/bot/ui/deep-links.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { type BotHarness, labels, startBotHarness } from "../../helpers/bot.ts";

// t.me/<bot>?start=p_<code>_<destination?>: a price list's or an inline result's link opens
// that product's card (and destination) in the bot, ready for Pay

describe("links into a purchase", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  it("writes and reads the start parameter as Telegram allows it", () => {
    expect(purchaseParameter("TSEL10")).toBe("p_TSEL10");
    expect(purchaseParameter("TSEL10", "081234567901")).toBe("p_TSEL10_081234567901");
    // parentheses are not allowed: a game's zone travels as -zone
    expect(purchaseParameter("ML86", "12345678(2901)")).toBe("p_ML86_12345678-2901");
    expect(purchaseParameter("X".repeat(70))).toBeUndefined();
    expect(purchaseParameter("TSEL10", "0812 3456")).toBeUndefined();
    expect(purchaseReadings("ML86_12345678-2901")).toEqual([
      { code: "ML86", destination: "12345678(2901)" },
      { code: "ML86_12345678-2901" },
    ]);
    expect(purchaseReadings("TSEL10")).toEqual([{ code: "TSEL10" }]);
    expect(botLink("kios_bot", "p_TSEL10")).toBe("https://t.me/kios_bot?start=p_TSEL10");
  });

  it("opens the card for a product and destination, and Pay buys it", async () => {
    const u = 7101;
    h.user(u);
    await h.fund(u, 50_000);
    const at = h.say(u, "/start p_TSEL10_081234567901");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).toContain("Produk: Telkomsel 10.000");
    expect(card.text).toContain("Tujuan: 081234567901");
    expect(labels(card)).toContain("✅ Bayar");
    // no welcome before it: the link opens what it names
    expect(h.chat(u).messages.filter((m) => m.sender === "bot")).toHaveLength(1);
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /✅ Berhasil/);
    expect(await walletBalance(h.db, u)).toBeLessThan(50_000);
  });

  it("asks only for the destination when the link names none, and checks it", async () => {
    const u = 7102;
    h.user(u);
    let at = h.say(u, "/start p_TSEL10");
    const asked = await h.waitMessage(u, /Masukkan nomor HP/, at);
    expect(asked.text).toMatch(/^🛒 Telkomsel 10\.000 · Rp[\d.]+\n/);
    // an Indosat number can't take Telkomsel pulsa: the hint and the question again
    at = h.say(u, "0856 1234 5678");
    await h.waitMessage(u, /tidak cocok untuk Telkomsel 10\.000/, at);
    at = h.say(u, "0812 3456 7901");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(card.text).toContain("Tujuan: 081234567901");
  });

  it("carries a game's zone and a bill's customer number", async () => {
    const u = 7103;
    h.user(u);
    let at = h.say(u, "/start p_ML86_12345678-2901");
    const game = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    expect(game.text).toContain("Tujuan: 12345678(2901)");
    at = h.say(u, "/start p_PLNPOST_530012345670");
    const bill = await h.waitMessage(u, /^🧾 Tagihan /, at);
    expect(bill.text).toContain("530012345670");
  });

  it("says a product is not for sale, and reads an unknown link as /start", async () => {
    const u = 7104;
    h.user(u, { first_name: "Rina" });
    let at = h.say(u, "/start p_NOPE_081234567901");
    await h.waitMessage(u, /produk ini sedang tidak tersedia/, at);
    at = h.say(u, "/start p_ISAT1000");
    await h.waitMessage(u, /produk ini sedang tidak tersedia/, at);
    at = h.say(u, "/start zz_whatever");
    await h.waitMessage(u, /Halo Rina/, at);
  });
});
