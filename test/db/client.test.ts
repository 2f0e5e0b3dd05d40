import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

describe(`database (${testDriver})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it("opens the driver this run is for, already migrated", async () => {
    expect(t.handle.kind).toBe(testDriver);
    const { rows } = await t.handle.executeSql(
      "select count(*)::int as n from information_schema.tables where table_name = $1",
      ["users"],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("migrating again is a no-op", async () => {
    await t.handle.migrate();
    await t.handle.migrate();
  });

  it("stores and reads through drizzle, with bigint telegram ids", async () => {
    const id = 7_123_456_789;
    await t.handle.db.insert(users).values({ telegramId: id, firstName: "Sari" });
    const [row] = await t.handle.db.select().from(users).where(eq(users.telegramId, id));
    expect(row).toMatchObject({ telegramId: id, firstName: "Sari", tier: "customer" });
  });

  it("rolls a failed transaction back whole", async () => {
    const id = 42;
    await expect(
      t.handle.db.transaction(async (tx) => {
        await tx.insert(users).values({ telegramId: id });
        throw new Error("crash mid-transaction");
      }),
    ).rejects.toThrow("crash mid-transaction");
    expect(await t.handle.db.select().from(users).where(eq(users.telegramId, id))).toEqual([]);
  });

  it("enforces CHECK constraints", async () => {
    await expect(
      t.handle.executeSql("insert into users (telegram_id, tier) values ($1, $2)", [43, "owner"]),
    ).rejects.toThrow(/users_tier_known/);
  });
});
