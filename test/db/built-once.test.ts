import { eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtOnce, builtOncePerShape } from "../../src/db/built-once.ts";
import { settings, users } from "../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// a statement built once answers what drizzle's own query answers, on either driver, on the
// database and inside a transaction alike

const parent = alias(users, "parent");

const insertUser = builtOnce((exec) =>
  exec
    .insert(users)
    .values({
      telegramId: sql.placeholder("id"),
      firstName: sql.placeholder("name"),
      parentId: sql.placeholder("parentId"),
      joinedAt: sql.placeholder("joinedAt"),
    })
    .returning(),
);

const userWithParent = builtOnce((exec) =>
  exec
    .select({ user: users, parent, since: sql<Date>`${users.joinedAt}`.mapWith(users.joinedAt) })
    .from(users)
    .leftJoin(parent, eq(parent.telegramId, users.parentId))
    .where(eq(users.telegramId, sql.placeholder("id"))),
);

const renameUser = builtOnce((exec) =>
  exec
    .update(users)
    .set({
      firstName: sql`${sql.placeholder("name")}`,
      blockedAt: sql`${sql.param(sql.placeholder("at"), users.blockedAt)}`,
    })
    .where(eq(users.telegramId, sql.placeholder("id")))
    .returning({ id: users.telegramId, blockedAt: users.blockedAt }),
);

const putSetting = builtOncePerShape(
  (s: { returning: boolean }) => String(s.returning),
  (exec, s) => {
    const insert = exec
      .insert(settings)
      .values({ key: sql.placeholder("key"), value: sql.placeholder("value") });
    return s.returning ? insert.returning({ value: settings.value }) : insert.returning();
  },
);

describe(`a statement built once (${testDriver})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it("inserts through the columns' encoders and returns rows as drizzle maps them", async () => {
    const joinedAt = new Date("2026-12-02T03:04:05.678Z");
    const [upline] = await insertUser(t.handle.db, {
      id: 7_100_000_001,
      name: "Upline",
      parentId: null,
      joinedAt: null,
    });
    const [downline] = await insertUser(t.handle.db, {
      id: 7_100_000_002,
      name: "Sari",
      parentId: 7_100_000_001,
      joinedAt,
    });
    const stored = await t.handle.db
      .select()
      .from(users)
      .where(eq(users.telegramId, 7_100_000_002));
    expect(downline).toEqual(stored[0]);
    expect(downline?.joinedAt).toEqual(joinedAt);
    expect(downline?.telegramId).toBe(7_100_000_002);
    expect(upline?.parentId).toBeNull();
  });

  it("selects with a left join like the builder's own query, on the database and in a transaction", async () => {
    const ordinary = (id: number) =>
      t.handle.db
        .select({
          user: users,
          parent,
          since: sql<Date>`${users.joinedAt}`.mapWith(users.joinedAt),
        })
        .from(users)
        .leftJoin(parent, eq(parent.telegramId, users.parentId))
        .where(eq(users.telegramId, id));
    for (const id of [7_100_000_001, 7_100_000_002, 7_100_000_999]) {
      const expected = await ordinary(id);
      expect(await userWithParent(t.handle.db, { id })).toEqual(expected);
      const inTx = await t.handle.db.transaction((tx) => userWithParent(tx, { id }));
      expect(inTx).toEqual(expected);
    }
    const [row] = await userWithParent(t.handle.db, { id: 7_100_000_001 });
    // the joined table of no row is null, not an object of nulls
    expect(row?.parent).toBeNull();
    expect(row?.since).toBeNull();
    const [child] = await userWithParent(t.handle.db, { id: 7_100_000_002 });
    expect(child?.parent?.firstName).toBe("Upline");
    expect(child?.since).toBeInstanceOf(Date);
  });

  it("updates in a transaction that rolls back with it", async () => {
    const at = new Date("2026-12-01T00:00:00.000Z");
    await expect(
      t.handle.db.transaction(async (tx) => {
        const rows = await renameUser(tx, { id: 7_100_000_002, name: "Renamed", at });
        expect(rows).toEqual([{ id: 7_100_000_002, blockedAt: at }]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const [row] = await userWithParent(t.handle.db, { id: 7_100_000_002 });
    expect(row?.user.firstName).toBe("Sari");
    expect(await renameUser(t.handle.db, { id: 7_100_000_002, name: "Renamed", at })).toEqual([
      { id: 7_100_000_002, blockedAt: at },
    ]);
  });

  it("keeps one statement per shape, json through its column", async () => {
    const value = { step: 500, list: [1, "a", null], nested: { ok: true } };
    expect(await putSetting(t.handle.db, { returning: true }, { key: "k1", value })).toEqual([
      { value },
    ]);
    const [full] = await putSetting(t.handle.db, { returning: false }, { key: "k2", value: [2] });
    expect(full).toMatchObject({ key: "k2", value: [2] });
    expect(full && "updatedAt" in full ? full.updatedAt : undefined).toBeInstanceOf(Date);
    const [stored] = await t.handle.db.select().from(settings).where(eq(settings.key, "k1"));
    expect(stored?.value).toEqual(value);
  });

  it("refuses a run that misses a value", async () => {
    await expect(userWithParent(t.handle.db, {})).rejects.toThrow(/placeholder "id"/);
  });
});
