import type postgres from "postgres";
import type { DatabaseHandle } from "../db/client.ts";
import { connectPostgres } from "../db/postgres-target.ts";

// a lease is held while a job runs and ends with the process that holds it, however that
// process ends. On postgres it is a session advisory lock: the server drops it the moment
// the connection goes, SIGKILL included. On PGlite, whose data folder one process opens at
// a time, it is a set in memory. So an active job whose lease nobody holds belongs to a
// dead process, and can be taken back at once: pg-boss 10 has no heartbeat, and its expiry
// alone would hold the job (and, on stately queues, everything behind it) for as long as
// the expiry is.
//
// all of a process's leases live on one connection: taking or giving one back is a
// statement of microseconds, so no holder waits for another's connection however many run
// (every job queue, the inbox worker, the poller). When that connection goes (a proxy or
// an idle timeout cuts it, the server restarts), every lease on it is gone: each holder is
// told through its signal and must commit nothing more under it.

type Held<T> = { held: true; value: T } | { held: false };

export interface Lease {
  /** aborted once the lease is lost: others may now take its work, so stop and commit nothing */
  readonly signal: AbortSignal;
}

export interface Leases {
  /** runs fn holding every key; { held: false } without running it when one is held elsewhere */
  hold<T>(keys: readonly string[], fn: (lease: Lease) => Promise<T>): Promise<Held<T>>;
  /** the keys of these that nobody holds */
  free(keys: readonly string[]): Promise<Set<string>>;
  close(): Promise<void>;
}

/** why a lease's signal was aborted */
export class LeaseLostError extends Error {
  constructor(why: string) {
    super(`the lease was lost: ${why}`);
    this.name = "LeaseLostError";
  }
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
  // nothing can take a lease from a process that is alive: its signal never fires
  const lease: Lease = { signal: new AbortController().signal };
  return {
    async hold(keys, fn) {
      if (keys.some((k) => held.has(k))) return { held: false };
      for (const k of keys) held.add(k);
      try {
        return { held: true, value: await fn(lease) };
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

/** how often the connection holding leases is asked whether it is still there */
const HEARTBEAT_MS = 1_000;
/** a heartbeat unanswered this long: the connection is taken for dead */
const HEARTBEAT_TIMEOUT_MS = 5_000;

interface Holder {
  abort: AbortController;
}

/** one connection and the leases taken on it */
interface Session {
  sql: postgres.Sql;
  /** its server process: another one means the connection was replaced, locks and all */
  pid: number | undefined;
  holders: Set<Holder>;
  lost: boolean;
  ending: boolean;
  timer: NodeJS.Timeout;
}

function postgresLeases(url: string): Leases {
  let session: Session | undefined;
  // the keys held in this process: a session's advisory locks are re-entrant, so a second
  // holder here must be refused before the server is asked
  const taken = new Set<string>();

  function open(): Session {
    const s: Session = {
      sql: connectPostgres(url, {
        max: 1,
        // never closed on a timer of its own: that would drop every lease on it
        max_lifetime: null,
        onnotice: () => {},
        connection: { application_name: "kios leases" },
        onclose: () => lose(s, "its connection closed"),
      }),
      pid: undefined,
      holders: new Set(),
      lost: false,
      ending: false,
      timer: setInterval(() => void heartbeat(s), HEARTBEAT_MS),
    };
    s.timer.unref();
    return s;
  }

  /** every lease on s is gone: its holders are told, and the next hold opens a new session */
  function lose(s: Session, why: string) {
    if (s.lost || s.ending) return;
    s.lost = true;
    clearInterval(s.timer);
    if (session === s) session = undefined;
    for (const h of s.holders) h.abort.abort(new LeaseLostError(why));
    s.sql.end({ timeout: 0 }).catch(() => {});
  }

  async function heartbeat(s: Session) {
    if (s.holders.size === 0 || s.lost) return;
    const timeout = setTimeout(
      () => lose(s, "its connection stopped answering"),
      HEARTBEAT_TIMEOUT_MS,
    );
    try {
      const [row] = await s.sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
      if (s.pid !== undefined && row?.pid !== s.pid) lose(s, "its connection was replaced");
    } catch {
      lose(s, "its connection failed");
    } finally {
      clearTimeout(timeout);
    }
  }

  const current = () => {
    session ??= open();
    return session;
  };

  return {
    async hold(keys, fn) {
      if (keys.some((k) => taken.has(k))) return { held: false };
      for (const k of keys) taken.add(k);
      try {
        const s = current();
        const rows = await s.sql.unsafe<{ k: string; ok: boolean; pid: number }[]>(
          `select k, pg_try_advisory_lock(${LOCK_KEY}) as ok, pg_backend_pid() as pid
           from unnest($1::text[]) as k`,
          [keys as string[]],
        );
        s.pid ??= rows[0]?.pid;
        if (s.lost || rows.some((r) => r.pid !== s.pid)) {
          lose(s, "its connection was replaced");
          return { held: false };
        }
        const mine = rows.filter((r) => r.ok).map((r) => r.k);
        if (mine.length < keys.length) {
          await unlock(s, mine);
          return { held: false };
        }
        const holder: Holder = { abort: new AbortController() };
        s.holders.add(holder);
        try {
          return { held: true, value: await fn({ signal: holder.abort.signal }) };
        } finally {
          s.holders.delete(holder);
          await unlock(s, keys);
        }
      } finally {
        for (const k of keys) taken.delete(k);
      }
    },
    async free(keys) {
      if (keys.length === 0) return new Set();
      const rows = await current().sql.unsafe<{ k: string }[]>(
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
      const s = session;
      session = undefined;
      if (!s) return;
      s.ending = true;
      clearInterval(s.timer);
      await s.sql.end({ timeout: 5 });
    },
  };

  /** gives keys back; one that cannot be given back would be held for good, so a failure ends the session */
  async function unlock(s: Session, keys: readonly string[]) {
    if (keys.length === 0 || s.lost) return;
    try {
      await s.sql.unsafe(`select pg_advisory_unlock(${LOCK_KEY}) from unnest($1::text[]) as k`, [
        keys as string[],
      ]);
    } catch {
      lose(s, "giving a lease back failed");
    }
  }
}
