// Pay tap → order request at the supplier: how long after a reseller taps ✅ Bayar on the
// purchase confirmation card the supplier has the order request in hand. kios runs as real
// OS processes on PostgreSQL (webhook mode: a web process storing Telegram's deliveries and a
// worker draining them, as in the Procfile; polling mode: one worker that polls and drains),
// the Bot API is `--latency` ms away (the tap must not wait for those round trips), and the
// sandbox supplier sits behind a front that stamps the arrival of every order request.
// Every reseller is funded and brought to the card through the chat before timing starts;
// then the taps go in at a steady `--rate`, each timed from its injection into the Bot API
// server to the arrival of the order request for its phone number. The baseline is the
// network floor: the same signed order request sent by the bench process itself to the same
// front. A per-stage split (from the inbox's and the order's own timestamps) follows.
// Fresh database, processes, Bot API and sandbox per repetition; medians of the repetitions.
// Statements per Pay (what kios's processes sent to PostgreSQL, their kios_db_statements_total
// summed; pg-boss's own pool apart): the timed taps share their window with the settlements
// of the orders tapped before them (the sandbox settles each `--settle-ms` after it came), so
// the Pay's own statements are counted over `--counted` more taps at the same rate once kios
// has nothing else left to do (every order final and reported, every status check run), from
// the first of them until each one's order request arrived and its update is handled; the
// run says so if a settlement or a status check fell inside after all. The timed window's
// statements per tap, settlements and all, are printed beside them.
// run: npx tsx bench/pay.ts [--resellers 100] [--rate 20] [--latency 80] [--reps 3]
//      [--mode webhook|polling] [--warmup 5] [--concurrency 256] [--settle-ms 2000]
//      [--counted 10] [--checkout /tmp/kios-before]: kios from another checkout (its dist/
//      built), to run a change's before and after one after the other
//      PostgreSQL from BENCH_DATABASE_URL (default the local server);
//      KIOS_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/payprof" profiles the kios processes

import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_BOT, type MessageView } from "@kios/bot-api-server";
import { freePort, listen, systemClock } from "@kios/kit";
import { createSandbox, DEFAULT_SANDBOX_CREDENTIALS } from "@kios/supplier-sandbox";
import { Hono } from "hono";
import postgres from "postgres";
import { setTier } from "../src/commerce/users.ts";
import { creditWallet } from "../src/commerce/wallet/ledger.ts";
import { type DatabaseHandle, openDatabase } from "../src/db/client.ts";
import { createSignatureSupplier } from "../src/supplier/index.ts";
import { type KiosProcess, type KiosRole, kiosProcess } from "../test/campaign/processes.ts";
import { type ChatDriver, createChatDriver } from "../test/helpers/chat-driver.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { cpuSecondsOf } from "./cpu.ts";
import {
  metricsListener,
  openStatementWindow,
  perUnit,
  printStatementsNote,
} from "./statements.ts";
import { median, percentile, printTable } from "./table.ts";
import { type BenchTelegram, startBenchTelegram } from "./telegram.ts";

const { values } = parseArgs({
  options: {
    resellers: { type: "string", default: "100" },
    rate: { type: "string", default: "20" },
    latency: { type: "string", default: "80" },
    reps: { type: "string", default: "3" },
    mode: { type: "string", default: "webhook" },
    warmup: { type: "string", default: "5" },
    concurrency: { type: "string", default: "256" },
    "settle-ms": { type: "string", default: "2000" },
    counted: { type: "string", default: "10" },
    processes: { type: "string", default: "1" },
    checkout: { type: "string", default: "" },
  },
});
/** another checkout's bin/kios.js (its dist/ built): a change's before, run beside its after */
const KIOS_BIN = values.checkout ? join(resolve(values.checkout), "bin", "kios.js") : undefined;
/** the worker processes draining the inbox, where Pays run (webhook mode: beside one web process) */
const PROCESSES = Number(values.processes);
if (!(Number.isInteger(PROCESSES) && PROCESSES > 0))
  throw new Error("--processes must be positive");
