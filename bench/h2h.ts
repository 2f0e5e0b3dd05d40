// signed H2H orders answered/s: kios's real POST /h2h/v1/order (the reseller's signature
// checked, the order stored with its hold, sent to the supplier, settled, answered) in real
// kios processes on PostgreSQL (`--processes`: 1 is one process of role all; 2 adds a web
// process, and the resellers are dealt between their ports), from `--resellers` resellers at
// once, each over its own keep-alive connection with its own key, as many shops' servers
// would call. The supplier is the sandbox in a process of its own (a supplier is another
// machine: its CPU is not kios's), answering at once and, for each of `--supplier-ms`, that
// long after each request (a supplier across a network). Each kios run also prints the CPU
// its processes used per order (from /proc), and PostgreSQL's backends' for the database. For reference, the supplier-report route's floor of bench/reports.ts
// (bench/bare-hono.ts --mode reports-db: verify a signature, INSERT once), under the same
// concurrency: the ratio says how far an H2H order, which does a purchase's whole work
// (several transactions and an upstream call), stands from the least a signed route must do.
// Every order must be answered ORDER_SUCCESS and stored once, or the run fails. Medians of
// `--reps` runs, fresh databases and processes each; which side goes first alternates.
// run: npx tsx bench/h2h.ts [--orders 1000] [--resellers 50] [--reps 1] [--warmup 100]
//      [--processes 1,2] [--supplier-ms 0,50] [--builds before=/tmp/kios-before,after=.];
//      --builds runs each side with each named checkout's bin/kios.js (its dist/ built), in
//      the same run and interleaved: a change's before and after on the same machine load;
//      KIOS_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/h2hprof" profiles the kios processes;
//      DATABASE_POOL_SIZE is handed to them when set;
//      PostgreSQL from BENCH_DATABASE_URL (default the local server)

import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_BOT } from "@kios/bot-api-server";
import {
  CALLBACK_SIGNATURE_HEADER,
  CALLBACK_TIMESTAMP_HEADER,
  freePort,
  signCallback,
  signedBody,
} from "@kios/kit";
import { DEFAULT_SANDBOX_CREDENTIALS } from "@kios/supplier-sandbox";
import { eq } from "drizzle-orm";
import { createSecretBox } from "../src/commerce/h2h/cipher.ts";
import { createKey, type IssuedKey } from "../src/commerce/h2h/keys.ts";
import { setTier } from "../src/commerce/users.ts";
import { creditWallet } from "../src/commerce/wallet/ledger.ts";
import { type DatabaseHandle, openDatabase } from "../src/db/client.ts";
import { connectPostgres } from "../src/db/postgres-target.ts";
import { products } from "../src/db/schema.ts";
import { kiosProcess } from "../test/campaign/processes.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { startBareHono } from "./bare-hono.ts";
import { cpuSecondsOf, cpuShares, sampleCpu } from "./cpu.ts";
import { startSandboxProcess } from "./sandbox-process.ts";
import { metricsListener, openStatementWindow } from "./statements.ts";
import { median, percentile, printTable } from "./table.ts";
import { startBenchTelegram } from "./telegram.ts";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "1000" },
    resellers: { type: "string", default: "50" },
    reps: { type: "string", default: "1" },
    warmup: { type: "string", default: "100" },
    processes: { type: "string", default: "1,2" },
    "supplier-ms": { type: "string", default: "0,50" },
    builds: { type: "string", default: "" },
  },
});
const listOf = (text: string, name: string) =>
  text.split(",").map((v) => {
    const n = Number(v);
    if (!(Number.isInteger(n) && n >= 0)) throw new Error(`--${name}: ${text}`);
    return n;
  });
