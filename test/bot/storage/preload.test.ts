import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimUpdates, storeUpdates } from "../../../src/bot/storage/updates.ts";
import { findUser, upsertUser } from "../../../src/commerce/users.ts";
import { botState, users } from "../../../src/db/schema.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { createTestDatabase } from "../../helpers/db.ts";

// the inbox reads the sender's row and the chat's flow state with the claim, and the bot
// writes the user row only when something in it changed

describe("what the inbox reads with an update", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({ catalogue: false });
  });
  afterAll(() => h.stop());

  it("a claim brings the sender's row, as the users table has it, and the chat's state", async () => {
    // a database of its own: no worker of the harness's takes the update first
    const database = await createTestDatabase();
    const db = database.handle.db;
    try {
      await upsertUser(db, { telegramId: 6101, firstName: "Sari", username: "sari" });
      await db.insert(botState).values({ key: "conv:6101", value: { a: 1 }, revision: 3 });
      const message = (id: number, chat: number) => ({
        update_id: id,
        message: {
          message_id: id,
          date: 1,
          chat: { id: chat, type: "private" as const, first_name: "S" },
          from: { id: chat, is_bot: false, first_name: "S" },
          text: "hai",
        },
      });
      await storeUpdates(db, 7000000001, [message(1, 6101), message(2, 6199)]);
      const [known, stranger] = await claimUpdates(db, { worker: "t", limit: 10, leaseMs: 60_000 });
      expect(known?.preloaded.user).toEqual(await findUser(db, 6101));
      expect(known?.preloaded.state).toEqual({ value: { a: 1 }, revision: 3 });
      expect(known?.preloaded.chatId).toBe(6101);
      expect(stranger?.preloaded).toEqual({
        chatId: 6199,
        user: null,
        state: null,
        claim: { botId: 7000000001, updateId: 2, worker: "t" },
      });
    } finally {
      await database.destroy();
    }
  });

  it("writes the user row again only when the name changed", async () => {
    const u = 6102;
    h.user(u, { first_name: "Tono" });
    await h.waitMessage(u, /Halo Tono/, h.say(u, "/start"));
    const [first] = await h.db.select().from(users).where(eq(users.telegramId, u));
    await h.waitMessage(u, /Saldo kamu/, h.say(u, "/saldo"));
    const [same] = await h.db.select().from(users).where(eq(users.telegramId, u));
    expect(same?.updatedAt).toEqual(first?.updatedAt);
    h.user(u, { first_name: "Tono Baru" });
    await h.waitMessage(u, /Saldo kamu/, h.say(u, "/saldo"));
    const [renamed] = await h.db.select().from(users).where(eq(users.telegramId, u));
    expect(renamed?.firstName).toBe("Tono Baru");
  });
});
