import { type ConversationData, uniformStorage } from "@grammyjs/conversations";
import type { Context } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  conversationStorage,
  pruneConversations,
  StateConflictError,
} from "../../../src/bot/storage/chat-state.ts";
import { botState } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../../helpers/db.ts";

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

  it("ends a chat's flow with an empty state (its row stays), and prunes old ones", async () => {
    const db = database.handle.db;
    const v1 = uniformStorage(conversationStorage(db, "v1"));
    const mine = v1(chat(42));
    await mine.read();
    await mine.delete();
    expect(await v1(chat(42)).read()).toEqual({});
    await v1(chat(44)).write(data);
    await v1(chat(45)).write(data);
    expect(await pruneConversations(db, new Date(Date.now() - 60_000))).toBe(0);
    expect(await pruneConversations(db, new Date(Date.now() + 60_000))).toBe(3);
    expect(await db.select().from(botState)).toEqual([]);
  });

  describe("written only over what was read", () => {
    const other: ConversationData = {
      pulsa: [{ replay: { send: [], receive: [1] }, interrupts: [0] }],
    } as never;
    const revisionOf = async (key: string) =>
      (await database.handle.db.select().from(botState)).find((r) => r.key === key)?.revision;

    it("refuses the second of two writers that read the same revision", async () => {
      const v1 = uniformStorage(conversationStorage(database.handle.db, "v1"));
      const first = v1(chat(50));
      const second = v1(chat(50));
      await first.read();
      await second.read();
      await first.write(data);
      await expect(second.write(other)).rejects.toBeInstanceOf(StateConflictError);
      expect(await v1(chat(50)).read()).toEqual(data);

      // read again, the same writer goes on
      const third = v1(chat(50));
      await third.read();
      await third.write(other);
      expect(await v1(chat(50)).read()).toEqual(other);
      expect(await revisionOf("conv:50")).toBe(2);
    });

    it("refuses a delete of state someone else changed, and a delete of state someone else made", async () => {
      const v1 = uniformStorage(conversationStorage(database.handle.db, "v1"));
      const a = v1(chat(51));
      await a.read();
      const b = v1(chat(51));
      await b.read();
      await b.write(data);
      await expect(a.delete()).rejects.toBeInstanceOf(StateConflictError);
      const c = v1(chat(51));
      const d = v1(chat(51));
      await c.read();
      await d.read();
      await d.write(other);
      await expect(c.delete()).rejects.toBeInstanceOf(StateConflictError);
      expect(await v1(chat(51)).read()).toEqual(other);
    });

    it("skips a write that changes nothing", async () => {
      const v1 = uniformStorage(conversationStorage(database.handle.db, "v1"));
      const a = v1(chat(52));
      await a.read();
      await a.write(data);
      const b = v1(chat(52));
      const read = await b.read();
      await b.write(read!);
      expect(await revisionOf("conv:52")).toBe(1);
    });
  });
});
