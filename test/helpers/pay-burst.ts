import { sql } from "drizzle-orm";
import { expect, vi } from "vitest";
import { GUARD_LOCK } from "../../src/commerce/supplier-balance/known-balance.ts";
import type { Database } from "../../src/db/client.ts";
import { rowsOf, toNumber } from "../../src/db/sql-rows.ts";
import { testDriver } from "./db.ts";

/**
 * runs Pays as one burst: on PostgreSQL, holds the supplier balance guard's lock (as a Pay
 * reserving does until its commit) until every Pay of the burst waits behind it, so they
 * all reach the guard at once; PGlite runs one transaction at a time, and the burst
 * interleaves between them
 */
export async function payBurst<T>(db: Database, pays: (() => Promise<T>)[]): Promise<T[]> {
  if (testDriver !== "postgres") return Promise.all(pays.map((pay) => pay()));
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => {
    locked = r;
  });
  const holding = db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${GUARD_LOCK}::bigint)`);
    locked();
    await new Promise<void>((r) => {
      release = r;
    });
  });
  await isLocked;
  const running = pays.map((pay) => pay());
  await vi.waitFor(
    async () => {
      const waiting = await db.execute(
        sql`select count(*) as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'`,
      );
      expect(toNumber(rowsOf(waiting)[0]?.n)).toBeGreaterThanOrEqual(pays.length);
    },
    { timeout: 20_000, interval: 20 },
  );
  release();
  await holding;
  return Promise.all(running);
}
