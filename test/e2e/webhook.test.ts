import { count, eq } from "drizzle-orm";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTier } from "../../src/commerce/users.ts";
import { setFirstPin } from "../../src/commerce/wallet/pin.ts";
import { telegramUpdates } from "../../src/db/schema.ts";
import { testDriver } from "../helpers/db.ts";
import { type Journey, startJourney } from "../helpers/e2e.ts";
import { resultDelivered } from "../helpers/outbox.ts";
import { airtimeCard, expectMoney, lastOrder, rupiahOf } from "./steps.ts";

// issue 6, once in webhook mode: Telegram posts the updates to kios's HTTP server
// (secret token, update ids recorded); a purchase end to end, its result arriving later;
// a center text command, stored and claimed in one step by the process that received it,
// with its PIN sealed (not removed: the handler opens it and the order is placed).

describe(`journey: a purchase with the bot on a webhook (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ mode: "webhook" });
  });
  afterAll(() => j?.stop());

  it("buys pulsa through the webhook; the pending order is settled in place with a push", async () => {
    const u = 64_001;
    j.user(u);
    await j.fund(u, 100_000);
    const card = await airtimeCard(j, u, "081234567903");
    const price = rupiahOf(card.text, "Harga");
    j.tap(u, card, /Bayar/);
    await j.waitEdit(u, card.message_id, /⏳ Diproses/);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(j, u);
    expect(order.status).toBe("success");
    expect(done.text).toContain(`SN: ${order.sn}`);
    // the card in view shows the result in place: no separate notice
    await resultDelivered(j.app.app.database.db, order.id);
    expect(j.chat(u).messages.filter((m) => m.message_id > card.message_id)).toEqual([]);
    // every step came in as a webhook delivery, each update id recorded once
    const [seen] = await j.app.app.database.db.select({ n: count() }).from(telegramUpdates);
    expect(seen!.n).toBeGreaterThanOrEqual(6);
    await expectMoney(j, u, 100_000 - price);
  });

  it("a center text command through the webhook: one order and its answer; the PIN stored sealed", async () => {
    const u = 64_002;
    const db = j.app.app.database.db;
    j.user(u);
    await setTier(db, u, "reseller");
    await j.fund(u, 100_000);
    await setFirstPin(db, u, "739184");
    const at = j.say(u, "TSEL10.081234567901.739184 R#W1");
    const answer = await j.waitMessage(u, /^R#W1 |tidak bisa dibaca/, at);
    expect(answer.text).toMatch(/^R#W1 TSEL10\.081234567901 (PROSES|SUKSES)\./);
    const order = await lastOrder(j, u);
    expect(order.productCode).toBe("TSEL10");
    const stored = await db
      .select({ payload: telegramUpdates.payload })
      .from(telegramUpdates)
      .where(eq(telegramUpdates.userId, u));
    const texts = stored.map((r) => (r.payload as Update).message?.text);
    expect(texts).toContainEqual(
      expect.stringMatching(/^TSEL10\.081234567901\.\[pin:v1:[^\]]+\] R#W1$/),
    );
    expect(JSON.stringify(stored)).not.toContain("739184");
  });
});
