import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveUser, referralCodeOf } from "../../../src/commerce/resellers/tree.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { users } from "../../../src/db/schema.ts";
import { type BotHarness, labels, startBotHarness } from "../../helpers/bot.ts";

// design rule 19 in chat: a reseller's link asks a plain customer before they join (whose
// downline, that their prices follow that reseller's), joins on ✅ only, and tells the
// reseller only then; a reseller, or anyone with downlines, is told only an admin moves them

describe("a referral link asks before it joins", () => {
  let h: BotHarness;
  const R = 8301;
  let link: string;
  beforeAll(async () => {
    h = await startBotHarness();
    h.user(R, { first_name: "Budi" });
    await h.waitMessage(R, /Halo Budi/, h.say(R, "/start"));
    await setTier(h.db, R, "reseller");
    link = `/start r_${await referralCodeOf(h.db, R)}`;
  });
  afterAll(() => h?.stop());

  const uplineOf = async (id: number) =>
    (await h.db.select({ p: users.parentId }).from(users).where(eq(users.telegramId, id)))[0]?.p ??
    null;
  const toldReseller = () =>
    h.chat(R).messages.filter((m) => m.sender === "bot" && /downline-mu/.test(m.text ?? "")).length;

  it("shows a plain customer what joining means, and joins only on ✅", async () => {
    const C = 8302;
    h.user(C, { first_name: "Sari", username: "sari" });
    const at = h.say(C, link);
    const offer = await h.waitMessage(C, /mengajakmu menjadi downline/, at);
    expect(offer.text).toContain("Budi");
    expect(offer.text).toMatch(/harga yang kamu lihat mengikuti harga Budi/);
    expect(labels(offer)).toEqual(["✅ Gabung", "✖ Tidak"]);
    for (const row of offer.reply_markup?.inline_keyboard ?? []) {
      for (const b of row) {
        if ("callback_data" in b) expect(Buffer.byteLength(b.callback_data!)).toBeLessThan(65);
      }
    }
    await h.waitMessage(C, /Halo Sari/, at);
    // nothing changed yet, and the reseller heard nothing
    expect(await uplineOf(C)).toBeNull();
    expect(toldReseller()).toBe(0);

    h.tap(C, offer, /Gabung/);
    await h.waitEdit(C, offer.message_id, /terdaftar sebagai downline Budi/);
    await h.waitMessage(R, /Sari @sari.*downline-mu/);
    expect(await uplineOf(C)).toBe(R);
    expect(toldReseller()).toBe(1);
  });

  it("no leaves everything as it was", async () => {
    const C = 8303;
    h.user(C);
    const at = h.say(C, link);
    const offer = await h.waitMessage(C, /mengajakmu menjadi downline/, at);
    h.tap(C, offer, /Tidak/);
    await h.waitEdit(C, offer.message_id, /tidak bergabung/);
    expect(await uplineOf(C)).toBeNull();
    expect(toldReseller()).toBe(1);
  });

  it("checks again at the press: a customer made a reseller since the question stays put", async () => {
    const C = 8304;
    h.user(C);
    const at = h.say(C, link);
    const offer = await h.waitMessage(C, /mengajakmu menjadi downline/, at);
    await setTier(h.db, C, "reseller");
    h.tap(C, offer, /Gabung/);
    await h.waitEdit(C, offer.message_id, /Kamu sudah reseller.*minta admin toko/s);
    expect(await uplineOf(C)).toBeNull();
    expect(toldReseller()).toBe(1);
  });

  it("a top reseller with downlines opening the link is told only an admin moves them", async () => {
    const X = 8305;
    const XD = 8306;
    h.user(X, { first_name: "Xavi" });
    await setTier(h.db, X, "reseller");
    expect((await moveUser(h.db, { userId: XD, uplineId: X })).ok).toBe(true);
    const at = h.say(X, link);
    await h.waitMessage(X, /Kamu sudah reseller.*\/upline/s, at);
    await h.waitMessage(X, /Halo Xavi/, at);
    expect(await uplineOf(X)).toBeNull();
    expect(toldReseller()).toBe(1);
    // a customer with downlines (an admin's doing) neither
    const B = 8307;
    h.user(B);
    await setTier(h.db, B, "customer");
    expect((await moveUser(h.db, { userId: 8308, uplineId: B })).ok).toBe(true);
    const again = h.say(B, link);
    await h.waitMessage(B, /sudah punya downline.*\/upline/s, again);
    expect(await uplineOf(B)).toBeNull();
  });
});