const RESELLERS = Number(values.resellers);
const RATE = Number(values.rate);
const LATENCY = Number(values.latency);
const REPS = Number(values.reps);
const WARMUP = Number(values.warmup);
const CONCURRENCY = Number(values.concurrency);
/** the sandbox settles each order this long after it came (its default) */
const SETTLE_MS = Number(values["settle-ms"]);
/** taps counted alone for the Pay's statements, after the timed ones */
const COUNTED = Number(values.counted);
if (values.mode !== "webhook" && values.mode !== "polling") {
  throw new Error(`--mode must be webhook or polling (got ${values.mode})`);
}
const MODE: "webhook" | "polling" = values.mode;
for (const [name, n] of Object.entries({ RESELLERS, RATE, REPS, COUNTED })) {
  if (!(Number.isFinite(n) && n > 0)) throw new Error(`--${name.toLowerCase()} must be positive`);
}
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PRODUCT = "TSEL10";
const FIRST_USER = 8_100_000;
/** how long a repetition waits for other programs to leave the CPU before it times the taps */
const QUIET_WAIT_MS = 30_000;
/** after the last tap, how long a missing order request is waited for */
const ARRIVAL_GRACE_MS = 20_000;
/** how long the counted taps wait for kios to finish the work the timed ones left */
const SETTLED_DOWN_MS = 180_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** a percentile; NaN for no values (every tap lost) */
const pct = (values: readonly number[], p: number) =>
  values.length === 0 ? Number.NaN : percentile(values, p);
/** the bench process's clock as Unix ms, sub-millisecond (to compare with the database's) */
const wall = (perfMs: number) => performance.timeOrigin + perfMs;

/**
 * a phone number per reseller (and one per direct baseline request): Telkomsel (0812…),
 * ending in 0, so never one of the sandbox's special endings (901 … 908)
 */
const phoneOf = (prefix: "08123" | "08129", i: number) => `${prefix}${String(i).padStart(6, "0")}0`;

// ---------------------------------------------------------------- the supplier and its front

interface SupplierFront {
  /** SUPPLIER_BASE_URL */
  url: string;
  /** performance.now() of each order request's arrival, by customer_no */
  arrivals: Map<string, number[]>;
  setCallbackUrl(url: string): void;
  /** every order the sandbox took is final, and reported when reports go out */
  settledDown(): boolean;
  close(): Promise<void>;
}

function customerNoOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const v: unknown = (body as { customer_no?: unknown }).customer_no;
  return typeof v === "string" ? v : undefined;
}

/** the sandbox supplier behind a front that notes when each order request arrives */
async function startSupplierFront(): Promise<SupplierFront> {
  // no throttling: the supplier's rate limit is not what is measured
  const sandbox = createSandbox({ rateLimitPerSecond: 1_000_000, settleDelayMs: SETTLE_MS });
  sandbox.account().setBalance(1_000_000_000);
  const arrivals = new Map<string, number[]>();
  let reporting = false;
  const front = new Hono();
  front.use("/v1/order", async (c, next) => {
    // the moment the request is in hand (its headers parsed), before its body is read
    const at = performance.now();
    if (c.req.method === "POST") {
      try {
        const no = customerNoOf(JSON.parse(await c.req.raw.clone().text()));
        if (no !== undefined) arrivals.set(no, [...(arrivals.get(no) ?? []), at]);
      } catch {
        // not JSON: the sandbox answers it as it would
      }
    }
    await next();
  });
  front.route("/", sandbox.app);
  const running = await listen(front, 0, "127.0.0.1");
  return {
    url: `http://127.0.0.1:${running.port}/v1`,
    arrivals,
    setCallbackUrl: (url) => {
      reporting = true;
      sandbox.account().setCallbackUrl(url);
    },
    settledDown: () =>
      sandbox
        .transactions()
        .every((t) => t.settledAt !== null && (!reporting || t.callbacksDelivered > 0)),
    async close() {
      await sandbox.close();
      await running.close();
    },
  };
}

// ---------------------------------------------------------------- who used the CPU

// a shared machine: whatever else runs during the taps shows up in the latencies, so each
// repetition says who used the CPU meanwhile (from /proc; Linux only, else nothing is said)

/** clock ticks per second of /proc's counters (USER_HZ, 100 on Linux) */
const TICKS_PER_SECOND = 100;
const CPU_GROUPS = ["kios worker", "kios web", "bench (Bot API, supplier)", "postgres"] as const;

