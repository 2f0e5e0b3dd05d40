import { freePort } from "@kios/kit";

// the statements kios processes send to PostgreSQL, read from each one's metrics listener
// (kios_db_statements_total: what the process's own client sent; pg-boss keeps a pool of its
// own, which is not counted), so a benchmark can print statements per unit of work beside
// its time. An in-process benchmark reads its DatabaseHandle's `statements` instead.

const METRIC = "kios_db_statements_total";

/** the counter's value in a Prometheus text page; throws when the page has none */
export function parseStatements(page: string): number {
  const m = new RegExp(`^${METRIC} (\\d+(?:\\.\\d+)?(?:e\\+?\\d+)?)$`, "m").exec(page);
  if (!m) {
    throw new Error(
      `no ${METRIC} on the metrics page (only a kios process on PostgreSQL counts its statements)`,
    );
  }
  return Number(m[1]);
}

/** one process's counter, read now from its metrics listener (`http://host:port`) */
export async function readStatements(metricsUrl: string): Promise<number> {
  const res = await fetch(`${metricsUrl}/metrics`);
  const page = await res.text();
  if (!res.ok) throw new Error(`${metricsUrl}/metrics answered ${res.status}`);
  return parseStatements(page);
}

/** the settings that give a spawned kios process a metrics listener at a port chosen here */
export async function metricsListener(): Promise<{ env: Record<string, string>; url: string }> {
  const port = await freePort();
  return {
    env: { METRICS_PORT: String(port), METRICS_HOST: "127.0.0.1" },
    url: `http://127.0.0.1:${port}`,
  };
}

export interface StatementWindow {
  /** the statements the processes sent since the window opened, summed */
  close(): Promise<number>;
}

/**
 * opens a window on the statements of the processes listening at `metricsUrls`. A scrape
 * costs statements of its own (the gauges read at scrape time: open orders, the last balance
 * check, the inbox), sent after the counter was read, so the opening scrape's land inside
 * the window: each process's scrape cost is measured first (the fewest statements between
 * back-to-back scrapes; anything else the process does only adds to a gap) and taken out.
 */
export async function openStatementWindow(
  metricsUrls: readonly string[],
): Promise<StatementWindow> {
  const opened = await Promise.all(
    metricsUrls.map(async (url) => {
      const reads = [await readStatements(url)];
      for (let i = 0; i < 3; i++) reads.push(await readStatements(url));
      const gaps = reads.slice(1).map((r, i) => r - reads[i]!);
      return { url, at: reads.at(-1)!, scrapeCost: Math.min(...gaps) };
    }),
  );
  return {
    async close() {
      const counts = await Promise.all(
        opened.map(async (p) => (await readStatements(p.url)) - p.at - p.scrapeCost),
      );
      return counts.reduce((a, b) => a + b, 0);
    },
  };
}

/** statements per unit of work, as a table prints it */
export function perUnit(statements: number, units: number): string {
  if (units <= 0 || !Number.isFinite(statements)) return "—";
  const each = statements / units;
  return each.toFixed(each < 10 ? 2 : 1);
}

/** the note under a table with a statements column: what was counted, over which window */
export function printStatementsNote(window: string): void {
  console.log(
    `statements: sent to PostgreSQL by kios's own client (the count kios_db_statements_total shows), ${window}; pg-boss's own pool is not counted`,
  );
}
