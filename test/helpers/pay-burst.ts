import { sql } from "drizzle-orm";
import { expect, vi } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { quotes } from "../../src/db/schema.ts";
import { rowsOf, toNumber } from "../../src/db/sql-rows.ts";
import { testDriver } from "./db.ts";
import { patient } from "./patience.ts";

/**
 * runs Pays as one burst: on PostgreSQL, holds every quote's row (as a Pay's transaction
 * takes its own) until every Pay of the burst waits behind them (or was refused before,
 * for the reservations already made), so they all made their reservations
 * (known-balance.ts) and reach the statement that checks them at once; PGlite
 * runs one transaction at a time, and the burst interleaves between them
 */
export async function payBurst<T>(db: Database, pays: (() => Promise<T>)[]): Promise<T[]> {
  if (testDriver !== "postgres") return Promise.all(pays.map((pay) => pay()));
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => {
    locked = r;
  });
  const holding = db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${quotes} for update`);
    locked();
    await new Promise<void>((r) => {
      release = r;
    });
  });
  await isLocked;
  let finished = 0;
  const running = pays.map((pay) =>
    pay().finally(() => {
      finished++;
    }),
  );
  await vi.waitFor(
    async () => {
      const waiting = await db.execute(
        sql`select count(*) as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'`,
      );
      // a Pay the guard refused from the reservations already made never gets to the lock
      expect(toNumber(rowsOf(waiting)[0]?.n) + finished).toBeGreaterThanOrEqual(pays.length);
    },
    { timeout: patient(20_000), interval: 20 },
  );
  release();
  await holding;
  return Promise.all(running);
}