interface CpuSample {
  at: number;
  /** busy ticks of the whole machine */
  busy: number;
  /** ticks used so far by each group's processes */
  groups: Map<string, number>;
}

function procStat(pid: string): { comm: string; ppid: number; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    return {
      comm: text.slice(text.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      // utime + stime (fields 14 and 15 of the line)
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return undefined;
  }
}

function groupOf(pid: string, stat: { comm: string; ppid: number }): string | undefined {
  if (Number(pid) === process.pid) return "bench (Bot API, supplier)";
  if (stat.comm === "postgres") return "postgres";
  if (stat.ppid !== process.pid) return undefined;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (!args.some((a) => a.endsWith("kios.js"))) return undefined;
    return `kios ${args[args.indexOf("--role") + 1] ?? "?"}`;
  } catch {
    return undefined;
  }
}

function sampleCpu(): CpuSample | undefined {
  try {
    const [, ...counts] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const n = counts.map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait
    const busy = n.slice(0, 8).reduce((a, b) => a + b, 0) - n[3]! - n[4]!;
    const groups = new Map<string, number>();
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = procStat(pid);
      const group = stat && groupOf(pid, stat);
      if (stat && group) groups.set(group, (groups.get(group) ?? 0) + stat.ticks);
    }
    return { at: performance.now(), busy, groups };
  } catch {
    return undefined;
  }
}

/** % of one core each group used between two samples, and "other" (the rest of the machine) */
function cpuShares(a: CpuSample | undefined, b: CpuSample | undefined): Map<string, number> {
  const shares = new Map<string, number>();
  if (!a || !b) return shares;
  const ticks = ((b.at - a.at) / 1000) * TICKS_PER_SECOND;
  let known = 0;
  for (const g of CPU_GROUPS) {
    const used = (b.groups.get(g) ?? 0) - (a.groups.get(g) ?? 0);
    known += used;
    shares.set(g, (100 * used) / ticks);
  }
  shares.set("other programs", (100 * Math.max(0, b.busy - a.busy - known)) / ticks);
  return shares;
}

/**
 * waits (at most `ms`) until other programs leave the machine alone: less than a quarter of
 * a core over a second; answers whether they did
 */
async function quiet(ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const a = sampleCpu();
    await sleep(1000);
    const others = cpuShares(a, sampleCpu()).get("other programs");
    if (others === undefined || others < 25) return true;
  }
  return false;
}

// ---------------------------------------------------------------- one repetition

interface Reseller {
  id: number;
  phone: string;
  card: MessageView;
  pay: string;
}

interface Tap {
  phone: string;
  /** performance.now() at the injection */
  at: number;
  updateId: number | undefined;
}

// the order is stored submitted, with its first attempt and hold, in one transaction begun
// at its created_at (= submitted_at): the last stage is that transaction and the send
const STAGES = [
  "tap → update stored in the inbox",
  "stored → Pay begins (the order's clock)",
  "Pay's transaction, then the request to the supplier",
] as const;

interface RepResult {
  /** timed taps whose order reached the supplier, per second of the timed window */
  perSecond: number;
  /** kios's processes' CPU over the timed window (settlements of earlier taps included), ms per tap */
  cpuMsPerTap: number;
  latencies: number[];
  baseline: number[];
  /** phones whose order request never arrived */
  lost: string[];
  /** order requests beyond the first for a phone */
  repeats: number;
  stages: number[][];
  /** % of one core per group while the timed taps were handled */
  cpu: Map<string, number>;
  /** statements from the first timed tap until every one was handled, and orders settled meanwhile */
  timedWindow: { statements: number; settled: number };
  /** statements of the counted taps, alone */
  counted: number;
  /** what else fell inside the counted taps' window (undefined: nothing) */
  countedDisturbed: string | undefined;
}

function payButton(card: MessageView): string {
  const button = (card.reply_markup?.inline_keyboard ?? [])
    .flat()
    .find((b) => /Bayar/.test(b.text));
  if (!button || !("callback_data" in button) || button.callback_data === undefined) {
    throw new Error(`no Pay button on the card: ${card.text ?? ""}`);
  }
  return button.callback_data;
}

