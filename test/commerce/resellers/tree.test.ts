import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  chainsDeeperThan,
  joinByCode,
  joinOffer,
  moveUser,
  referralCodeOf,
  setMaxDepth,
} from "../../../src/commerce/resellers/tree.ts";
import { setTier } from "../../../src/commerce/users.ts";
import type { Database, Executor } from "../../../src/db/client.ts";
import { users } from "../../../src/db/schema.ts";
import { rowsOf, toNumber } from "../../../src/db/sql-rows.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

// design rule 19: no one's place in the trade changes without their consent. A link only
// takes a plain customer (no upline, no downlines), after they said yes; a reseller or
// anyone with downlines is moved by an admin only; an upline is someone kios knows

describe(`the reseller tree (${testDriver})`, () => {
  let t: TestDatabase;
  let db: Database;
  let next = 60_000;
  const newId = () => ++next;

  beforeAll(async () => {
    t = await createTestDatabase();
    db = t.handle.db;
  });
  afterAll(() => t.destroy());

  async function reseller(): Promise<{ id: number; code: string }> {
    const id = newId();
    await setTier(db, id, "reseller");
    return { id, code: await referralCodeOf(db, id) };
  }

  async function customer(): Promise<number> {
    const id = newId();
    await setTier(db, id, "customer");
    return id;
  }

  const uplineOf = async (id: number) =>
    (await db.select({ p: users.parentId }).from(users).where(eq(users.telegramId, id)))[0]?.p ??
    null;

  /**
   * `first` in a transaction left open; then `second`, which must wait on the first's locks
   * (on PostgreSQL it is seen waiting before the first commits); then the first commits and
   * the second's answer is returned. PGlite runs one transaction at a time: there the first
   * commits before the second starts, the same order.
   */
  async function racing<T>(
    first: (tx: Executor) => Promise<unknown>,
    second: () => Promise<T>,
  ): Promise<T> {
    if (testDriver !== "postgres") {
      await db.transaction(async (tx) => {
        await first(tx);
      });
      return second();
    }
    let commit!: () => void;
    let worked!: () => void;
    const firstWorked = new Promise<void>((r) => {
      worked = r;
    });
    const open = db.transaction(async (tx) => {
      await first(tx);
      worked();
      await new Promise<void>((r) => {
        commit = r;
      });
    });
    await firstWorked;
    const answer = second();
    try {
      await vi.waitFor(
        async () => {
          const waiting = rowsOf(
            await db.execute(sql`select count(*) as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`),
          );
          expect(toNumber(waiting[0]?.n)).toBeGreaterThanOrEqual(1);
        },
        { timeout: 20_000, interval: 20 },
      );
    } finally {
      commit();
      await open;
    }
    return answer;
  }

  it("a link asks first: the offer names the reseller and changes nothing", async () => {
    const r = await reseller();
    const c = await customer();
    const offer = await joinOffer(db, c, r.code);
    expect(offer).toMatchObject({ ok: true, upline: { telegramId: r.id } });
    expect(await uplineOf(c)).toBeNull();
    expect(await joinByCode(db, c, r.code)).toEqual({ ok: true, uplineId: r.id });
    expect(await uplineOf(c)).toBe(r.id);
    // once: another reseller's link changes nothing
    const other = await reseller();
    expect(await joinOffer(db, c, other.code)).toMatchObject({ reason: "already_joined" });
    expect(await joinByCode(db, c, other.code)).toMatchObject({ reason: "already_joined" });
    expect(await uplineOf(c)).toBe(r.id);
  });

  it("a reseller, or anyone with downlines, never joins by a link", async () => {
    const y = await reseller();
    // a top reseller X with a downline
    const x = await reseller();
    const xDownline = await customer();
    expect((await moveUser(db, { userId: xDownline, uplineId: x.id })).ok).toBe(true);
    expect(await joinOffer(db, x.id, y.code)).toEqual({
      ok: false,
      reason: "in_trade",
      why: "reseller",
    });
    expect(await joinByCode(db, x.id, y.code)).toMatchObject({ reason: "in_trade" });
    expect(await uplineOf(x.id)).toBeNull();
    // a reseller without downlines neither
    const lone = await reseller();
    expect(await joinByCode(db, lone.id, y.code)).toMatchObject({
      reason: "in_trade",
      why: "reseller",
    });
    // a customer an admin gave downlines neither
    const boss = await customer();
    expect((await moveUser(db, { userId: await customer(), uplineId: boss })).ok).toBe(true);
    // (moveUser put a fresh customer under boss)
    expect(await joinByCode(db, boss, y.code)).toEqual({
      ok: false,
      reason: "in_trade",
      why: "downlines",
    });
    expect(await uplineOf(boss)).toBeNull();
    // an admin still moves them
    expect(await moveUser(db, { userId: x.id, uplineId: y.id })).toEqual({
      ok: true,
      uplineId: y.id,
    });
  });

  it("a link of a user who is no reseller (any more) takes no one", async () => {
    const r = await reseller();
    await setTier(db, r.id, "customer");
    const c = await customer();
    expect(await joinByCode(db, c, r.code)).toEqual({ ok: false, reason: "unknown_code" });
    expect(await joinByCode(db, r.id, r.code)).toMatchObject({ ok: false });
  });

  it("two presses at once join once", async () => {
    const r = await reseller();
    const c = await customer();
    const results = await Promise.all(Array.from({ length: 6 }, () => joinByCode(db, c, r.code)));
    expect(results.filter((x) => x.ok)).toHaveLength(1);
    expect(results.filter((x) => !x.ok).every((x) => x.reason === "already_joined")).toBe(true);
    expect(await uplineOf(c)).toBe(r.id);
  });

  it("a yes racing the user's promotion to reseller: the promotion wins, no join", async () => {
    const r = await reseller();
    const c = await customer();
    const joined = await racing(
      (tx) => tx.update(users).set({ tier: "reseller" }).where(eq(users.telegramId, c)),
      () => joinByCode(db, c, r.code),
    );
    expect(joined).toEqual({ ok: false, reason: "in_trade", why: "reseller" });
    expect(await uplineOf(c)).toBeNull();
  });

  it("a yes racing an admin giving the user a downline: the downline wins, no join", async () => {
    const r = await reseller();
    const c = await customer();
    const d = await customer();
    const joined = await racing(
      (tx) => moveUser(tx, { userId: d, uplineId: c }),
      () => joinByCode(db, c, r.code),
    );
    expect(joined).toEqual({ ok: false, reason: "in_trade", why: "downlines" });
    expect(await uplineOf(c)).toBeNull();
    expect(await uplineOf(d)).toBe(c);
  });

  it("a yes racing the reseller's demotion: the link is no longer valid", async () => {
    const r = await reseller();
    const c = await customer();
    const joined = await racing(
      (tx) => tx.update(users).set({ tier: "customer" }).where(eq(users.telegramId, r.id)),
      () => joinByCode(db, c, r.code),
    );
    expect(joined).toEqual({ ok: false, reason: "unknown_code" });
    expect(await uplineOf(c)).toBeNull();
  });

  it("an upline kios has never seen is refused, not made", async () => {
    const c = await customer();
    const stranger = newId();
    expect(await moveUser(db, { userId: c, uplineId: stranger })).toEqual({
      ok: false,
      reason: "unknown_upline",
      uplineId: stranger,
    });
    expect(await db.select().from(users).where(eq(users.telegramId, stranger))).toEqual([]);
    expect(await uplineOf(c)).toBeNull();
  });

  it("counts the chains deeper than a lowered limit; they stay until moved", async () => {
    // a chain of four levels below its top, and a branch of two
    const chain = [await reseller()];
    for (let i = 0; i < 4; i++) {
      const r = await reseller();
      expect((await moveUser(db, { userId: r.id, uplineId: chain.at(-1)!.id })).ok).toBe(true);
      chain.push(r);
    }
    const branch = await customer();
    expect((await moveUser(db, { userId: branch, uplineId: chain[2]!.id })).ok).toBe(true);
    await setMaxDepth(db, 2);
    // chain[4] is 4 levels down, the branch 3: both chains are deeper than 2 (the other
    // tests' trees are at most 2 deep)
    expect(await chainsDeeperThan(db, 2)).toBe(2);
    expect(await chainsDeeperThan(db, 3)).toBe(1);
    expect(await chainsDeeperThan(db, 4)).toBe(0);
    expect(await uplineOf(chain[4]!.id)).toBe(chain[3]!.id);
    await setMaxDepth(db, 5);
  });
});
