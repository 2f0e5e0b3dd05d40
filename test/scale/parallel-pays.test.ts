import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderEngine } from "../../src/commerce/orders/engine.ts";
import { confirmQuote } from "../../src/commerce/orders/place.ts";
import type { ConfirmResult } from "../../src/commerce/orders/types.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../src/commerce/wallet/verify.ts";
import type { Database } from "../../src/db/client.ts";
import { rowsOf, toNumber } from "../../src/db/sql-rows.ts";
import { bootCommerceThatSold, type CommerceHarness } from "../helpers/commerce.ts";

// no lock shared by every order (issue 40): one buyer's Pay held open, mid-way or just
// before its commit, does not stop another buyer's Pay, which is stored and sent while the
// first still waits (on the code before, every Pay took one advisory lock with its quote
// and held it to its commit). PostgreSQL only: PGlite runs one transaction at a time.

/** a gate a test opens: where the held Pay waits, and a promise that it got there */
function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  const arrived = new Promise<void>((r) => {
    reached = r;
  });
  return { open, opened, arrived, reached };
}

type Gate = ReturnType<typeof gate>;

/**
 * the engine with a database whose Pays stop at the gate: `beforeCommit` once the Pay's
 * transaction did its statements (its order, attempt and hold written, its reservation
 * consumed, not committed); `afterReservation` right after the supplier balance guard made
 * its reservation (the first `execute` of a Pay, committed on its own), before the Pay's
 * transaction
 */
function heldEngine(deps: OrderEngine, at: "beforeCommit" | "afterReservation", g: Gate) {
  let held = false;
  const db = new Proxy(deps.db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "execute" && at === "afterReservation" && typeof value === "function") {
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (!held) {
            held = true;
            g.reached();
            await g.opened;
          }
          return result;
        };
      }
      if (prop !== "transaction" || at !== "beforeCommit") return value;
      const transaction: Database["transaction"] = (work, config) =>
        target.transaction(async (tx) => {
          const result = await work(tx);
          g.reached();
          await g.opened;
          return result;
        }, config);
      return transaction;
    },
  });
  return { ...deps, db } as OrderEngine;
}

describe("two buyers' Pays run side by side (PostgreSQL)", () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerceThatSold();
  });
  afterAll(() => h.stop());

  /**
   * the second Pay's outcome while the first is held: done, or a backend of this database
   * waiting on a lock (the event of a Pay stopped behind another), whichever comes first
   */
  async function whileHeld(second: Promise<ConfirmResult>): Promise<"done" | "blocked"> {
    let done = false;
    const finished = second.then(() => {
      done = true;
      return "done" as const;
    });
    const blocked = (async () => {
      while (!done) {
        const waiting = await h.deps.db.execute(
          sql`select count(*) as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (toNumber(rowsOf(waiting)[0]?.n) > 0) return "blocked" as const;
        // polled, as pg_stat_activity tells no one; the outcome is which event comes first
        await new Promise((r) => setImmediate(r));
      }
      return "done" as const;
    })();
    return Promise.race([finished, blocked]);
  }

  it("a Pay held open before its commit does not stop another buyer's (no balance reading)", async () => {
    const [a, b] = [await h.newUser(100_000), await h.newUser(100_000)];
    const [qa, qb] = [await h.quote(a, "081234567901"), await h.quote(b, "081234567902")];
    const g = gate();
    const first = confirmQuote(heldEngine(h.deps, "beforeCommit", g), {
      quoteId: qa.id,
      userId: a,
    });
    await g.arrived;
    const second = confirmQuote(h.deps, { quoteId: qb.id, userId: b });
    try {
      expect(await whileHeld(second)).toBe("done");
    } finally {
      g.open();
    }
    expect((await second).ok).toBe(true);
    expect((await first).ok).toBe(true);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("a Pay held open after its reservation does not stop another Pay to the same supplier", async () => {
    // the reading covers two orders and a half: both may go, and the guard reserves for
    // each; the second is stored and sent while the first's transaction is still open
    await h.readingFor(2);
    const [a, b] = [await h.newUser(100_000), await h.newUser(100_000)];
    const [qa, qb] = [await h.quote(a, "081234567911"), await h.quote(b, "081234567912")];
    const before = h.sandbox.requests().length;
    const g = gate();
    const first = confirmQuote(heldEngine(h.deps, "beforeCommit", g), {
      quoteId: qa.id,
      userId: a,
    });
    await g.arrived;
    const second = confirmQuote(h.deps, { quoteId: qb.id, userId: b });
    try {
      expect(await whileHeld(second)).toBe("done");
    } finally {
      g.open();
    }
    expect((await second).ok).toBe(true);
    expect((await first).ok).toBe(true);
    expect(h.sandbox.requests().slice(before)).toHaveLength(2);
    expect(h.sandbox.account().balance).toBeGreaterThanOrEqual(0);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("a Pay held after its reservation does not stop another's, which finds the balance reserved", async () => {
    // the reading covers one order and a half: the first reserved it, the second is told
    // at once (it waits on no lock) that no supplier can take it
    await h.readingFor(1);
    const [a, b] = [await h.newUser(100_000), await h.newUser(100_000)];
    const [qa, qb] = [await h.quote(a, "081234567903"), await h.quote(b, "081234567904")];
    const before = h.sandbox.requests().length;
    const g = gate();
    const first = confirmQuote(heldEngine(h.deps, "afterReservation", g), {
      quoteId: qa.id,
      userId: a,
    });
    await g.arrived;
    const second = confirmQuote(h.deps, { quoteId: qb.id, userId: b });
    try {
      expect(await whileHeld(second)).toBe("done");
    } finally {
      g.open();
    }
    expect(await second).toEqual({ ok: false, reason: "supplier_unavailable" });
    expect((await first).ok).toBe(true);
    expect(await walletBalance(h.deps.db, b)).toBe(100_000);
    expect(h.sandbox.requests().slice(before)).toHaveLength(1);
    expect(h.sandbox.account().balance).toBeGreaterThanOrEqual(0);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });
});