/** funds a reseller and walks them to the confirmation card through the chat */
async function toCard(
  db: DatabaseHandle,
  chat: ChatDriver,
  i: number,
  rep: number,
): Promise<Reseller> {
  const id = FIRST_USER + i;
  const phone = phoneOf("08123", i);
  await setTier(db.db, id, "reseller");
  await creditWallet(db.db, { userId: id, amount: 1_000_000, key: `bench:pay:${rep}:${id}` });
  chat.user(id, { first_name: `Reseller${i}` });
  const hello = chat.say(id, "/start");
  await chat.waitMessage(id, /Halo/, hello);
  // a reseller's quick order: CODE.DESTINATION answers with the card at once
  const typed = chat.say(id, `${PRODUCT}.${phone}`);
  const card = await chat.waitMessage(id, /Konfirmasi pembelian/, typed);
  return { id, phone, card, pay: payButton(card) };
}

/**
 * the product on sale: the worker answers as soon as it runs and syncs the catalogue after
 * (a quick order before then is told the catalogue is loading); in webhook mode the web
 * process's start took long enough, in polling mode nothing else waits for it
 */
async function productListed(db: DatabaseHandle, code: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const { rows } = await db.executeSql(
      "select count(*)::int as n from products where code = $1 and listed and active",
      [code],
    );
    if (Number(rows[0]?.n) > 0) return;
    if (Date.now() > end) throw new Error(`${code} is not listed after ${ms} ms`);
    await sleep(20);
  }
}

async function inboxIdle(db: DatabaseHandle, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const { rows } = await db.executeSql(
      "select count(*)::int as n from telegram_updates where handled_at is null",
    );
    if (Number(rows[0]?.n) === 0) return;
    if (Date.now() > end) throw new Error(`the inbox still holds ${rows[0]?.n} updates`);
    await sleep(20);
  }
}

/**
 * the job queues (src/commerce/jobs.ts) whose work is not a Pay's: a status check, the
 * open orders' sweep, a supplier report. Checked against pg-boss's queues before use.
 */
// supplier reports are an inbox of their own (supplier_reports), no pg-boss job each
const NOT_PAY_QUEUES = { check: "order-check", sweep: "order-sweep" };

/** orders that reached a final state so far */
async function finalOrders(db: DatabaseHandle): Promise<number> {
  const { rows } = await db.executeSql(
    "select count(*)::int as n from orders where final_at is not null",
  );
  return Number(rows[0]?.n);
}

/** what kios still has to do for the orders and updates it was given, if anything */
async function unfinished(db: DatabaseHandle, front: SupplierFront): Promise<string | undefined> {
  if (!front.settledDown()) return "the supplier has orders to settle or report";
  const { rows } = await db.executeSql(
    `select (select count(*) from orders where final_at is null)::int as open_orders,
            (select count(*) from supplier_reports where processed_at is null)::int as reports,
            (select count(*) from telegram_updates where handled_at is null)::int as updates,
            (select count(*) from notifications where status in ('pending', 'sending'))::int
              as notifications,
            (select count(*) from pgboss.job
              where name = $1 and state in ('created', 'retry', 'active'))::int as checks`,
    [NOT_PAY_QUEUES.check],
  );
  const left = Object.entries(rows[0] ?? {}).filter(([, n]) => Number(n) > 0);
  return left.length === 0 ? undefined : left.map(([what, n]) => `${n} ${what}`).join(", ");
}

/**
 * the Pay's own statements: `resellers` tap at RATE once kios has nothing else to do, and
 * the window closes when each order request arrived and each tap's update is handled. What
 * else ran inside it anyway (an order settled, a report, a status check, the sweep) is said.
 */
