// signed H2H orders answered/s: kios's real POST /h2h/v1/order (the reseller's signature
// checked, the order stored with its hold, sent to the supplier, settled, answered) in a real
// kios process (role all, its embedded sandbox as the supplier, PostgreSQL), from `--resellers`
// resellers at once, each over its own keep-alive connection with its own key, as many shops'
// servers would call. For reference, the supplier-report route's floor of bench/reports.ts
// (bench/bare-hono.ts --mode reports-db: verify a signature, INSERT once), under the same
// concurrency: the ratio says how far an H2H order, which does a purchase's whole work
// (several transactions and an upstream call), stands from the least a signed route must do.
// Every order must be answered ORDER_SUCCESS and stored once, or the run fails. Medians of
// `--reps` runs, fresh databases and processes each; which side goes first alternates.
// run: npx tsx bench/h2h.ts [--orders 2000] [--resellers 50] [--reps 2] [--warmup 100];
//      PostgreSQL from BENCH_DATABASE_URL (default the local server)

import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  CALLBACK_SIGNATURE_HEADER,
  CALLBACK_TIMESTAMP_HEADER,
  freePort,
  signCallback,
  signedBody,
} from "@kios/kit";
import postgres from "postgres";
import { createSecretBox } from "../src/commerce/h2h/cipher.ts";
import { createKey, type IssuedKey } from "../src/commerce/h2h/keys.ts";
import { setTier } from "../src/commerce/users.ts";
import { creditWallet } from "../src/commerce/wallet/ledger.ts";
import { openDatabase } from "../src/db/client.ts";
import { kiosProcess } from "../test/campaign/processes.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { startBareHono } from "./bare-hono.ts";
import { median, percentile, printTable } from "./table.ts";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "2000" },
    resellers: { type: "string", default: "50" },
    reps: { type: "string", default: "2" },
    warmup: { type: "string", default: "100" },
  },
});
const ORDERS = Number(values.orders);
const RESELLERS = Number(values.resellers);
const REPS = Number(values.reps);
const WARMUP = Number(values.warmup);
for (const [name, n] of Object.entries({ ORDERS, RESELLERS, REPS })) {
  if (!(Number.isInteger(n) && n > 0)) throw new Error(`--${name.toLowerCase()} must be positive`);
}
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const H2H_KEY = "bench-h2h-encryption-key-0123456789abcdef";
const REPORT_SECRET = "bench-supplier-secret-key";

interface Shot {
  headers: Record<string, string>;
  body: string;
}

interface Run {
  perSecond: number;
  p50: number;
  p99: number;
}

