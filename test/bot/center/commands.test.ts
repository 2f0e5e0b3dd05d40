import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setAlias } from "../../../src/commerce/center/aliases.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { moveUser } from "../../../src/commerce/resellers/tree.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { checkPin, setFirstPin } from "../../../src/commerce/wallet/pin.ts";
import { orders, products } from "../../../src/db/schema.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// the center's text commands through the bot: typed in the chat (local Bot API server,
// polled into the inbox, drained from it, as in production), each answer one message in
// the OtomaX door's form, the PIN's message deleted once read, nothing ordered on bad input

/** the door's own pattern (docs/center.md#the-parsing-pattern) */
const PATTERN =
  /^R#(\S+) ([^.\s]+)\.(\S+) (SUKSES|GAGAL|PROSES)\.(?: SN: (.*?)\.)?(?: Alasan: (.*?)\.)?(?: Harga ([\d.]+)\.)? Saldo (-?[\d.]+)/;

describe("the center's text commands in chat", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  const ordersOf = (u: number) => h.db.select().from(orders).where(eq(orders.userId, u));

  async function reseller(u: number, pin = "1357", balance = 100_000): Promise<void> {
    h.user(u);
    await setTier(h.db, u, "reseller");
    await h.fund(u, balance);
    await setFirstPin(h.db, u, pin);
  }

  /** the user's message is gone from the chat (kios deleted it) */
  async function deleted(u: number, id: number): Promise<void> {
    await vi.waitFor(
      () => expect(h.chat(u).messages.find((m) => m.message_id === id)?.deleted).toBe(true),
      { timeout: 8000 },
    );
  }

  it("TSEL10.081234567890.1234 R#A1: one order, one parseable answer; the R# again answers it", async () => {
    const u = 8801;
    await reseller(u);
    let at = h.say(u, "TSEL10.081234567901.1357 R#A1");
    const answer = await h.waitMessage(u, /^R#A1 /, at);
    const m = PATTERN.exec(answer.text!);
    expect(m?.slice(1, 5)).toEqual(["A1", "TSEL10", "081234567901", "SUKSES"]);
    expect(m?.[5]).toBeTruthy();
    const [order] = await ordersOf(u);
    expect(m?.[7]).toBe(order!.price.toLocaleString("id-ID"));
    expect(m?.[8]).toBe((await walletBalance(h.db, u)).toLocaleString("id-ID"));
    await deleted(u, at);
    // the same R#: the stored order, never a second
    at = h.say(u, "TSEL10.081234567901.1357 R#A1");
    const again = await h.waitMessage(u, /^R#A1 /, at);
    expect(PATTERN.exec(again.text!)?.[4]).toBe("SUKSES");
    expect(await ordersOf(u)).toHaveLength(1);
    // STA.A1 answers it too
    at = h.say(u, "STA.A1.1357");
    expect((await h.waitMessage(u, /^R#A1 /, at)).text).toContain("SUKSES");
    // the answer was final: no second message follows when the outbox runs
    await h.pump();
    expect(h.chat(u).messages.filter((x) => x.text?.startsWith("R#A1 "))).toHaveLength(3);
  });

  it("a PROSES answer, then the final as one message of the same form", async () => {
    const u = 8802;
    await reseller(u);
    const at = h.say(u, "TSEL10.081234567903.1357 R#P1");
    const first = await h.waitMessage(u, /^R#P1 /, at);
    expect(PATTERN.exec(first.text!)?.[4]).toBe("PROSES");
    const [order] = await ordersOf(u);
    await h.sandbox.settleNow();
    await resolveOrder(h.orders, order!.id);
    await h.pump();
    const final = await h.waitMessage(u, /^R#P1 .* SUKSES/, first.message_id);
    const m = PATTERN.exec(final.text!);
    expect(m?.slice(1, 5)).toEqual(["P1", "TSEL10", "081234567903", "SUKSES"]);
    await h.pump();
    expect(h.chat(u).messages.filter((x) => x.text?.startsWith("R#P1 "))).toHaveLength(2);
  });

  it("the repeat count, several at once, and a failure, each its own answer", async () => {
    const u = 8803;
    await reseller(u);
    let at = h.say(u, "TSEL10.081234567901.1357");
    await h.waitMessage(u, /TSEL10\.081234567901 SUKSES/, at);
    // again today without the count: refused, with the way to say it
    at = h.say(u, "TSEL10.081234567901.1357");
    const refused = await h.waitMessage(u, /GAGAL/, at);
    expect(refused.text).toMatch(/^R#- TSEL10\.081234567901 GAGAL\. Alasan: sudah dibeli 1x/);
    expect(refused.text).toContain("TSEL10.2.081234567901.PIN");
    expect(await ordersOf(u)).toHaveLength(1);
    at = h.say(u, "TSEL10.2.081234567901.1357");
    await h.waitMessage(u, /TSEL10\.081234567901 SUKSES/, at);
    // two orders in one text, and one that fails at the supplier
    at = h.say(u, "TSEL10.081234560901 R#M1,TSEL10.081234567941.1357 R#M2");
    const one = await h.waitMessage(u, /^R#M1 /, at);
    const two = await h.waitMessage(u, /^R#M2 /, at);
    expect(PATTERN.exec(one.text!)?.[4]).toBe("SUKSES");
    expect(PATTERN.exec(two.text!)?.slice(4, 7)).toEqual([
      "GAGAL",
      undefined,
      // the sandbox's 941 ending: out of stock, the supplier's reason on the attempt
      "stok produk habis, saldo dikembalikan",
    ]);
    expect(await ordersOf(u)).toHaveLength(4);
    // CEK: today's orders to that number
    at = h.say(u, "CEK.081234567901.1357");
    const check = await h.waitMessage(u, /081234567901 SUKSES/, at);
    expect(check.text!.split("\n")).toHaveLength(2);
    // REKAP: the day
    at = h.say(u, "REKAP.1357");
    expect((await h.waitMessage(u, /^Rekap /, at)).text).toMatch(/3 sukses, 1 gagal, 0 proses/);
  });

  it("balance, price, deposit ticket, PIN change, transfer, aliases and unknown keywords", async () => {
    const u = 8804;
    const down = 8805;
    await reseller(u);
    h.user(down);
    await moveUser(h.db, { userId: down, uplineId: u });
    let at = h.say(u, "S.1357");
    expect((await h.waitMessage(u, /^Saldo /, at)).text).toBe("Saldo 100.000");
    at = h.say(u, "H.TSEL10.1357");
    expect((await h.waitMessage(u, /^H TSEL10/, at)).text).toMatch(/Harga Rp\d/);
    at = h.say(u, "TIKET.50000.1357");
    await h.waitMessage(u, /50\.000/, at);
    at = h.say(u, `TRANS.${down}.20000.1357`);
    await h.waitMessage(u, /terkirim ke ID/, at);
    expect(await walletBalance(h.db, down)).toBe(20_000);
    expect(await walletBalance(h.db, u)).toBe(80_000);
    // today's limits hold: above the per-transfer maximum nothing moves
    at = h.say(u, `TRANS.${down}.999999999.1357`);
    await h.waitMessage(u, /❌|tidak valid/, at);
    expect(await walletBalance(h.db, down)).toBe(20_000);
    at = h.say(u, "GP.1357.2468");
    await h.waitMessage(u, /PIN diganti/, at);
    expect(await checkPin(h.db, u, "2468", h.clock.now())).toEqual({ ok: true });
    await setAlias(h.db, "SAL", "SALDO");
    at = h.say(u, "SALDO.2468");
    expect((await h.waitMessage(u, /^Saldo /, at)).text).toBe("Saldo 80.000");
    at = h.say(u, "SALX.2468");
    const unknown = await h.waitMessage(u, /tidak dikenal/, at);
    expect(unknown.text).toContain("S, SAL, H, CEK, STA, REKAP, TIKET, GP, TRANS, SALDO=SAL");
    await deleted(u, at);
  });

  it("bad input: a clear message, and nothing is ordered", async () => {
    const u = 8806;
    await reseller(u);
    const cases: [string, RegExp][] = [
      ["TSEL10.081234567901.1234,XL5.081234567902.1234", /PIN cukup sekali/],
      ["TSEL10.081234567901 R#Z,TSEL10.081234567902.1357 R#Z", /dipakai dua kali/],
      ["REKAP.31-02-2026.1357", /Format salah/],
      ["NOPE99.081234567901.1357", /kode produk tidak ada/],
      ["TSEL10.081.1357", /^R#- TSEL10\.081 GAGAL\. Alasan: format salah/],
      ["S.12", /PIN adalah 4–6 angka/],
    ];
    for (const [text, re] of cases) {
      const at = h.say(u, text);
      await h.waitMessage(u, re, at);
    }
    expect(await ordersOf(u)).toHaveLength(0);
    expect(await walletBalance(h.db, u)).toBe(100_000);
  });

  it("an order text not run (its PIN, its form) answers each order GAGAL in the pattern, R# echoed", async () => {
    const u = 8811;
    await reseller(u);
    /** the answer to `text`, each of its lines read with the pattern */
    async function answer(text: string, first: RegExp): Promise<RegExpExecArray[]> {
      const at = h.say(u, text);
      const got = await h.waitMessage(u, first, at);
      expect(got.text).not.toContain("1357");
      expect(got.text).not.toContain("0000");
      return got.text!.split("\n").map((line) => {
        const m = PATTERN.exec(line);
        expect(m, line).not.toBeNull();
        return m!;
      });
    }
    const [wrong] = await answer("TSEL10.081234567901.0000 R#E1", /^R#E1 /);
    expect(wrong!.slice(1, 7)).toEqual([
      "E1",
      "TSEL10",
      "081234567901",
      "GAGAL",
      undefined,
      "PIN salah (sisa 4)",
    ]);
    expect(wrong![8]).toBe("100.000");
    const [format] = await answer("TSEL10.081.1357 R#E2", /^R#E2 /);
    expect(format!.slice(1, 7)).toEqual([
      "E2",
      "TSEL10",
      "081",
      "GAGAL",
      undefined,
      "format salah, pakai KODE.TUJUAN.PIN",
    ]);
    // several orders: one line each, with its own R#, and never the PIN typed twice
    const twice = await answer(
      "TSEL10.081234567901.1357 R#E3,XL5.2.081234567902.1357 R#E4",
      /^R#E3 /,
    );
    expect(twice.map((m) => m.slice(1, 5))).toEqual([
      ["E3", "TSEL10", "081234567901", "GAGAL"],
      ["E4", "XL5", "081234567902", "GAGAL"],
    ]);
    expect(twice[0]![6]).toBe("PIN cukup sekali, di akhir pesan");
    const repeated = await answer("TSEL10.081234567901 R#Z,TSEL10.081234567902.1357 R#Z", /^R#Z /);
    expect(repeated.map((m) => m[6])).toEqual([
      "R#Z dipakai dua kali dalam satu pesan",
      "R#Z dipakai dua kali dalam satu pesan",
    ]);
    for (const left of [3, 2, 1]) {
      const [m] = await answer(`TSEL10.081234567901.0000 R#W${left}`, new RegExp(`^R#W${left} `));
      expect(m![6]).toBe(`PIN salah (sisa ${left})`);
    }
    const [locking] = await answer("TSEL10.081234567901.0000 R#L1", /^R#L1 /);
    expect(locking![6]).toMatch(/^PIN salah 5 kali, terkunci sampai \d\d:\d\d WIB$/);
    const [locked] = await answer("TSEL10.081234567901.1357 R#L2", /^R#L2 /);
    expect(locked![6]).toMatch(/^PIN terkunci sampai \d\d:\d\d WIB$/);
    // no PIN set: the same form
    const v = 8812;
    h.user(v);
    await setTier(h.db, v, "reseller");
    await h.fund(v, 5_000);
    const at = h.say(v, "TSEL10.081234567901.1357 R#N1");
    const none = await h.waitMessage(v, /^R#N1 /, at);
    expect(PATTERN.exec(none.text!)?.slice(1, 7)).toEqual([
      "N1",
      "TSEL10",
      "081234567901",
      "GAGAL",
      undefined,
      "PIN belum dibuat, buat dengan /pin",
    ]);
    expect([...(await ordersOf(u)), ...(await ordersOf(v))]).toHaveLength(0);
  });

  it("five wrong PINs lock the text commands for 15 minutes, the right one included", async () => {
    const u = 8807;
    await reseller(u);
    for (let i = 0; i < 4; i++) {
      const at = h.say(u, "TSEL10.081234567901.0000");
      await h.waitMessage(u, /PIN salah/, at);
    }
    let at = h.say(u, "S.0000");
    await h.waitMessage(u, /PIN salah 5 kali/, at);
    at = h.say(u, "TSEL10.081234567901.1357");
    await h.waitMessage(u, /PIN terkunci sampai \d\d:\d\d WIB/, at);
    expect(await ordersOf(u)).toHaveLength(0);
    h.clock.advance(15 * 60_000 + 1);
    at = h.say(u, "TSEL10.081234567901.1357");
    await h.waitMessage(u, /SUKSES/, at);
  });

  it("without a PIN, or for a customer, nothing runs and the PIN's message still goes", async () => {
    const u = 8808;
    h.user(u);
    await setTier(h.db, u, "reseller");
    await h.fund(u, 50_000);
    let at = h.say(u, "TSEL10.081234567901.1357");
    await h.waitMessage(u, /^R#- TSEL10\.081234567901 GAGAL\. Alasan: PIN belum dibuat/, at);
    await deleted(u, at);
    const c = 8809;
    h.user(c);
    await h.fund(c, 50_000);
    at = h.say(c, "TSEL10.081234567901.1357");
    await h.waitMessage(c, /hanya untuk reseller/, at);
    await deleted(c, at);
    expect([...(await ordersOf(u)), ...(await ordersOf(c))]).toHaveLength(0);
  });

  it("a number typed with dots is the open flow's answer, never a command: kept, not deleted", async () => {
    const u = 8810;
    await reseller(u);
    let at = h.say(u, "/start");
    let menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Pulsa & Data/);
    await h.waitMessage(u, /nomor HP/, menu.message_id);
    at = h.say(u, "0812.3456.7890");
    const which = await h.waitMessage(u, /pulsa atau paket data|PIN|GAGAL/, at);
    expect(which.text).toMatch(/pulsa atau paket data/);
    h.tap(u, which, /^Pulsa$/);
    await h.waitMessage(u, /^Pulsa Telkomsel untuk 081234567890:$/, which.message_id);
    expect(h.chat(u).messages.find((m) => m.message_id === at)?.deleted).toBeFalsy();
    // a meter with dots, in the PLN token flow
    at = h.say(u, "/start");
    menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Token PLN/);
    await h.waitMessage(u, /nomor meter/, menu.message_id);
    at = h.say(u, "5321.0000.0012");
    const list = await h.waitMessage(u, /meter 532100000012|PIN|GAGAL|digit/, at);
    expect(list.text).toMatch(/Pilih nominal token untuk meter 532100000012/);
    expect(h.chat(u).messages.find((m) => m.message_id === at)?.deleted).toBeFalsy();
    expect(await ordersOf(u)).toHaveLength(0);
  });

  it("an all-digit code the shop sells is a command, unless a flow waits for an answer", async () => {
    const u = 8813;
    await reseller(u);
    const [tsel] = await h.db.select().from(products).where(eq(products.code, "TSEL10"));
    const { searchText: _generated, ...row } = tsel!;
    await h.db.insert(products).values({ ...row, code: "55510", name: "Kode angka 10.000" });
    let at = h.say(u, "55510.081234567901.1357 R#D1");
    const answer = await h.waitMessage(u, /^R#D1 /, at);
    expect(PATTERN.exec(answer.text!)?.slice(1, 4)).toEqual(["D1", "55510", "081234567901"]);
    await deleted(u, at);
    // the Pulsa flow waits for a number: the same text is its answer, and stays
    at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Pulsa & Data/);
    await h.waitMessage(u, /nomor HP/, menu.message_id);
    at = h.say(u, "55510.081234567901.1357 R#D2");
    const reply = await h.waitMessage(u, /./, at);
    expect(reply.text).not.toMatch(/^R#D2 /);
    expect(h.chat(u).messages.find((m) => m.message_id === at)?.deleted).toBeFalsy();
  });
});