async function countAlone(
  db: DatabaseHandle,
  telegram: BenchTelegram,
  front: SupplierFront,
  resellers: readonly Reseller[],
  metricsUrls: string[],
): Promise<{ statements: number; disturbed: string | undefined }> {
  const names = Object.values(NOT_PAY_QUEUES);
  const { rows: queues } = await db.executeSql(
    "select name from pgboss.queue where name = any($1)",
    [names],
  );
  const unknown = names.filter((n) => !queues.some((q) => q.name === n));
  if (unknown.length > 0) throw new Error(`no such pg-boss queues: ${unknown.join(", ")}`);
  const end = performance.now() + SETTLED_DOWN_MS;
  for (let left = await unfinished(db, front); left !== undefined; ) {
    if (performance.now() > end) {
      throw new Error(`kios did not finish its work in ${SETTLED_DOWN_MS} ms: ${left} left`);
    }
    await sleep(100);
    left = await unfinished(db, front);
  }
  const { rows: opened } = await db.executeSql("select now() as at");
  const finalBefore = await finalOrders(db);
  const window = await openStatementWindow(metricsUrls);
  await tapAll(telegram, resellers);
  await waitArrivals(
    front,
    resellers.map((r) => r.phone),
  );
  await inboxIdle(db, 60_000);
  const statements = await window.close();
  const missing = resellers.filter((r) => !front.arrivals.has(r.phone)).length;
  if (missing > 0) throw new Error(`${missing} counted taps never reached the supplier`);
  const settled = (await finalOrders(db)) - finalBefore;
  const { rows: jobs } = await db.executeSql(
    `select name, count(*)::int as n from pgboss.job
      where name = any($1) and started_on >= $2 group by name`,
    [names, opened[0]?.at],
  );
  const { rows: reports } = await db.executeSql(
    "select count(*)::int as n from supplier_reports where processed_at >= $1",
    [opened[0]?.at],
  );
  const acted = Number(reports[0]?.n ?? 0);
  const others = [
    ...(settled > 0 ? [`${settled} orders settled`] : []),
    ...(acted > 0 ? [`${acted} supplier reports acted on`] : []),
    ...jobs.map((j) => `${j.n} ${j.name} jobs`),
  ];
  return { statements, disturbed: others.length > 0 ? others.join(", ") : undefined };
}

/** calls `act(i)` for i < n at `RATE` per second, on a fixed schedule */
async function paced(n: number, act: (i: number) => void): Promise<void> {
  const interval = 1000 / RATE;
  const start = performance.now() + 20;
  for (let i = 0; i < n; i++) {
    const wait = start + i * interval - performance.now();
    if (wait > 0) await sleep(wait);
    act(i);
  }
}

async function waitArrivals(front: SupplierFront, phones: readonly string[]): Promise<void> {
  const end = performance.now() + ARRIVAL_GRACE_MS;
  while (performance.now() < end && phones.some((p) => !front.arrivals.has(p))) await sleep(5);
}

/** taps Pay on each reseller's card at RATE per second */
async function tapAll(telegram: BenchTelegram, resellers: readonly Reseller[]): Promise<Tap[]> {
  const taps: Tap[] = [];
  await paced(resellers.length, (i) => {
    const r = resellers[i]!;
    const at = performance.now();
    const pressed = telegram.server.press(r.id, r.card.message_id, r.pay);
    taps.push({ phone: r.phone, at, updateId: pressed.update_id });
  });
  return taps;
}

/** the network floor: the same signed order request, sent by this process to the same front */
async function directRequests(front: SupplierFront, rep: number): Promise<number[]> {
  const direct = createSignatureSupplier({
    baseUrl: front.url,
    ...DEFAULT_SANDBOX_CREDENTIALS,
    clock: systemClock,
  });
  const send = (i: number, sent: Map<string, number>, pending: Promise<unknown>[]) => {
    const phone = phoneOf("08129", i);
    sent.set(phone, performance.now());
    pending.push(
      direct.order({
        cmd: "prepaid",
        code: PRODUCT,
        customerNo: phone,
        refId: `BENCHDIRECT${rep}X${i}`,
      }),
    );
  };
  // warm: the connection and the code paths, as kios's are after its own warm-up
  const warm = new Map<string, number>();
  const warming: Promise<unknown>[] = [];
  await paced(Math.max(WARMUP, 1), (i) => send(RESELLERS + i, warm, warming));
  await Promise.all(warming);
  const sent = new Map<string, number>();
  const pending: Promise<unknown>[] = [];
  await paced(RESELLERS, (i) => send(i, sent, pending));
  await Promise.all(pending);
  await waitArrivals(front, [...sent.keys()]);
  return [...sent].flatMap(([phone, at]) => {
    const arrived = front.arrivals.get(phone)?.[0];
    return arrived === undefined ? [] : [arrived - at];
  });
}

