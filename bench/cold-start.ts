// cold start and memory: `kios start` (the default configuration: no bot token, so the
// playground; no supplier credentials, so the embedded sandbox) from its launch until
// /healthz answers 200, and its resident memory once up (VmRSS a second after, and the peak,
// VmHWM), on a new PGlite folder, on that folder again, and on a new PostgreSQL database;
// against a bare Hono server's launch in the same run. Interleaved repetitions; medians.
// The rows start the bundle `npm install` builds; one row starts the TypeScript sources through
// tsx, as an edited checkout does, to show what the bundle saves. On PostgreSQL, the
// statements the start sent through kios's own client until /healthz answered 200 (its
// kios_db_statements_total read then; the migrations' connection, the set-up lock's and
// pg-boss's own pool are not counted; the 200's own health check is).
// run: npx tsx bench/cold-start.ts [--reps 3]
//      PostgreSQL from BENCH_DATABASE_URL (default the local server)

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { metricsListener, printStatementsNote, readStatements } from "./statements.ts";
import { median, printTable } from "./table.ts";

const { values } = parseArgs({ options: { reps: { type: "string", default: "3" } } });
const REPS = Number(values.reps);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Launch {
  readyMs: number;
  rssMiB: number;
  peakMiB: number;
  /** statements sent until /healthz answered 200 (kios on PostgreSQL only) */
  statements?: number;
}

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 6_000);
  await exited;
  clearTimeout(timer);
}

/**
 * starts `args`, polls http://127.0.0.1:port/<path> until 200, reads its statement count
 * (`metricsUrl`: its metrics listener) and its memory, stops it
 */
async function launch(
  args: string[],
  env: Record<string, string>,
  port: number,
  path: string,
  metricsUrl?: string,
) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: "ignore" });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}${path}`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error(`${args.join(" ")}: no 200`);
      await sleep(20);
    }
    const readyMs = performance.now() - started;
    // read at once: a scrape's own statements go out after it read the count
    const statements = metricsUrl === undefined ? undefined : await readStatements(metricsUrl);
    // the memory it keeps, once the start's garbage had a moment to go
    await sleep(1_000);
    const { rss, peak } = memoryOf(child.pid!);
    return { readyMs, rssMiB: rss, peakMiB: peak, statements } satisfies Launch;
  } finally {
    await stop(child);
  }
}

const PORT = 18_000 + Math.floor(Math.random() * 1_000);
const baseEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "warn" };
const kiosArgs = ["bin/kios.js", "start"];

const BARE_HONO = `
  const { Hono } = await import("hono");
  const { serve } = await import("@hono/node-server");
  const app = new Hono().get("/healthz", (c) => c.json({ ok: true }));
  serve({ fetch: app.fetch, port: Number(process.env.PORT) });
`;

async function bareHono(): Promise<Launch> {
  return launch(
    ["--input-type=module", "-e", BARE_HONO],
    { ...baseEnv, PORT: String(PORT) },
    PORT,
    "/healthz",
  );
}

async function pglite(): Promise<[Launch, Launch]> {
  const dir = mkdtempSync(join(tmpdir(), "kios-cold-"));
  try {
    const env = { ...baseEnv, PORT: String(PORT), PGLITE_DIR: join(dir, "data") };
    const fresh = await launch(kiosArgs, env, PORT, "/healthz");
    const again = await launch(kiosArgs, env, PORT, "/healthz");
    return [fresh, again];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresql(extra: Record<string, string> = {}): Promise<Launch> {
  const name = `kios_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  try {
    const metrics = await metricsListener();
    const env = {
      ...baseEnv,
      ...extra,
      ...metrics.env,
      PORT: String(PORT),
      DATABASE_URL: withDatabase(SERVER_URL, name),
    };
    return await launch(kiosArgs, env, PORT, "/healthz", metrics.url);
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

// `npm install` (prepare) bundles kios and builds the embedded database's template; make sure
// both are current, so the rows measure what a fresh install starts
const build = spawn(process.execPath, ["bin/build.js"], { cwd: ROOT, stdio: "inherit" });
await new Promise((r) => build.once("exit", r));
const template = spawn(process.execPath, ["bin/kios.js", "migrate", "--pglite-template"], {
  cwd: ROOT,
  stdio: "ignore",
});
await new Promise((r) => template.once("exit", r));

const runs = new Map<string, Launch[]>();
const record = (key: string, l: Launch) => runs.set(key, [...(runs.get(key) ?? []), l]);
for (let rep = 0; rep < REPS; rep++) {
  record("bare", await bareHono());
  const [fresh, again] = await pglite();
  record("pglite new", fresh);
  record("pglite again", again);
  record("postgres new", await postgresql());
  record("postgres source", await postgresql({ KIOS_FROM_SOURCE: "1" }));
  process.stderr.write(`rep ${rep + 1}/${REPS} done\n`);
}

const med = (key: string, f: (l: Launch) => number) => median(runs.get(key)!.map(f));
const bareMs = med("bare", (l) => l.readyMs);
const row = (
  label: string,
  key: string,
  goalS: number | undefined,
  goalMiB: number | undefined,
) => {
  const ms = med(key, (l) => l.readyMs);
  const rss = med(key, (l) => l.rssMiB);
  const met =
    goalS === undefined || goalMiB === undefined
      ? ""
      : ms <= goalS * 1000 && rss <= goalMiB
        ? "yes"
        : "no";
  const counted = runs.get(key)!.flatMap((l) => (l.statements === undefined ? [] : [l.statements]));
  return [
    label,
    (ms / 1000).toFixed(2),
    counted.length === 0 ? "—" : median(counted).toFixed(0),
    (bareMs / 1000).toFixed(2),
    (ms / bareMs).toFixed(1),
    rss.toFixed(0),
    med(key, (l) => l.peakMiB).toFixed(0),
    goalS === undefined ? "" : `≤ ${goalS} s${goalMiB === undefined ? "" : `, ≤ ${goalMiB} MiB`}`,
    met,
  ];
};
printTable(
  `kios start → /healthz 200, and memory once up (default configuration; medians of ${REPS})`,
  ["start", "seconds", "statements", "bare Hono", "ratio", "RSS MiB", "peak MiB", "goal", "met"],
  [
    row("PGlite, new folder", "pglite new", 2.5, 250),
    row("PGlite, the same folder again", "pglite again", undefined, undefined),
    row("PostgreSQL, new database", "postgres new", 3, 200),
    row("PostgreSQL, from the sources (tsx, no bundle)", "postgres source", undefined, undefined),
    row("bare Hono (baseline)", "bare", undefined, undefined),
  ],
);
printStatementsNote(
  "from the launch until /healthz answered 200 (PostgreSQL only: on PGlite nothing goes over a wire), migrations' and the set-up lock's own connections apart",
);
