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
// And the bot answering: `npm start` on a new PGlite folder, a /start sent through the
// playground's local Bot API server (its control API, as the chat page sends it) as soon as
// that server takes it, until the bot's first reply is in the chat (goal ≤ 2.5 s from the
// launch); then kios's RSS once settled (sampled every 500 ms until it moves < 2 MiB in 2 s,
// at most 20 s; goal ≤ 250 MiB).
// run: npx tsx bench/cold-start.ts [--reps 3] [--reply-only]
//      PostgreSQL from BENCH_DATABASE_URL (default the local server)

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { PLAYGROUND_CUSTOMER } from "../src/playground/mode.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { metricsListener, printStatementsNote, readStatements } from "./statements.ts";
import { median, printTable } from "./table.ts";

const { values } = parseArgs({
  options: {
    reps: { type: "string", default: "3" },
    "reply-only": { type: "boolean", default: false },
  },
});
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

interface Reply {
  /** launch → the control API took the /start */
  sentMs: number;
  /** launch → the bot's first message in the chat */
  replyMs: number;
  /** kios's RSS once settled after the reply, and its peak */
  settledMiB: number;
  peakMiB: number;
  settleS: number;
}

/** the process under `pid` (npm → sh → node) that runs bin/kios.js */
function kiosPid(pid: number): number | undefined {
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    try {
      // node itself, not the shell npm runs it in (whose command line names it too)
      const argv = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0");
      if (/(^|\/)node$/.test(argv[0]!) && argv.includes("bin/kios.js")) return p;
      const children = readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim();
      if (children) queue.push(...children.split(/\s+/).map(Number));
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** `npm start` (new PGlite folder) → the bot's first reply to /start; then settled RSS */
async function firstReply(): Promise<Reply> {
  const dir = mkdtempSync(join(tmpdir(), "kios-reply-"));
  const base = `http://127.0.0.1:${PORT}/control`;
  const user = PLAYGROUND_CUSTOMER.id;
  const started = performance.now();
  // its own process group, so the stop reaches node under npm as Ctrl-C would
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...baseEnv, PORT: String(PORT), PGLITE_DIR: join(dir, "data") },
    stdio: "ignore",
    detached: true,
  });
  const alive = () => {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}`);
    if (performance.now() - started > 120_000) throw new Error("npm start: no reply in 120 s");
  };
  try {
    for (;;) {
      alive();
      const sent = await fetch(`${base}/send`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ user_id: user, text: "/start" }),
      })
        .then((r) => r.ok)
        .catch(() => false);
      if (sent) break;
      await sleep(20);
    }
    const sentMs = performance.now() - started;
    for (;;) {
      alive();
      const body = (await fetch(`${base}/chats/${user}/messages`)
        .then((r) => r.json())
        .catch(() => undefined)) as { result?: { messages: { sender: string }[] } } | undefined;
      if (body?.result?.messages.some((m) => m.sender === "bot")) break;
      await sleep(20);
    }
    const replyMs = performance.now() - started;
    const pid = kiosPid(child.pid!);
    if (pid === undefined) throw new Error("no bin/kios.js process under npm start");
    const samples: number[] = [];
    const settling = performance.now();
    for (;;) {
      samples.push(memoryOf(pid).rss);
      const last = samples.slice(-5);
      const settled = last.length === 5 && Math.max(...last) - Math.min(...last) < 2;
      if (settled || performance.now() - settling > 20_000) break;
      await sleep(500);
    }
    return {
      sentMs,
      replyMs,
      settledMiB: samples.at(-1)!,
      peakMiB: memoryOf(pid).peak,
      settleS: (performance.now() - settling) / 1000,
    };
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid!, "SIGINT");
      const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 8_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

function printReplies(replies: Reply[]): void {
  const ms = median(replies.map((r) => r.replyMs));
  const rss = median(replies.map((r) => r.settledMiB));
  printTable(
    `npm start (new PGlite folder) → the bot's first reply to /start through the local Bot API server (medians of ${replies.length})`,
    ["/start taken", "first reply", "RSS settled MiB", "peak MiB", "settled after", "goal", "met"],
    [
      [
        `${(median(replies.map((r) => r.sentMs)) / 1000).toFixed(2)} s`,
        `${(ms / 1000).toFixed(2)} s`,
        rss.toFixed(0),
        median(replies.map((r) => r.peakMiB)).toFixed(0),
        `${median(replies.map((r) => r.settleS)).toFixed(1)} s`,
        "reply ≤ 2.5 s, RSS ≤ 250 MiB",
        `${ms <= 2_500 ? "reply met" : "reply not met"}, ${rss <= 250 ? "memory met" : "memory not met"}`,
      ],
    ],
  );
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

const replies: Reply[] = [];
if (values["reply-only"]) {
  for (let rep = 0; rep < REPS; rep++) replies.push(await firstReply());
  printReplies(replies);
  process.exit(0);
}

const runs = new Map<string, Launch[]>();
const record = (key: string, l: Launch) => runs.set(key, [...(runs.get(key) ?? []), l]);
for (let rep = 0; rep < REPS; rep++) {
  record("bare", await bareHono());
  const [fresh, again] = await pglite();
  record("pglite new", fresh);
  record("pglite again", again);
  record("postgres new", await postgresql());
  record("postgres source", await postgresql({ KIOS_FROM_SOURCE: "1" }));
  replies.push(await firstReply());
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
printReplies(replies);
