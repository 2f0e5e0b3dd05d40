import type { MessageView } from "@kios/bot-api-server";
import { eq } from "drizzle-orm";
import type { Transformer } from "grammy";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { orders, quotes } from "../../../src/db/schema.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// what the chat shows about a purchase is true: a card moves forward only, Cancel means
// cancel, and no edit is sent that Telegram would refuse as "not modified".

describe("the purchase card", () => {
  let h: BotHarness;
  const refused: string[] = [];
  /** while set, the answer to a tap and the edits of a card wait until it resolves */
  let telegramSlow: Promise<void> | undefined;
  beforeAll(async () => {
    h = await startBotHarness();
    // every Bot API call the bot makes is seen here, and every 400 it gets back is kept
    const watch: Transformer = async (prev, method, payload, signal) => {
      if (telegramSlow && (method === "answerCallbackQuery" || method === "editMessageText")) {
        await telegramSlow;
      }
      const res = await prev(method, payload, signal);
      if (!res.ok) refused.push(`${method}: ${res.description}`);
      return res;
    };
    h.bot.api.config.use(watch);
  });
  afterAll(() => h.stop());

  async function toCard(u: number, phone: string) {
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo|Hi /, at);
    h.tap(u, menu, /Pulsa & Data/);
    await h.waitMessage(u, /nomor HP/, menu.message_id);
    const typed = h.say(u, phone);
    const which = await h.waitMessage(u, /pulsa atau paket data/, typed);
    h.tap(u, which, /^Pulsa$/);
    const list = await h.waitMessage(u, /untuk/, which.message_id);
    await h.tapItem(u, list, /^Telkomsel 10\.000 ·/);
    return h.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
  }

  /**
   * an update for a button of the card as it was shown, arriving now: a tap sent before
   * the card changed, or one Telegram delivers again
   */
  async function redeliver(u: number, card: MessageView, label: RegExp) {
    const button = (card.reply_markup?.inline_keyboard ?? [])
      .flat()
      .find((b) => label.test(b.text));
    if (!button || !("callback_data" in button)) throw new Error(`no button ${label}`);
    await h.bot.handleUpdate({
      update_id: 900_000 + u,
      callback_query: {
        id: `redelivered-${u}`,
        from: { id: u, is_bot: false, first_name: `User${u}` },
        chat_instance: String(u),
        message: { ...card, chat: { id: u, type: "private", first_name: `User${u}` } } as never,
        data: button.callback_data,
      },
    });
  }

  /** the card's texts, oldest first, by their first line */
  const heads = (m: MessageView) => [
    ...m.history.map((r) => r.text?.split("\n")[0] ?? ""),
    m.text?.split("\n")[0] ?? "",
  ];
  const ordersOf = async (u: number) =>
    (await listUserOrders(h.db, u, { limit: 10, offset: 0 })).items;

  it("Cancel then Pay on the same card (a quick double tap) buys nothing", async () => {
    const u = 7001;
    h.user(u);
    await h.fund(u, 100_000);
    const card = await toCard(u, "081234567901");
    // both taps on the card as it was shown: Pay arrives after Cancel
    h.tap(u, card, /Batal/);
    await h.waitToast(u, /Dibatalkan/);
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /dibatalkan/);
    await new Promise((r) => setTimeout(r, 300));
    expect(await ordersOf(u)).toHaveLength(0);
    const [quote] = await h.db.select().from(quotes).where(eq(quotes.userId, u));
    expect(quote?.cancelledAt).not.toBeNull();
    expect(h.chat(u).messages.find((m) => m.message_id === card.message_id)?.text).toMatch(
      /dibatalkan/,
    );
  });

  it("Pay then Cancel: too late to cancel, the purchase goes on and its result shows", async () => {
    const u = 7002;
    h.user(u);
    await h.fund(u, 100_000);
    const card = await toCard(u, "081234567901");
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    // the Cancel tap sent before the card changed (it arrives after the payment)
    await redeliver(u, card, /Batal/);
    const [order] = await ordersOf(u);
    expect(order?.status).toBe("success");
    const shown = h.chat(u).messages.find((m) => m.message_id === card.message_id)!;
    expect(shown.text).toMatch(/^✅ Berhasil/);
  });

  it("a double tap of Pay never takes a shown result back to ⏳, and asks for no refused edit", async () => {
    const u = 7003;
    h.user(u);
    await h.fund(u, 100_000);
    const before = refused.length;
    const card = await toCard(u, "081234567901");
    h.tap(u, card, /Bayar/);
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    await new Promise((r) => setTimeout(r, 500));
    await h.pump();
    const shown = h.chat(u).messages.find((m) => m.message_id === card.message_id)!;
    const seen = heads(shown);
    expect(seen.at(-1)).toBe("✅ Berhasil");
    expect(seen.slice(seen.indexOf("✅ Berhasil"))).toEqual(["✅ Berhasil"]);
    expect(await ordersOf(u)).toHaveLength(1);
    expect(refused.slice(before).filter((r) => /not modified/.test(r))).toEqual([]);
  });

  it("Pay reaches the supplier without waiting for Telegram to take the tap's answer or the ⏳", async () => {
    const u = 7005;
    h.user(u);
    await h.fund(u, 100_000);
    const card = await toCard(u, "081234567905");
    let release!: () => void;
    telegramSlow = new Promise((r) => {
      release = r;
    });
    try {
      h.tap(u, card, /Bayar/);
      // the order is at the supplier while both calls to Telegram are still held
      await vi.waitFor(
        async () => {
          const [o] = await ordersOf(u);
          expect(o).toBeDefined();
          expect(h.sandbox.transactions().some((t) => t.refId === o!.refId)).toBe(true);
        },
        { timeout: 10_000 },
      );
      const shown = h.chat(u).messages.find((m) => m.message_id === card.message_id)!;
      expect(shown.text).toMatch(/Konfirmasi pembelian/);
    } finally {
      telegramSlow = undefined;
      release();
    }
    await h.waitEdit(u, card.message_id, /Berhasil|Diproses|⏳/);
  });

  it("a redelivered Pay after the notifier showed the result leaves the result in place", async () => {
    const u = 7004;
    h.user(u);
    await h.fund(u, 100_000);
    const card = await toCard(u, "081234567903");
    h.tap(u, card, /Bayar/);
    const order = await vi.waitFor(async () => {
      const [o] = await ordersOf(u);
      expect(o?.status).toBe("pending");
      return o!;
    });
    await h.sandbox.settleNow();
    await resolveOrder(h.orders, order.id);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    // the same tap again (Telegram redelivers an update it thinks was lost)
    await redeliver(u, card, /Bayar/);
    await new Promise((r) => setTimeout(r, 500));
    await h.pump();
    const shown = h.chat(u).messages.find((m) => m.message_id === card.message_id)!;
    const seen = heads(shown);
    expect(seen.slice(seen.indexOf("✅ Berhasil"))).toEqual(["✅ Berhasil"]);
    const again = await h.db.select().from(orders).where(eq(orders.userId, u));
    // replayed, the tap made no second order
    expect(again).toHaveLength(1);
    expect(again[0]?.status).toBe("success");
  });
});
