import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createNotificationSender } from "../../../src/bot/notifications/sender.ts";
import { notificationRenderers } from "../../../src/bot/renderers.ts";
import { createI18n } from "../../../src/bot/ui/i18n.ts";
import type { Notification } from "../../../src/commerce/notifications/outbox.ts";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { findUser, setTier } from "../../../src/commerce/users.ts";
import { chatCards, users } from "../../../src/db/schema.ts";
import {
  ADMIN_ID,
  type BotHarness,
  copyTexts,
  labels,
  startBotHarness,
} from "../../helpers/bot.ts";

// the notification sender on its own: edits in place, falls back to a new message,
// treats "not modified" as done and a blocked user as gone, repeats only what is safe.

describe("send", () => {
  let h: BotHarness;
  let send: ReturnType<typeof createNotificationSender>;
  let seq = 0;
  beforeAll(async () => {
    h = await startBotHarness();
    send = createNotificationSender({
      api: h.bot.api,
      db: h.db,
      i18n: createI18n(),
      adminIds: [ADMIN_ID],
      renderers: notificationRenderers(),
    });
  });
  afterAll(() => h?.stop());

  const note = (
    chatId: number,
    payload: Notification["payload"],
    more: Partial<Notification> = {},
  ) => ({
    id: ++seq,
    key: `test:${seq}`,
    chatId,
    messageId: null,
    payload,
    attempts: 1,
    recovered: false,
    ...more,
  });

  /** a reseller's successful order, bought through the bot */
  async function boughtOrder(
    u: number,
    destination = "081234567901",
  ): Promise<{ order: Order; card: number }> {
    h.user(u);
    await h.fund(u, 100_000);
    await setTier(h.db, u, "reseller");
    const at = h.say(u, `TSEL10.${destination}`);
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, at);
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    const order = (await listUserOrders(h.db, u, { limit: 1, offset: 0 })).items[0]!;
    return { order, card: card.message_id };
  }

  it("edits the order's message; the same result again is 'not modified' and still sent", async () => {
    const { order, card } = await boughtOrder(9001);
    const before = h.chat(9001).messages.length;
    expect(await send(note(9001, { type: "order_final", orderId: order.id, late: false }))).toBe(
      "sent",
    );
    expect(h.chat(9001).messages).toHaveLength(before);
    expect(h.chat(9001).messages.find((m) => m.message_id === card)!.text).toMatch(/^✅ Berhasil/);
  });

  it("a late result also pushes a short message, except when recovered after a crash", async () => {
    const { order, card } = await boughtOrder(9002);
    // the buyer moved on: the card is no longer the chat's latest message
    await h.waitMessage(9002, /Saldo/, h.say(9002, "/saldo"));
    await send(note(9002, { type: "order_final", orderId: order.id, late: true }));
    const push = await h.waitMessage(9002, /Pesanan berhasil/, card);
    expect(push.text).toContain(`SN: ${order.sn}`);
    // the push the buyer sees first copies the SN too
    expect(copyTexts(push)).toEqual({ "📋 Salin SN": order.sn });
    const count = h.chat(9002).messages.length;
    await send(
      note(9002, { type: "order_final", orderId: order.id, late: true }, { recovered: true }),
    );
    expect(h.chat(9002).messages).toHaveLength(count);
  });

  it("sends a new message when the order's message is gone", async () => {
    const { order, card } = await boughtOrder(9003);
    await h.bot.api.deleteMessage(9003, card);
    // as if the card had not shown the result yet when it was deleted
    await h.db.delete(chatCards).where(eq(chatCards.messageId, card));
    expect(await send(note(9003, { type: "order_final", orderId: order.id, late: false }))).toBe(
      "sent",
    );
    const fresh = await h.waitMessage(9003, /^✅ Berhasil/, card);
    expect(fresh.text).toContain(`Ref: ${order.refId}`);
  });

  it("a user who blocked the bot is gone, and marked so", async () => {
    const { order } = await boughtOrder(9004);
    h.telegram.block(9004, true);
    await vi.waitFor(async () => expect((await findUser(h.db, 9004))?.blockedAt).not.toBeNull());
    // as if the block had not been noticed yet: delivery finds out by itself
    await h.db.update(users).set({ blockedAt: null }).where(eq(users.telegramId, 9004));
    expect(await send(note(9004, { type: "broadcast", text: "promo" }))).toBe("gone");
    expect(await send(note(9004, { type: "order_final", orderId: order.id, late: true }))).toBe(
      "gone",
    );
    expect((await findUser(h.db, 9004))?.blockedAt).not.toBeNull();
  });

  it("a recovered broadcast is not sent twice; a fresh one is sent as plain text", async () => {
    h.user(9005);
    await h.waitMessage(9005, /Halo/, h.say(9005, "/start"));
    const count = h.chat(9005).messages.length;
    await send(note(9005, { type: "broadcast", text: "<i>x</i>" }, { recovered: true }));
    expect(h.chat(9005).messages).toHaveLength(count);
    await send(note(9005, { type: "broadcast", text: "<i>x</i>" }));
    expect((await h.waitMessage(9005, /x/, count)).text).toBe("<i>x</i>");
  });

  it("a flagged order reaches the admin with a re-check button", async () => {
    const { order } = await boughtOrder(9006);
    h.user(ADMIN_ID);
    await h.waitMessage(ADMIN_ID, /Halo/, h.say(ADMIN_ID, "/start"));
    await send(note(ADMIN_ID, { type: "order_flagged", orderId: order.id }));
    const m = await h.waitMessage(ADMIN_ID, /Pesanan tertahan/);
    expect(m.text).toContain(order.refId);
    expect(labels(m)).toEqual([`🔄 Cek ulang ${order.refId.slice(-8)}`]);
    // never to anyone else, whatever the outbox row says
    const before = h.chat(9006).messages.length;
    expect(await send(note(9006, { type: "order_flagged", orderId: order.id }))).toBe("sent");
    expect(h.chat(9006).messages).toHaveLength(before);
  });
});