/** the per-stage split, from the inbox's receipt time and the order's own timestamps */
async function stagesOf(
  db: DatabaseHandle,
  front: SupplierFront,
  taps: readonly Tap[],
): Promise<number[][]> {
  const received = new Map<number, number>();
  for (const r of (
    await db.executeSql(
      "select update_id, extract(epoch from received_at) * 1000 as at from telegram_updates",
    )
  ).rows) {
    received.set(Number(r.update_id), Number(r.at));
  }
  const orderTimes = new Map<string, { created: number }>();
  for (const r of (
    await db.executeSql(
      `select destination, extract(epoch from created_at) * 1000 as created
       from orders where submitted_at is not null`,
    )
  ).rows) {
    orderTimes.set(String(r.destination), { created: Number(r.created) });
  }
  const stages: number[][] = STAGES.map(() => []);
  for (const t of taps) {
    const stored = t.updateId === undefined ? undefined : received.get(t.updateId);
    const order = orderTimes.get(t.phone);
    const arrived = front.arrivals.get(t.phone)?.[0];
    if (stored === undefined || order === undefined || arrived === undefined) continue;
    const points = [wall(t.at), stored, order.created, wall(arrived)];
    for (let s = 0; s < STAGES.length; s++) stages[s]!.push(points[s + 1]! - points[s]!);
  }
  return stages;
}

