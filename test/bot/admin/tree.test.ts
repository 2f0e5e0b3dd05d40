import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveUser } from "../../../src/commerce/resellers/tree.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { users } from "../../../src/db/schema.ts";
import { ADMIN_ID, type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// the admin's hand on the tree: /upline refuses an upline kios has never seen (no empty
// customer is made of a typo), and /role <id> customer says what a demotion does

describe("the admin's tree commands", () => {
  let h: BotHarness;
  const A = ADMIN_ID;
  beforeAll(async () => {
    h = await startBotHarness();
    h.user(A, { first_name: "Owner" });
    await h.waitMessage(A, /Halo Owner/, h.say(A, "/start"));
  });
  afterAll(() => h?.stop());

  const admin = (text: string, re: RegExp) => h.waitMessage(A, re, h.say(A, text));

  it("/upline refuses an id kios has never seen", async () => {
    await setTier(h.db, 7401, "customer");
    const m = await admin("/upline 7401 7499", /❌/);
    expect(m.text).toBe(
      "❌ kios belum pernah melihat user 7499: upline harus user yang sudah memulai bot",
    );
    expect(await h.db.select().from(users).where(eq(users.telegramId, 7499))).toEqual([]);
    await setTier(h.db, 7402, "reseller");
    await admin("/upline 7401 7402", /User 7401: upline 7402/);
  });

  it("/role <id> customer on a reseller with downlines says their trade stops", async () => {
    await setTier(h.db, 7411, "reseller");
    expect((await moveUser(h.db, { userId: 7412, uplineId: 7411 })).ok).toBe(true);
    expect((await moveUser(h.db, { userId: 7413, uplineId: 7411 })).ok).toBe(true);
    const m = await admin("/role 7411 customer", /sekarang pelanggan/);
    expect(m.text).toContain("2 downline langsungnya membayar harga tingkat di atasnya");
    expect(m.text).toContain("Komisi dan akses H2H-nya juga berhenti");
    // without downlines, the plain answer
    const plain = await admin("/role 7412 customer", /User 7412 sekarang pelanggan/);
    expect(plain.text).toBe("✅ User 7412 sekarang pelanggan.");
  });

  it("/role and /promote tell the user in their language, and their menu follows", async () => {
    const u = 7421;
    h.user(u, { language_code: "en" });
    // message ids are each chat's own: the user's messages are waited for after the user's
    const hi = await h.waitMessage(u, /Hi/, h.say(u, "/start"));
    let at = h.say(A, `/role ${u} reseller`);
    await h.waitMessage(A, new RegExp(`User ${u} sekarang reseller`), at);
    const up = await h.waitMessage(u, /You are now a reseller/, hi.message_id);
    expect(up.text).toContain("/downline");
    expect(up.text).toContain("/markup");
    expect(up.text).toContain("/api");
    await expect
      .poll(() => h.telegram.commandsFor(u).map((c) => c.command))
      .toEqual(expect.arrayContaining(["downline", "markup", "api"]));
    // a demotion is told too, and the reseller's commands leave the menu
    at = h.say(A, `/role ${u} customer`);
    await h.waitMessage(A, new RegExp(`User ${u} sekarang pelanggan`), at);
    const down = await h.waitMessage(u, /no longer available/, up.message_id);
    expect(down.text).toMatch(/customer/);
    await expect
      .poll(() => h.telegram.commandsFor(u).map((c) => c.command))
      .not.toContain("downline");
    // the same role again changes nothing and tells no one
    at = h.say(A, `/role ${u} customer`);
    await h.waitMessage(A, new RegExp(`User ${u} sekarang pelanggan`), at);
    // /promote of a user kios never saw: the admin is answered, nobody else to tell
    const m = await admin("/promote 7429", /User 7429 sekarang reseller/);
    expect(m.text).toContain("tanpa upline");
  });
});