const PROCESSES = listOf(values.processes, "processes");
const SUPPLIER_MS = listOf(values["supplier-ms"], "supplier-ms");
/** name=checkout pairs; none: this checkout only, unnamed */
const BUILDS: { name: string; bin: string | undefined }[] =
  values.builds === ""
    ? [{ name: "", bin: undefined }]
    : values.builds.split(",").map((pair) => {
        const [name, dir] = pair.split("=");
        if (!name || !dir) throw new Error(`--builds: ${pair} (want name=checkout)`);
        return { name, bin: join(resolve(dir), "bin", "kios.js") };
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
  /** kios's processes' CPU per order, ms (kios runs only) */
  cpuMs?: number;
  /** the database's PostgreSQL backends' CPU per order, ms */
  pgMs?: number;
  /** statements kios's processes sent per order */
  statements?: number;
}

/** each lane is one reseller on one keep-alive connection, posting its share in turn (lane i to urls[i % n]) */
async function fire(
  urls: string | string[],
  lanes: Shot[][],
  expect: (status: number, body: string) => boolean,
): Promise<Run> {
  const latencies: number[] = [];
  let bad = 0;
  let firstBad = "";
  const started = performance.now();
  await Promise.all(
    lanes.map(async (shots, lane) => {
      const url = typeof urls === "string" ? urls : urls[lane % urls.length]!;
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
  run: (url: string, count: (table: string) => Promise<number>, name: string) => Promise<T>,
): Promise<T> {
  const name = `kios_bench_${randomBytes(5).toString("hex")}`;
  const admin = connectPostgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(SERVER_URL, name);
  const db = connectPostgres(url, { max: 1, onnotice: () => {} });
  const count = async (table: string) => {
    const [row] = await db.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`);
    return row?.n ?? 0;
  };
  try {
    return await run(url, count, name);
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

interface Side {
  processes: number;
  supplierMs: number;
  build: { name: string; bin: string | undefined };
}

const sideName = (s: Side) =>
  `kios${s.build.name ? ` ${s.build.name}` : ""}, ${s.processes} process${s.processes > 1 ? "es" : ""}, supplier ${s.supplierMs === 0 ? "instant" : `${s.supplierMs} ms`}`;

async function kios(side: Side, rep: number, logDir: string): Promise<Run> {
  return withFreshDatabase(async (url, count, name) => {
    const supplier = await startSandboxProcess({
      settleDelayMs: 2000,
      rateLimitPerSecond: 1_000_000,
      replyDelayMs: side.supplierMs,
      balance: 1_000_000_000_000,
    });
    const telegram = await startBenchTelegram({ latencyMs: 0 });
    const ports = await Promise.all(Array.from({ length: side.processes }, () => freePort()));
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_URL: url,
      BOT_TOKEN: DEFAULT_BOT.token,
      TELEGRAM_API_ROOT: telegram.url,
      BOT_MODE: "polling",
      HOST: "127.0.0.1",
      SUPPLIER_BASE_URL: supplier.url,
      SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
      SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
      SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
      H2H_ENCRYPTION_KEY: H2H_KEY,
      PAYMENT_GATEWAY: "none",
      LOG_LEVEL: "info",
      // the pool size to measure with, when given (default kios's own)
      ...(process.env.DATABASE_POOL_SIZE
        ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE }
        : {}),
    };
    // the first process migrates, syncs the catalogue and runs the jobs and the bot; the
    // others serve HTTP (the H2H API) beside it
    const listeners = await Promise.all(ports.map(() => metricsListener()));
    const procs = ports.map((port, i) =>
      kiosProcess({
        role: i === 0 ? "all" : "web",
        env: { ...env, PORT: String(port), ...listeners[i]!.env },
        logPath: join(
          logDir,
          `${side.build.name || "kios"}-p${side.processes}-s${side.supplierMs}-rep${rep}-${i}.log`,
        ),
        nodeArgs: process.env.KIOS_NODE_ARGS?.split(" ").filter(Boolean),
        ...(side.build.bin ? { bin: side.build.bin } : {}),
      }),
    );
    const handle = await openDatabase({ databaseUrl: url, maxConnections: 2 });
    try {
      for (const p of procs) await p.start(120_000);
      await productListed(handle, "TSEL10");
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
      const targets = ports.map((port) => `http://127.0.0.1:${port}/h2h/v1/order`);
      const ok = (status: number, body: string) =>
        status === 200 && body.includes('"ORDER_SUCCESS"');
      if (WARMUP > 0) await fire(targets, orderShots(keys, `W${rep}`, WARMUP), ok);
      const pids = procs.map((p) => p.pid!);
      const cpuBefore = pids.map((pid) => cpuSecondsOf(pid) ?? 0);
      const window = await openStatementWindow(listeners.map((l) => l.url));
      const pgBefore = sampleCpu(name);
      const run = await fire(targets, orderShots(keys, `R${rep}`, ORDERS), ok);
      const pgShare = cpuShares(pgBefore, sampleCpu(name)).get("postgres");
      const used = pids.reduce((sum, pid, i) => sum + (cpuSecondsOf(pid) ?? 0) - cpuBefore[i]!, 0);
      // what settles after the answer (the notification's drain) lands in the count too
      const statements = await window.close();
      const stored = await count("orders");
      if (stored !== WARMUP + ORDERS)
        throw new Error(`kios stored ${stored} orders for ${WARMUP + ORDERS} answered`);
      const seconds = ORDERS / run.perSecond;
      return {
        ...run,
        cpuMs: (1000 * used) / ORDERS,
        statements: statements / ORDERS,
        ...(pgShare === undefined ? {} : { pgMs: (10 * pgShare * seconds) / ORDERS }),
      };
    } finally {
      await handle.close();
      for (const p of procs.toReversed()) await p.stop();
      await telegram.close();
      await supplier.close();
    }
  });
}

/** waits until the first catalogue sync listed this product */
async function productListed(handle: DatabaseHandle, code: string): Promise<void> {
  const end = Date.now() + 120_000;
  for (;;) {
    const found = await handle.db.select().from(products).where(eq(products.code, code));
    if (found.length > 0) return;
    if (Date.now() > end) throw new Error(`${code} was not listed within 120 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
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
// each build beside the other for every combination, so a before and an after stand together
const sides: Side[] = SUPPLIER_MS.flatMap((supplierMs) =>
  PROCESSES.flatMap((processes) => BUILDS.map((build) => ({ processes, supplierMs, build }))),
);
const kiosRuns: Run[][] = sides.map(() => []);
const floorRuns: Run[] = [];
for (let rep = 0; rep < REPS; rep++) {
  // the floor between the kios sides, alternating where it stands
  // odd repetitions run the sides in reverse: neither build always goes first
  const order = sides.map((_, i) => i);
  if (rep % 2 === 1) order.reverse();
  const floorAt = rep % 2 === 0 ? Math.floor(order.length / 2) : 0;
  for (const [at, i] of order.entries()) {
    if (at === floorAt) floorRuns.push(await floor(rep));
    kiosRuns[i]!.push(await kios(sides[i]!, rep, logDir));
    const r = kiosRuns[i]!.at(-1)!;
    process.stderr.write(
      `rep ${rep + 1}/${REPS} ${sideName(sides[i]!)}: ${r.perSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(0)} ms, ${r.cpuMs?.toFixed(2)} ms CPU/order\n`,
    );
  }
  process.stderr.write(
    `rep ${rep + 1}/${REPS} floor: ${floorRuns.at(-1)!.perSecond.toFixed(0)}/s\n`,
  );
}
const f = median(floorRuns.map((r) => r.perSecond));
const lat = (runs: Run[]) =>
  `${median(runs.map((r) => r.p50)).toFixed(1)} / ${median(runs.map((r) => r.p99)).toFixed(1)}`;
const ms = (runs: Run[], pick: (r: Run) => number | undefined) => {
  const values = runs.flatMap((r) => (pick(r) === undefined ? [] : [pick(r)!]));
  return values.length > 0 ? median(values).toFixed(2) : "";
};
const oneProcess = (s: Side) =>
  sides.findIndex(
    (o) => o.supplierMs === s.supplierMs && o.processes === 1 && o.build.name === s.build.name,
  );
printTable(
  `signed H2H orders answered/s: ${ORDERS} orders (after ${WARMUP} warm-up) from ${RESELLERS} resellers, each on its own keep-alive connection; kios on PostgreSQL, every order stored, held, bought from the sandbox (its own process), settled and answered; the floor verifies a signature and INSERTs once; latency in ms, CPU in ms per order; medians of ${REPS}`,
  [
    "side",
    "orders/s",
    "÷ floor",
    "÷ 1 process",
    "p50 / p99",
    "kios CPU/order",
    "PostgreSQL CPU/order",
    "statements/order",
    "goal",
  ],
  [
    ...sides.map((side, i) => {
      const runs = kiosRuns[i]!;
      const k = median(runs.map((r) => r.perSecond));
      const one = oneProcess(side);
      const base = one >= 0 ? median(kiosRuns[one]!.map((r) => r.perSecond)) : Number.NaN;
      return [
        sideName(side),
        k.toFixed(0),
        (k / f).toFixed(3),
        Number.isNaN(base) ? "" : (k / base).toFixed(2),
        lat(runs),
        ms(runs, (r) => r.cpuMs),
        ms(runs, (r) => r.pgMs),
        ms(runs, (r) => r.statements),
        side.processes === 1 ? "≥ 0.1 of the floor, ≤ 3 ms" : "≥ 1 process",
      ];
    }),
    ["floor (signed report stored)", f.toFixed(0), "1", "", lat(floorRuns), "", "", "1", ""],
  ],
);
process.stdout.write(`logs: ${logDir}\n`);