async function repetition(rep: number, logDir: string): Promise<RepResult> {
  const telegram = await startBenchTelegram({ latencyMs: LATENCY });
  const front = await startSupplierFront();
  const name = `kios_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const databaseUrl = withDatabase(SERVER_URL, name);
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    DATABASE_URL: databaseUrl,
    BOT_TOKEN: DEFAULT_BOT.token,
    TELEGRAM_API_ROOT: telegram.url,
    BOT_MODE: MODE,
    HOST: "127.0.0.1",
    PORT: String(port),
    SUPPLIER_BASE_URL: front.url,
    SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
    SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
    SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
    // "kios started" is an info line; info is also what a shop runs with
    LOG_LEVEL: "info",
    INBOX_CONCURRENCY: String(CONCURRENCY),
    ...(MODE === "webhook"
      ? { PUBLIC_URL: publicUrl, WEBHOOK_SECRET: randomBytes(16).toString("hex") }
      : {}),
  };
  // the worker first: it migrates and syncs the catalogue; then the web process sets the webhook
  // more workers than one drain the inbox side by side (polling has one poller: webhook only)
  const workers: KiosRole[] = Array.from(
    { length: MODE === "webhook" ? PROCESSES : 1 },
    () => "worker",
  );
  const roles: KiosRole[] = MODE === "webhook" ? [...workers, "web"] : workers;
  const listeners = await Promise.all(roles.map(() => metricsListener()));
  const metricsUrls = listeners.map((l) => l.url);
  const procs: KiosProcess[] = roles.map((role, i) =>
    kiosProcess({
      role,
      env: { ...env, ...listeners[i]!.env },
      logPath: join(logDir, `rep${rep}-${role}${i}.log`),
      nodeArgs: process.env.KIOS_NODE_ARGS?.split(" ").filter(Boolean),
      ...(KIOS_BIN ? { bin: KIOS_BIN } : {}),
    }),
  );
  let db: DatabaseHandle | undefined;
  try {
    for (const p of procs) await p.start(120_000);
    // the sandbox reports settled orders to the web process, as a supplier would
    if (MODE === "webhook") front.setCallbackUrl(`${publicUrl}/supplier/callback`);
    db = await openDatabase({ databaseUrl, maxConnections: 4 });
    await productListed(db, PRODUCT, 120_000);
    const chat = createChatDriver(telegram.server, 120_000);
    const handle = db;
    const all = await Promise.all(
      Array.from({ length: WARMUP + RESELLERS + COUNTED }, (_, i) => toCard(handle, chat, i, rep)),
    );
    const warm = all.slice(0, WARMUP);
    const timed = all.slice(WARMUP, WARMUP + RESELLERS);
    const counted = all.slice(WARMUP + RESELLERS);
    await inboxIdle(db, 60_000);
    // warm-up taps (not counted): the Pay path's first run compiles it
    if (warm.length > 0) {
      await tapAll(telegram, warm);
      await waitArrivals(
        front,
        warm.map((r) => r.phone),
      );
    }
    await inboxIdle(db, 60_000);
    await sleep(1000);
    // a shared machine: the taps wait (a while) for other programs to finish what they do
    if (!(await quiet(QUIET_WAIT_MS))) {
      process.stderr.write(`rep ${rep + 1}: other programs kept the CPU busy; timing anyway\n`);
    }

    const finalBefore = await finalOrders(db);
    const window = await openStatementWindow(metricsUrls);
    const before = sampleCpu();
    const kiosBefore = procs.map((p) => cpuSecondsOf(p.pid!) ?? 0);
    const from = process.hrtime.bigint();
    const taps = await tapAll(telegram, timed);
    await waitArrivals(
      front,
      taps.map((t) => t.phone),
    );
    const cpu = cpuShares(before, sampleCpu());
    const seconds = Number(process.hrtime.bigint() - from) / 1e9;
    const kiosCpu = procs.reduce(
      (sum, p, i) => sum + (cpuSecondsOf(p.pid!) ?? 0) - kiosBefore[i]!,
      0,
    );
    // a tap's update is marked handled after its order request left: the count waits for it
    await inboxIdle(db, 60_000);
    const timedWindow = {
      statements: await window.close(),
      settled: (await finalOrders(db)) - finalBefore,
    };
    if (process.env.KIOS_NODE_ARGS) {
      // the window to look at in the processes' CPU profiles: their sample times are on the
      // same monotonic clock, in µs
      const us = (t: bigint) => String(t / 1000n);
      process.stderr.write(
        `rep ${rep + 1}: timed taps from ${us(from)} to ${us(process.hrtime.bigint())} µs (monotonic); logs and profiles: ${logDir}\n`,
      );
    }
    const latencies: number[] = [];
    const lost: string[] = [];
    let repeats = 0;
    for (const t of taps) {
      const arrived = front.arrivals.get(t.phone);
      if (!arrived) lost.push(t.phone);
      else {
        latencies.push(arrived[0]! - t.at);
        repeats += arrived.length - 1;
      }
    }
    const stages = await stagesOf(db, front, taps);
    const baseline = await directRequests(front, rep);
    const alone = await countAlone(db, telegram, front, counted, metricsUrls);
    return {
      perSecond: taps.length / seconds,
      cpuMsPerTap: (1000 * kiosCpu) / taps.length,
      latencies,
      baseline,
      lost,
      repeats,
      stages,
      cpu,
      timedWindow,
      counted: alone.statements,
      countedDisturbed: alone.disturbed,
    };
  } finally {
    await db?.close();
    await Promise.allSettled(procs.map((p) => p.stop()));
    await telegram.close();
    await front.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

// ---------------------------------------------------------------- the runs and the tables

const logDir = mkdtempSync(join(tmpdir(), "kios-bench-pay-"));
const results: RepResult[] = [];
const fifth = (r: RepResult) => Math.max(1, Math.floor(r.latencies.length / 5));
for (let rep = 0; rep < REPS; rep++) {
  const r = await repetition(rep, logDir);
  results.push(r);
  process.stderr.write(
    `rep ${rep + 1}/${REPS}: ${r.perSecond.toFixed(1)} Pays/s, ${r.cpuMsPerTap.toFixed(2)} ms of kios CPU per tap, p50 ${pct(r.latencies, 50).toFixed(1)} ms, p99 ${pct(r.latencies, 99).toFixed(1)} ms, max ${pct(r.latencies, 100).toFixed(1)} ms (p50 of the first and last fifth of the taps ${pct(r.latencies.slice(0, fifth(r)), 50).toFixed(0)} → ${pct(r.latencies.slice(-fifth(r)), 50).toFixed(0)} ms: a rise is a queue building up), lost ${r.lost.length}; direct p50 ${pct(r.baseline, 50).toFixed(2)} ms; other programs ${(r.cpu.get("other programs") ?? Number.NaN).toFixed(0)}% CPU\n`,
  );
}

const med = (f: (r: RepResult) => number) => median(results.map(f));
const p50 = med((r) => pct(r.latencies, 50));
const p99 = med((r) => pct(r.latencies, 99));
const max = med((r) => pct(r.latencies, 100));
const b50 = med((r) => pct(r.baseline, 50));
const b99 = med((r) => pct(r.baseline, 99));
const lost = results.reduce((n, r) => n + r.lost.length, 0);
const repeats = results.reduce((n, r) => n + r.repeats, 0);
const processes =
  MODE === "webhook" ? `web + ${PROCESSES} worker${PROCESSES > 1 ? "s" : ""}` : "one worker";

printTable(
  `Pay tap → order request at the supplier: ${RESELLERS} resellers tapping at ${RATE}/s (after ${WARMUP} warm-up taps), kios ${processes} (${MODE}) on PostgreSQL, Bot API ${LATENCY} ms away; ms, medians of ${REPS}`,
  [
    "measure",
    "Pays/s",
    "kios CPU/tap ms",
    "p50",
    "p99",
    "max",
    "statements/Pay",
    "baseline p50 / p99 (direct request)",
    "ratio p50 / p99",
    "lost",
    "goal",
    "met",
  ],
  [
    [
      "Pay tap → order at supplier",
      med((r) => r.perSecond).toFixed(1),
      med((r) => r.cpuMsPerTap).toFixed(2),
      p50.toFixed(1),
      p99.toFixed(1),
      max.toFixed(1),
      perUnit(
        med((r) => r.counted),
        COUNTED,
      ),
      `${b50.toFixed(2)} / ${b99.toFixed(2)}`,
      `${(p50 / b50).toFixed(1)} / ${(p99 / b99).toFixed(1)}`,
      String(lost),
      "≤ 10 / 30 ms",
      p50 <= 10 && p99 <= 30 && lost === 0 ? "yes" : "no",
    ],
  ],
);

printStatementsNote(
  `by the ${processes} over ${COUNTED} more taps at ${RATE}/s once kios had nothing else to do, from the first until each one's order request arrived and its update was handled`,
);
console.log(
  `the timed window as a whole (first tap until every tap was handled): ${perUnit(
    med((r) => r.timedWindow.statements),
    RESELLERS,
  )} statements per tap, with ${median(results.map((r) => r.timedWindow.settled))} orders settled inside it (median)`,
);
const disturbed = results.flatMap((r, i) =>
  r.countedDisturbed === undefined ? [] : [`rep ${i + 1}: ${r.countedDisturbed}`],
);
if (disturbed.length > 0) {
  console.log(
    `note: other work fell inside the counted taps' window, statements/Pay overstates: ${disturbed.join("; ")}`,
  );
}

