import type { PGlite } from "@electric-sql/pglite";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type postgres from "postgres";
import { MIGRATIONS_FOLDER, openPgliteFolder } from "./pglite.ts";
import { drizzleView, PGLITE_OWN_PARSERS } from "./pglite-parsers.ts";
import { connectPostgres } from "./postgres-target.ts";
import * as schema from "./schema.ts";

type Schema = typeof schema;

/** the one database type both drivers satisfy; query functions take it first. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** a database or a transaction: what query functions accept. */
export type Executor = Database | Transaction;

interface SqlResult {
  rows: Record<string, unknown>[];
}

export interface DatabaseHandle {
  readonly kind: "pglite" | "postgres";
  readonly db: Database;
  /**
   * statements this process has sent through the handle's client (postgres; pg-boss's own
   * pool is apart): /metrics shows it, the benchmarks divide it by the work done
   */
  readonly statements: number;
  /** raw parameterised SQL ($1, $2 …), for pg-boss and the few queries drizzle can't express */
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  /** the server's connection string (postgres only): pg-boss keeps its own small pool */
  readonly connectionString: string | undefined;
  ping(): Promise<void>;
  migrate(): Promise<void>;
  /**
   * runs set-up work that must not interleave with another process's (creating the job
   * queues: two processes creating them at once deadlock on pg-boss's tables)
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * LISTEN on a channel: `onNotify` runs for each NOTIFY on it (from any process on the same
   * database). Resolves to the function that stops listening.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// any 64-bit constants: serialise concurrent migrators and set-ups (web and worker starting
// together)
const MIGRATION_LOCK = 7_240_118_205;
const SETUP_LOCK = 7_240_118_206;

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** PGlite data folder; "memory://" keeps it in memory */
  pgliteDir?: string;
  /** an already open PGlite (tests load a migrated template into one) */
  pglite?: PGlite;
  /** the prepared folder a new PGlite folder is copied from, instead of an initdb (pglite.ts) */
  pgliteTemplate?: () => Promise<string>;
  /** postgres.js pool size */
  maxConnections?: number;
  /**
   * named prepared statements for every query (default true): one round trip per query
   * instead of two (an unprepared query with parameters is described first). false for a
   * pooler in transaction mode, which can't keep a statement between transactions.
   */
  prepare?: boolean;
  /** told of each statement sent (postgres only): the statement-budget tests count them */
  onStatement?: (sql: string) => void;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      max: options.maxConnections ?? 10,
      prepare: options.prepare ?? true,
      onStatement: options.onStatement,
    });
  }
  if (options.pglite) return wrapPglite(options.pglite);
  const dir = options.pgliteDir ?? "./data/pglite";
  const { pglite, release } = await openPgliteFolder(dir, options.pgliteTemplate);
  return wrapPglite(pglite, release);
}

function wrapPglite(client: PGlite, release: () => void = () => {}): DatabaseHandle {
  // drizzle's pglite and postgres-js databases share PgDatabase; only the result HKT differs
  const db = drizzlePglite(drizzleView(client), { schema }) as unknown as Database;
  return {
    kind: "pglite",
    db,
    // in-process: no round trips to count
    statements: 0,
    connectionString: undefined,
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const res = await client.query<Record<string, unknown>>(text, values, PGLITE_OWN_PARSERS);
        return { rows: res.rows };
      }
      // pg-boss sends multi-statement scripts without parameters: exec runs them all
      const results = await client.exec(text, PGLITE_OWN_PARSERS);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    async ping() {
      await client.query("select 1");
    },
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
    },
    // one process owns a PGlite folder: nothing to serialise with
    exclusive: (work) => work(),
    async listen(channel, onNotify) {
      const stop = await client.listen(channel, () => onNotify());
      return async () => {
        if (!client.closed) await stop();
      };
    },
    async close() {
      if (!client.closed) await client.close();
      release();
    },
  };
}

type Sql = postgres.Sql;

/**
 * the client as drizzle should see it: every query prepared. drizzle's postgres-js driver
 * asks for a named statement only for its own .prepare(name) queries and sends the rest
 * unnamed, which postgres.js describes first (a round trip before each query that has
 * parameters). Named, a statement is described once per connection and reused.
 */
function preparing(client: Sql): Sql {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === "unsafe") {
        return (query: string, params?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(query, params as postgres.ParameterOrJSON<never>[], {
            ...options,
            prepare: true,
          });
      }
      if (key === "begin") {
        // a transaction's queries go through the transaction's own client: prepared too
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const work = args[last] as (tx: Sql) => unknown;
          args[last] = (tx: Sql) => work(preparing(tx));
          return (target.begin as (...a: unknown[]) => unknown)(...args);
        };
      }
      if (key === "savepoint") {
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const work = args[last] as (tx: Sql) => unknown;
          args[last] = (tx: Sql) => work(preparing(tx));
          return (target as unknown as { savepoint: (...a: unknown[]) => unknown }).savepoint(
            ...args,
          );
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

function openPostgres(
  url: string,
  o: { max: number; prepare: boolean; onStatement: ((sql: string) => void) | undefined },
): DatabaseHandle {
  let statements = 0;
  const client = connectPostgres(url, {
    max: o.max,
    prepare: o.prepare,
    onnotice: () => {},
    debug: (_connection: number, sql: string) => {
      statements += 1;
      o.onStatement?.(sql);
    },
  });
  const db = drizzlePostgres(o.prepare ? preparing(client) : client, {
    schema,
  }) as unknown as Database;
  return {
    kind: "postgres",
    db,
    get statements() {
      return statements;
    },
    connectionString: url,
    async executeSql(text, values) {
      const rows = await client.unsafe(text, (values ?? []) as postgres.ParameterOrJSON<never>[]);
      return { rows: [...rows] as Record<string, unknown>[] };
    },
    async ping() {
      await client`select 1`;
    },
    async migrate() {
      const conn = connectPostgres(url, { max: 1, onnotice: () => {} });
      try {
        await conn`select pg_advisory_lock(${MIGRATION_LOCK})`;
        await migratePostgres(drizzlePostgres(conn), { migrationsFolder: MIGRATIONS_FOLDER });
        await conn`select pg_advisory_unlock(${MIGRATION_LOCK})`;
      } finally {
        await conn.end({ timeout: 5 });
      }
    },
    async exclusive(work) {
      // a session lock on a connection of its own: the work itself uses other connections
      const conn = connectPostgres(url, { max: 1, onnotice: () => {} });
      try {
        await conn`select pg_advisory_lock(${SETUP_LOCK})`;
        return await work();
      } finally {
        // closing the session releases the lock, also when the work failed
        await conn.end({ timeout: 5 });
      }
    },
    async listen(channel, onNotify) {
      // postgres.js keeps one extra connection for all listeners, and re-listens after a reconnect
      const { unlisten } = await client.listen(channel, () => onNotify());
      return unlisten;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}
