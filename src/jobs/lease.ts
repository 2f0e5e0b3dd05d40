import postgres from "postgres";
import type { DatabaseHandle } from "../db/client.ts";

// a lease is held while a job runs and ends with the process that holds it, however that
// process ends. On postgres it is a session advisory lock on a connection of its own: the
// server drops it the moment the connection goes, SIGKILL included. On PGlite, whose data
// folder one process opens at a time, it is a set in memory. So an active job whose lease
// nobody holds belongs to a dead process, and can be taken back at once: pg-boss 10 has no
// heartbeat, and its expiry alone would hold the job (and, on stately queues, everything
// behind it) for as long as the expiry is.

type Held<T> = { held: true; value: T } | { held: false };

export interface Leases {
  /** runs fn holding every key; { held: false } without running it when one is held elsewhere */
  hold<T>(keys: readonly string[], fn: () => Promise<T>): Promise<Held<T>>;
  /** the keys of these that nobody holds */
  free(keys: readonly string[]): Promise<Set<string>>;
  close(): Promise<void>;
}

// PGlite: one registry per open database, shared by every runner on it (tests run several)
const local = new WeakMap<DatabaseHandle, Set<string>>();

export function createLeases(database: DatabaseHandle): Leases {
  if (database.kind === "postgres" && database.connectionString) {
    return postgresLeases(database.connectionString);
  }
  let held = local.get(database);
  if (!held) {
    held = new Set();
    local.set(database, held);
  }
  return memoryLeases(held);
}

function memoryLeases(held: Set<string>): Leases {
  return {
    async hold(keys, fn) {
      if (keys.some((k) => held.has(k))) return { held: false };
      for (const k of keys) held.add(k);
      try {
        return { held: true, value: await fn() };
      } finally {
        for (const k of keys) held.delete(k);
      }
    },
    async free(keys) {
      return new Set(keys.filter((k) => !held.has(k)));
    },
    async close() {},
  };
}

// the 64-bit lock key of a lease name; pg_locks shows it split in two 32-bit halves
const LOCK_KEY = "hashtextextended('kios.lease:' || k, 0)";

function postgresLeases(url: string): Leases {
  // its own pool: a lease keeps its connection for as long as the job runs
  const sql = postgres(url, { max: 10, idle_timeout: 60, onnotice: () => {} });
  return {
    async hold(keys, fn) {
      const conn = await sql.reserve();
      try {
        const rows = await conn.unsafe<{ ok: boolean }[]>(
          `select pg_try_advisory_lock(${LOCK_KEY}) as ok from unnest($1::text[]) as k`,
          [keys as string[]],
        );
        if (!rows.every((r) => r.ok)) return { held: false };
        return { held: true, value: await fn() };
      } finally {
        await conn.unsafe("select pg_advisory_unlock_all()").catch(() => {});
        conn.release();
      }
    },
    async free(keys) {
      if (keys.length === 0) return new Set();
      const rows = await sql.unsafe<{ k: string }[]>(
        `select k from unnest($1::text[]) as k
         where not exists (
           select 1 from pg_locks l
           where l.locktype = 'advisory' and l.granted and l.objsubid = 1
             and l.database = (select oid from pg_database where datname = current_database())
             and l.classid = ((${LOCK_KEY} >> 32) & 4294967295)::oid
             and l.objid = (${LOCK_KEY} & 4294967295)::oid
         )`,
        [keys as string[]],
      );
      return new Set(rows.map((r) => r.k));
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