printTable(
  "where the time goes, per tap (bench, database and kios clocks of one machine; the order's times are whole ms); ms, medians of the repetitions",
  ["stage", "p50", "p99"],
  STAGES.map((stage, s) => [
    stage,
    med((r) => pct(r.stages[s]!, 50)).toFixed(1),
    med((r) => pct(r.stages[s]!, 99)).toFixed(1),
  ]),
);

const cpuRows = [...CPU_GROUPS, "other programs"].flatMap((g) => {
  const shares = results.flatMap((r) => {
    const v = r.cpu.get(g);
    return v === undefined ? [] : [v];
  });
  return shares.length === 0 ? [] : [[g, median(shares).toFixed(0)]];
});
if (cpuRows.length > 0) {
  printTable(
    `CPU while the timed taps were handled (% of one core; ${availableParallelism()} cores); medians of the repetitions`,
    ["processes", "CPU %"],
    cpuRows,
  );
  const others = Number(cpuRows.find((r) => r[0] === "other programs")?.[1] ?? 0);
  if (others > 20) {
    console.log(
      `\nnote: other programs used ${others}% of a core meanwhile: the latencies above are disturbed`,
    );
  }
}

if (repeats > 0) console.log(`\n${repeats} order requests were sent more than once for a tap`);
if (lost > 0) {
  console.error(
    `\nFAILED: ${lost} Pay taps never reached the supplier within ${ARRIVAL_GRACE_MS} ms: ${results
      .flatMap((r) => r.lost)
      .slice(0, 20)
      .join(", ")} (kios logs in ${logDir})`,
  );
  process.exitCode = 1;
} else if (!process.env.KIOS_NODE_ARGS) {
  // nothing to look into: the kios logs go
  rmSync(logDir, { recursive: true, force: true });
}
