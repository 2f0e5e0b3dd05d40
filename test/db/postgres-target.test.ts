import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { postgresTarget } from "../../src/db/postgres-target.ts";
import { rowsOf } from "../../src/db/sql-rows.ts";
import { createLeases } from "../../src/jobs/lease.ts";
import { testDriver } from "../helpers/db.ts";

/**
 * a Unix socket at <dir>/.s.PGSQL.<port> whose every connection is piped to the test's
 * server over TCP: the socket a same-machine PostgreSQL would have, whatever this one has
 */
async function socketBeside(serverUrl: string, port: number) {
  const dir = mkdtempSync(join(tmpdir(), "kios-pgsock-"));
  const { hostname, port: tcpPort } = new URL(serverUrl);
  const accepted: Socket[] = [];
  const server: Server = createServer((client) => {
    accepted.push(client);
    const upstream = connect(Number(tcpPort || 5432), hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(join(dir, `.s.PGSQL.${port}`), resolve));
  return {
    dir,
    accepted,
    async close() {
      for (const c of accepted) c.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// a DATABASE_URL that names a Unix socket as libpq does (a `host` query parameter naming a
// directory) reaches postgres.js as its `path`, and the parameter is not sent as a setting

describe("postgresTarget", () => {
  it("takes a socket directory from the host parameter, with the URL's port or 5432", () => {
    expect(postgresTarget("postgres://kios@localhost/kios?host=/var/run/postgresql")).toEqual({
      url: "postgres://kios@localhost/kios",
      path: "/var/run/postgresql/.s.PGSQL.5432",
    });
    expect(
      postgresTarget("postgresql://kios:pw@localhost:6432/shop?host=%2Ftmp%2F&sslmode=disable"),
    ).toEqual({
      url: "postgresql://kios:pw@localhost:6432/shop?sslmode=disable",
      path: "/tmp/.s.PGSQL.6432",
    });
  });

  it("takes a host name there for the URL's own, as libpq does", () => {
    expect(postgresTarget("postgres://kios@localhost:5433/kios?host=db2.example")).toEqual({
      url: "postgres://kios@db2.example:5433/kios",
    });
  });

  it("leaves a URL without a host parameter as it is", () => {
    for (const url of [
      "postgres://postgres@127.0.0.1:5432/postgres",
      "postgres://kios@db.example/kios?application_name=kios",
      "not a url",
    ]) {
      expect(postgresTarget(url)).toEqual({ url });
    }
  });

  if (testDriver === "postgres") {
    it("kios's database and its leases connect through the socket the URL names", async () => {
      const serverUrl = process.env.TEST_DATABASE_URL!;
      const socket = await socketBeside(serverUrl, 6543);
      const url = `postgres://postgres@localhost:6543${new URL(serverUrl).pathname}?host=${socket.dir}`;
      const handle = await openDatabase({ databaseUrl: url, maxConnections: 2 });
      const leases = createLeases(handle);
      try {
        const rows = rowsOf<{ one: number }>(await handle.db.execute(sql`select 1 as one`));
        expect(rows).toEqual([{ one: 1 }]);
        const held = await leases.hold(["socket-test"], async () => "ran");
        expect(held).toMatchObject({ held: true, value: "ran" });
        // every connection came through the socket (none could reach port 6543 over TCP)
        expect(socket.accepted.length).toBeGreaterThanOrEqual(2);
      } finally {
        await leases.close();
        await handle.close();
        await socket.close();
      }
    });
  }
});
