import { sql } from "drizzle-orm";
import { expect, vi } from "vitest";
import type { Database } from "../../src/db/client.ts";
import { supplierReservations } from "../../src/db/schema.ts";
import { rowsOf, toNumber } from "../../src/db/sql-rows.ts";
import { testDriver } from "./db.ts";
import { patient } from "./patience.ts";

/**
 * runs Pays as one burst: on PostgreSQL, holds these suppliers' reservation counters (as a
 * Pay reserving does until its commit) until every Pay of the burst waits behind them, so
 * they all read the same estimate and reach the reservation at once; PGlite runs one
 * transaction at a time, and the burst interleaves between them
 */
export async function payBurst<T>(
  db: Database,
  suppliers: readonly string[],
  pays: (() => Promise<T>)[],
): Promise<T[]> {
  if (testDriver !== "postgres") return Promise.all(pays.map((pay) => pay()));
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => {
    locked = r;
  });
  const holding = db.transaction(async (tx) => {
    // the rows exist (a first Pay's insert waits on the uncommitted one) and are locked,
    // their counters unchanged
    await tx
      .insert(supplierReservations)
      .values(suppliers.map((supplier) => ({ supplier, reserved: 0 })))
      .onConflictDoUpdate({
        target: supplierReservations.supplier,
        set: { reserved: sql`${supplierReservations.reserved}` },
      });
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
    { timeout: patient(20_000), interval: 20 },
  );
  release();
  await holding;
  return Promise.all(running);
}
