import { listen, type RunningServer } from "@kios/kit";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openStatementWindow,
  parseStatements,
  perUnit,
  readStatements,
} from "../../bench/statements.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";

// the benchmarks' statement counts: read from each kios process's metrics listener, the
// scrapes' own statements taken out, summed over processes.

/**
 * a process as its metrics listener shows it: `work` statements when told, and `scrapeCost`
 * more after each scrape has read the count (as kios's scrape-time gauges query)
 */
async function fakeProcess(scrapeCost: number) {
  let count = 1_000;
  const app = new Hono().get("/metrics", (c) => {
    const page = `# HELP kios_db_statements_total x\n# TYPE kios_db_statements_total counter\nkios_db_statements_total ${count}\n`;
    count += scrapeCost;
    return c.text(page);
  });
  const server = await listen(app, 0, "127.0.0.1");
  return {
    server,
    url: `http://127.0.0.1:${server.port}`,
    work(n: number) {
      count += n;
    },
  };
}

describe("the statements a benchmark counts", () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it("reads the counter off a metrics page, and says so when there is none", () => {
    expect(parseStatements("kios_updates_total 3\nkios_db_statements_total 1234\nkios_x 1\n")).toBe(
      1234,
    );
    expect(() => parseStatements("kios_updates_total 3\n")).toThrow(
      /no kios_db_statements_total .*only a kios process on PostgreSQL/,
    );
  });

  it("sums the processes' work, each one's scrapes taken out", async () => {
    const web = await fakeProcess(2);
    const worker = await fakeProcess(3);
    servers.push(web.server, worker.server);
    const window = await openStatementWindow([web.url, worker.url]);
    web.work(7);
    worker.work(40);
    expect(await window.close()).toBe(47);
  });

  it("prints per unit, and a dash for no units", () => {
    expect(perUnit(47, 10)).toBe("4.70");
    expect(perUnit(470, 10)).toBe("47.0");
    expect(perUnit(5, 0)).toBe("—");
  });
});

describe(`a kios process's statements, counted from outside (${testDriver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ role: "web", env: { METRICS_PORT: "0" } });
  });
  afterAll(() => t.stop());

  if (testDriver === "postgres") {
    it("counts exactly the statements sent between the window's ends", async () => {
      const window = await openStatementWindow([t.metricsUrl]);
      for (let i = 0; i < 5; i++) await t.app.database.db.execute(sql`select 1`);
      expect(await window.close()).toBe(5);
      // and nothing when nothing was sent
      const idle = await openStatementWindow([t.metricsUrl]);
      expect(await idle.close()).toBe(0);
    });
  } else {
    it("has no count to read on PGlite, and says why", async () => {
      await expect(readStatements(t.metricsUrl)).rejects.toThrow(
        /only a kios process on PostgreSQL counts its statements/,
      );
    });
  }
});
