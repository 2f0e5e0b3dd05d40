import { type ConversationData, uniformStorage } from "@grammyjs/conversations";
import type { Context } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversationStorage, pruneConversations } from "../../src/bot/storage.ts";
import { botState } from "../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

// the conversations' state in bot_state: per chat, versioned, prunable

describe("conversation storage", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.destroy());

  const chat = (id: number) => ({ chatId: id }) as unknown as Context;
  const data: ConversationData = {
    pulsa: [{ replay: { send: [], receive: [] }, interrupts: [0] }],
  } as never;

  it("keeps a chat's state under conv:<chat id> and reads it back with the same version", async () => {
    const db = database.handle.db;
    const v1 = uniformStorage(conversationStorage(db, "v1"));
    await v1(chat(42)).write(data);
    expect(await v1(chat(42)).read()).toEqual(data);
    expect(await v1(chat(43)).read()).toBeUndefined();
    const rows = await db.select().from(botState);
    expect(rows.map((r) => r.key)).toEqual(["conv:42"]);
  });

  it("drops state written by other code (another version)", async () => {
    const db = database.handle.db;
    const v2 = uniformStorage(conversationStorage(db, "v2"));
    expect(await v2(chat(42)).read()).toBeUndefined();
  });

  it("deletes a chat's state, and prunes old ones", async () => {
    const db = database.handle.db;
    const v1 = uniformStorage(conversationStorage(db, "v1"));
    await v1(chat(42)).delete();
    expect(await v1(chat(42)).read()).toBeUndefined();
    await v1(chat(44)).write(data);
    await v1(chat(45)).write(data);
    expect(await pruneConversations(db, new Date(Date.now() - 60_000))).toBe(0);
    expect(await pruneConversations(db, new Date(Date.now() + 60_000))).toBe(2);
    expect(await db.select().from(botState)).toEqual([]);
  });
});
