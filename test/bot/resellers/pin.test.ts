import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { checkPin } from "../../../src/commerce/wallet/pin.ts";
import { PIN_PAD_TTL_MS } from "../../../src/commerce/wallet/pin-pads.ts";
import { orders, telegramUpdates } from "../../../src/db/schema.ts";
import { type BotHarness, callbackData, labels, startBotHarness } from "../../helpers/bot.ts";
import { asWord, findInDatabase, searchableColumns } from "../../helpers/secrets.ts";

// the PIN in chat: set on a keypad (typed twice) whose keys carry no digit, asked by Pay on
// the card that opened it, locked after five wrong tries with a notice; a change asks the
// current PIN on a keypad that lapses; nothing at rest (database, stored updates, logs,
// button data) spells a PIN

describe("the wallet PIN in chat", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  type View = Awaited<ReturnType<BotHarness["waitMessage"]>>;

  /** the message as the chat shows it now, once it carries a button labelled so */
  async function showing(u: number, id: number, label: RegExp): Promise<View> {
    for (let i = 0; i < 400; i++) {
      const m = h.chat(u).messages.find((x) => x.message_id === id);
      if (m && labels(m).some((l) => label.test(l))) return m;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`message ${id} never showed ${label}`);
  }

  const dots = (n: number) => new RegExp(`^🔒 PIN ${"●".repeat(n)}(?!●)`);

  /** presses digits on the keypad the card carries, each after the last one landed */
  async function press(u: number, card: View, digits: string): Promise<View> {
    for (const [i, d] of [...digits].entries()) {
      const shown = await showing(u, card.message_id, dots(i));
      h.tap(u, shown, new RegExp(`^${d}$`));
    }
    return showing(u, card.message_id, dots(digits.length));
  }

  /** /pin: the new PIN typed twice */
  async function makePin(u: number, pin: string): Promise<void> {
    const at = h.say(u, "/pin");
    const pad = await h.waitMessage(u, /Buat PIN baru/, at);
    h.tap(u, await press(u, pad, pin), /^✅$/);
    await h.waitEdit(u, pad.message_id, /Ketik PIN baru sekali lagi/);
    h.tap(u, await press(u, pad, pin), /^✅$/);
    await h.waitEdit(u, pad.message_id, /PIN aktif/);
  }

  /** /pin → Ganti PIN → the current PIN: answers the keypad, now asking for the new one */
  async function changeFrom(u: number, current: string): Promise<View> {
    const status = await h.waitMessage(u, /PIN aktif/, h.say(u, "/pin"));
    h.tap(u, status, /Ganti PIN/);
    await h.waitEdit(u, status.message_id, /Masukkan PIN kamu sekarang/);
    h.tap(u, await press(u, status, current), /^✅$/);
    await h.waitEdit(u, status.message_id, /Buat PIN baru/);
    return status;
  }

  async function card(u: number, code: string, number: string): Promise<View> {
    const at = h.say(u, `/start p_${code}_${number}`);
    return h.waitMessage(u, /Konfirmasi pembelian/, at);
  }

  it("cancelling /pin leaves one message saying what happened, with nothing dangling", async () => {
    const u = 8310;
    h.user(u);
    const pad = await h.waitMessage(u, /Buat PIN baru/, h.say(u, "/pin"));
    h.tap(u, await press(u, pad, "12"), /Batal/);
    const cancelled = await h.waitEdit(u, pad.message_id, /^Dibatalkan\./);
    expect(cancelled.text).toBe("Dibatalkan. PIN belum dibuat: kirim /pin untuk membuatnya.");
    expect(labels(cancelled)).toEqual([]);
    await makePin(u, "1357");
    // a change left, and a removal left: the PIN is as it was
    for (const button of [/Ganti PIN/, /Hapus PIN/]) {
      const status = await h.waitMessage(u, /PIN aktif/, h.say(u, "/pin"));
      h.tap(u, status, button);
      h.tap(u, await showing(u, status.message_id, /Batal/), /Batal/);
      const left = await h.waitEdit(u, status.message_id, /PIN tidak diubah/);
      expect(left.text).toBe("Dibatalkan. PIN tidak diubah: Bayar dan transfer tetap memintanya.");
      expect(labels(left)).toEqual([]);
    }
    expect((await checkPin(h.db, u, "1357", h.clock.now())).ok).toBe(true);
  });

  it("sets a PIN on the keypad, and Pay asks for it", async () => {
    const u = 8301;
    h.user(u);
    await h.fund(u, 50_000);
    let at = h.say(u, "/pin");
    const pad = await h.waitMessage(u, /Buat PIN baru/, at);
    expect(labels(pad)).toEqual(expect.arrayContaining(["1", "0", "⌫", "✅"]));
    // typed twice: a different second PIN starts the new PIN again
    h.tap(u, await press(u, pad, "2468"), /^✅$/);
    await h.waitEdit(u, pad.message_id, /Ketik PIN baru sekali lagi/);
    h.tap(u, await press(u, pad, "2469"), /^✅$/);
    await h.waitToast(u, /Kedua PIN berbeda/);
    await h.waitEdit(u, pad.message_id, /Buat PIN baru/);
    expect(await checkPin(h.db, u, "2468", h.clock.now())).toEqual({ ok: false, reason: "no_pin" });
    h.tap(u, await press(u, pad, "2468"), /^✅$/);
    await h.waitEdit(u, pad.message_id, /Ketik PIN baru sekali lagi/);
    h.tap(u, await press(u, pad, "2468"), /^✅$/);
    await h.waitEdit(u, pad.message_id, /PIN aktif/);
    // no digit ever reached the chat
    // (ids and dates left out: a random callback_query_id may hold any four digits)
    const shown = JSON.stringify(h.chat(u).messages, (k, v) =>
      k === "date" || k.endsWith("_id") ? undefined : v,
    );
    expect(shown).not.toMatch(/2468/);

    at = h.say(u, "/start p_TSEL10_081234567901");
    const c = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, c, /Bayar/);
    await h.waitToast(u, /Masukkan PIN/);
    // a wrong PIN: told how many tries are left, nothing bought
    h.tap(u, await press(u, c, "1111"), /^✅$/);
    await h.waitToast(u, /PIN salah\. Sisa 4 kali/);
    expect(await walletBalance(h.db, u)).toBe(50_000);
    h.tap(u, await press(u, c, "2468"), /^✅$/);
    await h.waitEdit(u, c.message_id, /✅ Berhasil/);
    expect(await walletBalance(h.db, u)).toBeLessThan(50_000);
  });

  it("locks Pay for 15 minutes after five wrong PINs, with a notice", async () => {
    const u = 8302;
    h.user(u);
    await h.fund(u, 50_000);
    await makePin(u, "1357");
    const at = h.say(u, "/start p_TSEL10_081234567901");
    const c = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, c, /Bayar/);
    for (let i = 0; i < 5; i++) {
      h.tap(u, await press(u, c, "0000"), /^✅$/);
      if (i < 4) await h.waitToast(u, new RegExp(`Sisa ${4 - i} kali`));
    }
    await h.waitMessage(u, /PIN salah 5 kali\. Bayar dan transfer terkunci sampai/, at);
    h.tap(u, await showing(u, c.message_id, /Coba lagi/), /Coba lagi/);
    await h.waitToast(u, /Terkunci/);
    expect(await walletBalance(h.db, u)).toBe(50_000);
  });

  it("a keypad pays its own card: Pay on two cards, the PIN on the first pays the first", async () => {
    const u = 8303;
    h.user(u);
    await h.fund(u, 200_000);
    await makePin(u, "8642");
    const first = await card(u, "TSEL10", "081234567901");
    const second = await card(u, "TSEL50", "081234567901");
    h.tap(u, first, /Bayar/);
    await showing(u, first.message_id, dots(0));
    h.tap(u, second, /Bayar/);
    await showing(u, second.message_id, dots(0));
    h.tap(u, await press(u, first, "8642"), /^✅$/);
    const paid = await h.waitEdit(u, first.message_id, /✅ Berhasil/);
    expect(paid.text).toMatch(/10\.000/);
    const made = await h.db.select().from(orders).where(eq(orders.userId, u));
    expect(made.map((o) => o.productCode)).toEqual(["TSEL10"]);
    // the second card still waits for its own PIN
    const still = h.chat(u).messages.find((m) => m.message_id === second.message_id)!;
    expect(labels(still)).toContain("✅");
    expect(still.text).toMatch(/Konfirmasi pembelian/);
  });

  it("a change asks the current PIN, on a keypad that lapses, and types the new one twice", async () => {
    const u = 8304;
    h.user(u);
    await makePin(u, "1593");
    const status = await changeFrom(u, "1593");
    // left open past its time: the keypad no longer sets anything
    h.clock.advance(PIN_PAD_TTL_MS + 1);
    h.tap(u, await showing(u, status.message_id, dots(0)), /^7$/);
    await h.waitToast(u, /kedaluwarsa/);
    // its way back asks for the current PIN again
    await showing(u, status.message_id, /Coba lagi/);
    expect(await checkPin(h.db, u, "7777", h.clock.now())).toMatchObject({ reason: "wrong" });
    expect(await checkPin(h.db, u, "1593", h.clock.now())).toEqual({ ok: true });
    // a change on time: current, new, new again
    const again = await changeFrom(u, "1593");
    h.tap(u, await press(u, again, "7777"), /^✅$/);
    await h.waitEdit(u, again.message_id, /Ketik PIN baru sekali lagi/);
    h.tap(u, await press(u, again, "7777"), /^✅$/);
    await h.waitEdit(u, again.message_id, /PIN aktif\. Bayar/);
    expect(await checkPin(h.db, u, "7777", h.clock.now())).toEqual({ ok: true });
  });

  it("a change whose current PIN was changed meanwhile writes nothing", async () => {
    const u = 8305;
    h.user(u);
    await makePin(u, "2580");
    const status = await changeFrom(u, "2580");
    // meanwhile, on another keypad, the PIN is changed to 3690
    const other = await changeFrom(u, "2580");
    for (const [pin, next] of [
      ["3690", /sekali lagi/],
      ["3690", /PIN aktif\. Bayar/],
    ] as const) {
      h.tap(u, await press(u, other, pin), /^✅$/);
      await h.waitEdit(u, other.message_id, next);
    }
    // the first keypad's old PIN is checked when the new one is written: refused
    h.tap(u, await press(u, status, "1111"), /^✅$/);
    await h.waitEdit(u, status.message_id, /sekali lagi/);
    h.tap(u, await press(u, status, "1111"), /^✅$/);
    await h.waitToast(u, /PIN salah/);
    expect(await checkPin(h.db, u, "3690", h.clock.now())).toEqual({ ok: true });
  });

  it("no PIN rests in clear: not in any column, the stored updates, the logs or a button", async () => {
    const u = 8306;
    const pin = "739184";
    h.user(u);
    await h.fund(u, 50_000);
    await makePin(u, pin);
    const c = await card(u, "TSEL10", "081234567901");
    h.tap(u, c, /Bayar/);
    h.tap(u, await press(u, c, pin), /^✅$/);
    await h.waitEdit(u, c.message_id, /✅ Berhasil/);
    // a keypad left open with most of the PIN typed
    const open = await card(u, "TSEL10", "081234567901");
    h.tap(u, open, /Bayar/);
    const left = await press(u, open, pin.slice(0, 5));

    // no key's data holds a digit
    const keys = h
      .chat(u)
      .messages.flatMap((m) => callbackData(m))
      .filter((d) => d.startsWith("pk:"));
    expect(keys.length).toBeGreaterThan(0);
    for (const d of keys) expect(d.split(":").at(-1)).toMatch(/^([a-j]|bk|ok|x|n)$/);
    expect(callbackData(left).filter((d) => d.startsWith("pk:"))).toHaveLength(14);

    // every text, json and bytea column of every table
    const columns = await searchableColumns(h.db);
    expect(columns.map((c) => `${c.t}.${c.c}`)).toEqual(
      expect.arrayContaining(["telegram_updates.payload", "pin_pads.entry", "users.pin_hash"]),
    );
    // as words of their own: the digits turn up by chance inside the run's long ids. The
    // search finds what does rest there as a word: the number the orders went to
    expect(await findInDatabase(h.db, "081234567901", { word: true })).not.toEqual([]);
    expect(await findInDatabase(h.db, pin, { word: true })).toEqual([]);
    expect(await findInDatabase(h.db, pin.slice(0, 5), { word: true })).toEqual([]);

    // the stored presses, in order: neither their data nor the labels of the keys pressed
    // spell the PIN
    const stored = await h.db
      .select({ payload: telegramUpdates.payload })
      .from(telegramUpdates)
      .where(eq(telegramUpdates.userId, u))
      .orderBy(telegramUpdates.updateId);
    let byData = "";
    let byLabel = "";
    for (const { payload } of stored) {
      const q = (payload as { callback_query?: { data?: string; message?: View } }).callback_query;
      if (!q?.data?.startsWith("pk:")) continue;
      byData += q.data.split(":").at(-1);
      const button = q.message?.reply_markup?.inline_keyboard
        .flat()
        .find((b) => "callback_data" in b && b.callback_data === q.data);
      byLabel += button?.text ?? "";
    }
    expect(byData.length).toBeGreaterThan(pin.length);
    expect(byData).not.toContain(pin.slice(0, 4));
    expect(byLabel).not.toContain(pin.slice(0, 4));

    // and the logs
    expect(h.logs()).not.toMatch(asWord(pin.slice(0, 5)));
    expect(h.logs()).not.toMatch(asWord(pin));
    expect(h.logs()).not.toMatch(
      new RegExp([...pin.slice(0, 4)].map((d) => `pk:${d}`).join("[^]*")),
    );
  });
});
