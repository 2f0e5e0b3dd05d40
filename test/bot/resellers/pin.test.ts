import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { type BotHarness, labels, startBotHarness } from "../../helpers/bot.ts";

// the PIN in chat: set on a keypad that never shows a digit, asked by Pay, locked after
// five wrong tries with a notice

describe("the wallet PIN in chat", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  type View = Awaited<ReturnType<BotHarness["waitMessage"]>>;

  /** the message as the chat shows it now, once it carries a button labelled so */
  async function showing(u: number, id: number, label: RegExp): Promise<View> {
    for (let i = 0; i < 200; i++) {
      const m = h.chat(u).messages.find((x) => x.message_id === id);
      if (m && labels(m).some((l) => label.test(l))) return m;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`message ${id} never showed ${label}`);
  }

  /** presses digits on the keypad the card carries, each after the last one landed */
  async function press(u: number, card: View, digits: string): Promise<View> {
    for (const [i, d] of [...digits].entries()) {
      const shown = await showing(u, card.message_id, new RegExp(`^🔒 PIN ${"●".repeat(i)}○`));
      h.tap(u, shown, new RegExp(`^${d}$`));
    }
    return showing(u, card.message_id, new RegExp(`^🔒 PIN ${"●".repeat(digits.length)}`));
  }

  it("sets a PIN on the keypad, and Pay asks for it", async () => {
    const u = 8301;
    h.user(u);
    await h.fund(u, 50_000);
    let at = h.say(u, "/pin");
    const pad = await h.waitMessage(u, /Buat PIN baru/, at);
    expect(labels(pad)).toEqual(expect.arrayContaining(["1", "0", "⌫", "✅"]));
    h.tap(u, await press(u, pad, "2468"), /^✅$/);
    await h.waitEdit(u, pad.message_id, /PIN aktif/);
    // no digit ever reached the chat
    expect(JSON.stringify(h.chat(u).messages)).not.toMatch(/2468/);

    at = h.say(u, "/start p_TSEL10_081234567901");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, card, /Bayar/);
    await h.waitToast(u, /Masukkan PIN/);
    // a wrong PIN: told how many tries are left, nothing bought
    h.tap(u, await press(u, card, "1111"), /^✅$/);
    await h.waitToast(u, /PIN salah\. Sisa 4 kali/);
    expect(await walletBalance(h.db, u)).toBe(50_000);
    h.tap(u, await press(u, card, "2468"), /^✅$/);
    await h.waitEdit(u, card.message_id, /✅ Berhasil/);
    expect(await walletBalance(h.db, u)).toBeLessThan(50_000);
  });

  it("locks Pay for 15 minutes after five wrong PINs, with a notice", async () => {
    const u = 8302;
    h.user(u);
    await h.fund(u, 50_000);
    let at = h.say(u, "/pin");
    const pad = await h.waitMessage(u, /Buat PIN baru/, at);
    h.tap(u, await press(u, pad, "1357"), /^✅$/);
    await h.waitEdit(u, pad.message_id, /PIN aktif/);
    at = h.say(u, "/start p_TSEL10_081234567901");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, card, /Bayar/);
    for (let i = 0; i < 5; i++) {
      h.tap(u, await press(u, card, "0000"), /^✅$/);
      if (i < 4) await h.waitToast(u, new RegExp(`Sisa ${4 - i} kali`));
    }
    await h.waitMessage(u, /PIN salah 5 kali\. Bayar dan transfer terkunci sampai/, at);
    h.tap(u, await showing(u, card.message_id, /Coba lagi/), /Coba lagi/);
    await h.waitToast(u, /Terkunci/);
    expect(await walletBalance(h.db, u)).toBe(50_000);
  });
});
