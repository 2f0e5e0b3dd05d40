import { DEFAULT_BOT } from "@kios/bot-api-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMarkupRule } from "../../../src/commerce/catalogue/markup-rules.ts";
import { productByCode } from "../../../src/commerce/catalogue/queries.ts";
import { setResellerMarkup } from "../../../src/commerce/resellers/markups.ts";
import { moveUser } from "../../../src/commerce/resellers/tree.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// inline mode: "@bot words" in any chat answers with products at the asker's own price; the
// picked one is a message with the product, its price and a link into its purchase

const ANSWER_MS = 8000;

describe("inline mode", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
    await setMarkupRule(h.db, { scope: "all", tier: "customer", percentBp: 300 });
    await setMarkupRule(h.db, { scope: "all", tier: "reseller", percentBp: 100 });
  });
  afterAll(() => h?.stop());

  async function ask(userId: number, query: string, offset?: string) {
    const sent = h.telegram.inlineQuery(userId, query, offset ? { offset } : {});
    const answer = sent.answer ?? (await h.telegram.inlineAnswer(sent.inline_query_id, ANSWER_MS));
    if (!answer) throw new Error(`no answer to "${query}"`);
    return { id: sent.inline_query_id, cached: sent.cached, answer };
  }

  it("answers up to 20 products at the asker's tier price, personal and briefly cached", async () => {
    const u = 7201;
    h.user(u);
    const { answer } = await ask(u, "tsel 10");
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.length).toBeLessThanOrEqual(20);
    expect(answer.is_personal).toBe(true);
    expect(answer.cache_time).toBe(30);
    const tsel10 = answer.results.find((r) => r.id === "TSEL10");
    const customer = (await productByCode(h.db, "TSEL10", { tier: "customer" }))!.price;
    expect(tsel10).toMatchObject({ type: "article", title: "Telkomsel 10.000" });
    expect(tsel10?.description).toContain(`Rp${customer.toLocaleString("id-ID")}`);

    const reseller = 7202;
    h.user(reseller);
    await setTier(h.db, reseller, "reseller");
    const theirs = (await ask(reseller, "tsel 10")).answer.results.find((r) => r.id === "TSEL10");
    const resellerPrice = (await productByCode(h.db, "TSEL10", { tier: "reseller" }))!.price;
    expect(resellerPrice).not.toBe(customer);
    expect(theirs?.description).toContain(`Rp${resellerPrice.toLocaleString("id-ID")}`);
    // the message it sends into a chat others read names the price anyone pays
    expect(theirs?.text).toContain(`Harga: Rp${customer.toLocaleString("id-ID")}`);
  });

  it("a downline's own tree price stays theirs: the message it sends names anyone's price", async () => {
    const upline = 7210;
    const downline = 7211;
    h.user(upline);
    h.user(downline);
    await setTier(h.db, upline, "reseller");
    await setResellerMarkup(h.db, upline, { scope: "all", percentBp: 0, flat: 1000 });
    expect((await moveUser(h.db, { userId: downline, uplineId: upline })).ok).toBe(true);
    const own = (await productByCode(h.db, "TSEL10", { tier: "customer", buyer: downline }))!.price;
    const customer = (await productByCode(h.db, "TSEL10", { tier: "customer" }))!.price;
    expect(own).not.toBe(customer);
    const { answer } = await ask(downline, "tsel 10");
    expect(answer.is_personal).toBe(true);
    const theirs = answer.results.find((r) => r.id === "TSEL10");
    expect(theirs?.description).toContain(`Rp${own.toLocaleString("id-ID")}`);
    expect(theirs?.text).toContain(`Harga: Rp${customer.toLocaleString("id-ID")}`);
    expect(theirs?.text).not.toContain(`Rp${own.toLocaleString("id-ID")}`);
  });

  it("sends the picked product with its price and a link that opens its purchase", async () => {
    const u = 7203;
    h.user(u);
    const { id } = await ask(u, "free fire 140");
    const chosen = h.telegram.chooseInlineResult(u, id, "FF140");
    expect(chosen.message.via_bot?.username).toBe(DEFAULT_BOT.username);
    expect(chosen.message.text).toMatch(/^🛒 Free Fire 140 Diamonds\nHarga: Rp[\d.]+\n/);
    const link = `https://t.me/${DEFAULT_BOT.username}?start=p_FF140`;
    const button = chosen.message.reply_markup?.inline_keyboard[0]?.[0];
    expect(button).toMatchObject({ text: "🛒 Beli", url: link });
    // the link is the one /start reads: the product, asking only for the account
    const opened = h.telegram.openLink(u, link);
    expect(opened.action).toBe("start");
    const question = await h.waitMessage(
      u,
      /🛒 Free Fire 140 Diamonds · Rp[\d.]+\nMasukkan ID akun/,
    );
    // the chat's updates run in order: the result sent before the link got no answer
    const bot = h.chat(u).messages.filter((m) => m.sender === "bot");
    expect(bot.map((m) => m.message_id)).toEqual([question.message_id]);
    // the result itself, sent in the bot's chat, is not taken for an answer to the flow
    const before = h.lastId(u);
    const again = await ask(u, "free fire 140");
    h.telegram.chooseInlineResult(u, again.id, "FF140");
    const at = h.say(u, "12345678");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, before);
    expect(card.message_id).toBeGreaterThan(at);
    expect(card.text).toContain("Tujuan: 12345678");
    // no hint: the flow never saw the result as an account id
    const answered = h.chat(u).messages.filter((m) => m.sender === "bot" && m.message_id > before);
    expect(answered.map((m) => m.message_id)).toEqual([card.message_id]);
  });

  it("lists the asker's recent products for an empty query, and offers the shop when nothing matches", async () => {
    const newcomer = 7206;
    h.user(newcomer);
    const nothingYet = await ask(newcomer, "");
    expect(nothingYet.answer.results).toEqual([]);
    expect(nothingYet.answer.button).toMatchObject({ start_parameter: "inline" });

    const u = 7204;
    h.user(u);
    await h.fund(u, 100_000);
    for (const link of ["p_TSEL10_081234567901", "p_GOPAY50_081234567901"]) {
      const at = h.say(u, `/start ${link}`);
      const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
      h.tap(u, card, /Bayar/);
      await h.waitEdit(u, card.message_id, /✅ Berhasil/);
    }
    const empty = await ask(u, "");
    expect(empty.answer.results.map((r) => r.id)).toEqual(["GOPAY50", "TSEL10"]);
    const none = await ask(u, "zzzz qqqq");
    expect(none.answer.results).toEqual([]);
    expect(none.answer.button?.text).toMatch(/Tidak ada yang cocok/);
  });

  it("pages through many matches", async () => {
    const u = 7205;
    h.user(u);
    const first = await ask(u, "telkomsel data");
    expect(first.answer.results).toHaveLength(20);
    expect(first.answer.next_offset).toBe("20");
    const second = await ask(u, "telkomsel data", "20");
    expect(second.answer.results).toHaveLength(20);
    const ids = new Set([...first.answer.results, ...second.answer.results].map((r) => r.id));
    expect(ids.size).toBe(40);
  });
});