/** each lane is one reseller on one keep-alive connection, posting its share in turn */
async function fire(
  url: string,
  lanes: Shot[][],
  expect: (status: number, body: string) => boolean,
): Promise<Run> {
  const latencies: number[] = [];
  let bad = 0;
  let firstBad = "";
  const started = performance.now();
  await Promise.all(
    lanes.map(async (shots) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (const shot of shots) {
          const t0 = performance.now();
          const { status, body } = await new Promise<{ status: number; body: string }>(
            (resolve, reject) => {
              const req = request(url, { method: "POST", agent, headers: shot.headers }, (res) => {
                let text = "";
                res.setEncoding("utf8");
                res.on("data", (c) => {
                  text += c;
                });
                res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
                res.on("error", reject);
              });
              req.on("error", reject);
              req.end(shot.body);
            },
          );
          latencies.push(performance.now() - t0);
          if (!expect(status, body)) {
            bad += 1;
            firstBad ||= `${status} ${body.slice(0, 200)}`;
          }
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (bad > 0) throw new Error(`${bad} answers were not as expected; first: ${firstBad}`);
  return {
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** `total` shots dealt round-robin to `lanes` lanes */
function deal<T>(items: T[], lanes: number): T[][] {
  const out: T[][] = Array.from({ length: lanes }, () => []);
  for (const [i, item] of items.entries()) out[i % lanes]!.push(item);
  return out;
}

async function withFreshDatabase<T>(
  run: (url: string, count: (table: string) => Promise<number>) => Promise<T>,
): Promise<T> {
  const name = `kios_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(SERVER_URL, name);
  const db = postgres(url, { max: 1, onnotice: () => {} });
  const count = async (table: string) => {
    const [row] = await db.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`);
    return row?.n ?? 0;
  };
  try {
    return await run(url, count);
  } finally {
    await db.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

function orderShots(keys: IssuedKey[], prefix: string, n: number): Shot[][] {
  const lanes = keys.map((key, lane) =>
    Array.from({ length: Math.ceil(n / keys.length) }, (_, i) => {
      // the sandbox answers a number ending in 901 with an immediate success
      const customer = `0812${String(lane).padStart(3, "0")}${String(i % 10).padStart(2, "0")}901`;
      const body = signedBody(key, {
        cmd: "prepaid",
        code: "TSEL10",
        customer_no: customer,
        ref_id: `${prefix}-${lane}-${i}`,
      });
      return { headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
    }),
  );
  return lanes.map((l, i) =>
    l.slice(0, Math.floor(n / keys.length) + (i < n % keys.length ? 1 : 0)),
  );
}

async function kios(rep: number, logDir: string): Promise<Run> {
  return withFreshDatabase(async (url, count) => {
    const port = await freePort();
    const proc = kiosProcess({
      role: "all",
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        DATABASE_URL: url,
        HOST: "127.0.0.1",
        PORT: String(port),
        H2H_ENCRYPTION_KEY: H2H_KEY,
        PAYMENT_GATEWAY: "none",
        LOG_LEVEL: "info",
      },
      logPath: join(logDir, `all-rep${rep}.log`),
    });
    await proc.start(120_000);
    const handle = await openDatabase({ databaseUrl: url, maxConnections: 2 });
    try {
      const box = createSecretBox(H2H_KEY);
      const keys: IssuedKey[] = [];
      for (let i = 0; i < RESELLERS; i++) {
        const userId = 900_000 + i;
        const issued = await createKey(handle.db, box, userId);
        if (!issued.ok) throw new Error(issued.reason);
        await setTier(handle.db, userId, "reseller");
        await creditWallet(handle.db, { userId, amount: 50_000_000, key: `bench:${userId}` });
        keys.push(issued.key);
      }
      const target = `http://127.0.0.1:${port}/h2h/v1/order`;
      const ok = (status: number, body: string) =>
        status === 200 && body.includes('"ORDER_SUCCESS"');
      if (WARMUP > 0) await fire(target, orderShots(keys, `W${rep}`, WARMUP), ok);
      const run = await fire(target, orderShots(keys, `R${rep}`, ORDERS), ok);
      const stored = await count("orders");
      if (stored !== WARMUP + ORDERS)
        throw new Error(`kios stored ${stored} orders for ${WARMUP + ORDERS} answered`);
      return run;
    } finally {
      await handle.close();
      await proc.stop();
    }
  });
}

function reportShots(prefix: string, n: number): Shot[] {
  const timestamp = Math.floor(Date.now() / 1000);
  return Array.from({ length: n }, (_, i) => {
    const body = JSON.stringify({
      event: "transaction.final",
      data: {
        ref_id: `${prefix}${i}`,
        status: "Success",
        customer_no: "081234567890",
        code: "TSEL10",
        price: 10_250,
        sn: `SN${i}`,
      },
    });
    return {
      headers: {
        "content-type": "application/json",
        [CALLBACK_TIMESTAMP_HEADER]: String(timestamp),
        [CALLBACK_SIGNATURE_HEADER]: signCallback(REPORT_SECRET, timestamp, body),
      },
      body,
    };
  });
}

async function floor(rep: number): Promise<Run> {
  return withFreshDatabase(async (url, count) => {
    const server = await startBareHono([
      "--mode",
      "reports-db",
      "--database-url",
      url,
      "--secret",
      REPORT_SECRET,
    ]);
    try {
      const target = `${server.url}/supplier/callback`;
      const ok = (status: number) => status >= 200 && status < 300;
      if (WARMUP > 0) await fire(target, deal(reportShots(`W${rep}-`, WARMUP), RESELLERS), ok);
      const run = await fire(target, deal(reportShots(`R${rep}-`, ORDERS), RESELLERS), ok);
      const stored = await count("bench_reports");
      if (stored !== WARMUP + ORDERS) throw new Error(`the floor stored ${stored} reports`);
      return run;
    } finally {
      await server.stop();
    }
  });
}

const logDir = mkdtempSync(join(tmpdir(), "kios-bench-h2h-"));
const kiosRuns: Run[] = [];
const floorRuns: Run[] = [];
for (let rep = 0; rep < REPS; rep++) {
  if (rep % 2 === 0) {
    kiosRuns.push(await kios(rep, logDir));
    floorRuns.push(await floor(rep));
  } else {
    floorRuns.push(await floor(rep));
    kiosRuns.push(await kios(rep, logDir));
  }
  process.stderr.write(
    `rep ${rep + 1}/${REPS}: kios ${kiosRuns.at(-1)!.perSecond.toFixed(0)}/s, floor ${floorRuns.at(-1)!.perSecond.toFixed(0)}/s\n`,
  );
}
const k = median(kiosRuns.map((r) => r.perSecond));
const f = median(floorRuns.map((r) => r.perSecond));
const lat = (runs: Run[]) =>
  `${median(runs.map((r) => r.p50)).toFixed(1)} / ${median(runs.map((r) => r.p99)).toFixed(1)}`;
printTable(
  `signed H2H orders answered/s: ${ORDERS} orders (after ${WARMUP} warm-up) from ${RESELLERS} resellers, each on its own keep-alive connection; kios: one process (role all) on PostgreSQL, every order stored, held, bought from its embedded sandbox, settled and answered; latency in ms; medians of ${REPS}`,
  ["measure", "kios", "floor (signed report stored)", "ratio", "p50/p99 kios", "p50/p99 floor"],
  [
    [
      "signed H2H orders/s",
      k.toFixed(0),
      f.toFixed(0),
      (k / f).toFixed(2),
      lat(kiosRuns),
      lat(floorRuns),
    ],
  ],
);
process.stdout.write(`logs: ${logDir}\n`);
