import postgres from "postgres";

// Where postgres.js connects for a DATABASE_URL, libpq's way to a Unix socket included:
// `postgres://kios@localhost/kios?host=/var/run/postgresql` names the socket's directory in
// a `host` query parameter, as psql, libpq and pg (pg-boss's driver) read it. postgres.js
// reads a socket only from its `path` option, and sends an unknown query parameter to the
// server as a setting, which refuses `host`. A PostgreSQL on the same machine answers over
// its socket with less of the kernel's work per statement than over TCP's loopback.

/** the URL postgres.js is given, and the socket's path when the URL names one */
export interface PostgresTarget {
  url: string;
  path?: string;
}

export function postgresTarget(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  const host = parsed.searchParams.get("host");
  if (host === null) return { url };
  parsed.searchParams.delete("host");
  if (!host.startsWith("/")) {
    // a host name there stands for the URL's own, as libpq reads it
    parsed.hostname = host;
    return { url: parsed.toString() };
  }
  const port = parsed.port === "" ? "5432" : parsed.port;
  return { url: parsed.toString(), path: `${host.replace(/\/+$/, "")}/.s.PGSQL.${port}` };
}

/** a postgres.js client for a DATABASE_URL (a socket named as libpq names it included) */
// biome-ignore lint/complexity/noBannedTypes: postgres.js's own name for "no custom types"
export function connectPostgres(url: string, options: postgres.Options<{}>): postgres.Sql {
  const target = postgresTarget(url);
  return postgres(
    target.url,
    target.path === undefined ? options : { ...options, path: target.path },
  );
}
