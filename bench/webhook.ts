// webhook time to reply: an update POSTed to the bot's webhook, as Telegram delivers it, until
// the bot's reply (its sendMessage to that chat) arrives at the Bot API. kios runs as real OS
// processes on a fresh PostgreSQL database, as the Procfile has it in webhook mode: a `web`
// process that serves the webhook (stores the update in the inbox, answers 200) and a `worker`
// that drains the inbox and answers. The baseline is a bare grammY bot, webhookCallback(bot,
// "hono") on @hono/node-server in a process of its own (bench/bare-hono.ts), replying once to
// each text message. Both talk to the same kind of Bot API: the local Bot API server behind a
// front in this process that adds `--latency` ms to every call, answers setWebhook itself
// (kios's web process sets its webhook URL and secret there; this bench reads them from that
// call and does the delivering) and stamps the arrival of each sendMessage.
// Load: `--users` users, each sending `--per-user` commands (/start, /saldo, /help, /saldo, …),
// offered at a steady `--rate` updates/s (round robin over the users, so one user's updates are
// users/rate s apart), not a burst; each timed from its POST to the arrival of the next
// sendMessage to its chat. `--warmup` updates from other users go first, untimed. Every POST
// must get a 2xx and every update exactly one reply, or the run fails.
// Interleaved repetitions (fresh processes, database and Bot API each; which side goes first
// alternates); medians of the repetitions' p50 and p99. Beside kios's times, the statements
// its web and worker processes sent to PostgreSQL per timed update (their
// kios_db_statements_total, summed; pg-boss's own pool apart), from the first timed POST until
// every update is marked handled.
// `--closed`: a closed loop instead: the users all at once, each sending its next command as
// soon as the reply to the one before arrived (`--rate` unused). `--role all`: one `kios
// start` (web and worker in one process, the default shop) instead of the two processes;
// `--pglite`: that one process on a new PGlite folder (the embedded default; no statement
// count, nothing goes over a wire). The issue's rows: `--closed --users 40 --role all` on
// PostgreSQL and with `--pglite`.
// run: npx tsx bench/webhook.ts [--users 200] [--per-user 4] [--rate 100] [--latency 0]
//      [--reps 3] [--warmup 100] [--concurrency 256] [--closed] [--role split|all]
//      [--pglite]; PostgreSQL from BENCH_DATABASE_URL
//      (default the local server); KIOS_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
//      profiles the kios processes

import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BotApiServer, createBotApiServer, DEFAULT_BOT } from "@kios/bot-api-server";
import { freePort, listen } from "@kios/kit";
import type { Update } from "grammy/types";
import { Hono } from "hono";
import postgres from "postgres";
import { type KiosProcess, kiosProcess } from "../test/campaign/processes.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { startBareHono } from "./bare-hono.ts";
import { cpuShares, printCpu, sampleCpu } from "./cpu.ts";
import { inboxDrained } from "./inbox.ts";
import { printMemoryGoal, rssMiB } from "./memory.ts";
import {
  metricsListener,
  openStatementWindow,
  perUnit,
  printStatementsNote,
} from "./statements.ts";
import { median, percentile, printTable } from "./table.ts";

const { values } = parseArgs({
  options: {
    users: { type: "string", default: "200" },
    "per-user": { type: "string", default: "4" },
    rate: { type: "string", default: "100" },
    latency: { type: "string", default: "0" },
    reps: { type: "string", default: "3" },
    warmup: { type: "string", default: "100" },
    concurrency: { type: "string", default: "256" },
    closed: { type: "boolean", default: false },
    role: { type: "string", default: "split" },
    pglite: { type: "boolean", default: false },
  },
});
const CLOSED = values.closed;
const PGLITE = values.pglite;
// PGlite is one process's database: web and worker share it
const ALL_IN_ONE = PGLITE || values.role === "all";
if (!["split", "all"].includes(values.role)) throw new Error("--role is split or all");
const USERS = Number(values.users);
const PER_USER = Number(values["per-user"]);
const RATE = Number(values.rate);
const LATENCY = Number(values.latency);
const REPS = Number(values.reps);
const WARMUP = Number(values.warmup);
const CONCURRENCY = Number(values.concurrency);
for (const [name, n] of Object.entries({ USERS, PER_USER, RATE, REPS, CONCURRENCY })) {
  if (!(Number.isFinite(n) && n > 0)) throw new Error(`--${name.toLowerCase()} must be positive`);
}
for (const [name, n] of Object.entries({ LATENCY, WARMUP })) {
  if (!(Number.isFinite(n) && n >= 0)) throw new Error(`--${name.toLowerCase()} must be 0 or more`);
}
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** what each user sends, in turn; each is answered with exactly one message by kios and bare */
const SCRIPT = ["/start", "/saldo", "/help", "/saldo"];
const FIRST_USER = 8_200_000;
const FIRST_WARMUP_USER = 8_300_000;
/** after the last POST, how long a missing reply is waited for */
const REPLY_GRACE_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the Bot API and its front

interface Front {
  server: BotApiServer;
  /** the apiRoot the bots use */
  url: string;
  /** what the bot's setWebhook said, once it said it */
  readonly webhook: { url: string; secret: string | undefined } | undefined;
  /** performance.now() of each sendMessage's arrival, passed with its chat (ok answers only) */
  onSent: ((chatId: number, at: number) => void) | undefined;
  /** method → calls */
  readonly calls: Map<string, number>;
  /** sendMessage calls the Bot API server refused */
  readonly failedSends: number;
  close(): Promise<void>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/** a method call's parameters: JSON (what grammY sends without files) or a form */
async function paramsOf(req: Request): Promise<Record<string, unknown>> {
  const type = req.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    const body: unknown = await req.json();
    return isRecord(body) ? body : {};
  }
  if (type.includes("form")) return Object.fromEntries(await req.formData());
  return Object.fromEntries(new URL(req.url).searchParams);
}

/** the Bot API server behind a front: latency, setWebhook noted, sendMessage stamped */
async function startFront(): Promise<Front> {
  const server = createBotApiServer({ rateLimits: { enabled: false } });
  const calls = new Map<string, number>();
  let webhook: Front["webhook"];
  let failedSends = 0;
  const app = new Hono();
  const front: Front = {
    server,
    url: "",
    get webhook() {
      return webhook;
    },
    onSent: undefined,
    calls,
    get failedSends() {
      return failedSends;
    },
    close: async () => {},
  };
  app.use("/bot*", async (c, next) => {
    const at = performance.now();
    const method = c.req.path.slice(c.req.path.lastIndexOf("/") + 1);
    calls.set(method, (calls.get(method) ?? 0) + 1);
    if (method === "setWebhook") {
      // this bench delivers the updates itself: the Bot API server must not
      const params = await paramsOf(c.req.raw);
      webhook = {
        url: String(params.url ?? ""),
        secret: typeof params.secret_token === "string" ? params.secret_token : undefined,
      };
      return c.json({ ok: true, result: true, description: "Webhook was set" });
    }
    if (LATENCY > 0) await sleep(LATENCY);
    await next();
    if (method === "sendMessage") {
      const answer: unknown = await c.res.clone().json();
      const result = isRecord(answer) && answer.ok === true ? answer.result : undefined;
      const chat = isRecord(result) && isRecord(result.chat) ? result.chat.id : undefined;
      if (typeof chat === "number") front.onSent?.(chat, at);
      else failedSends += 1;
    }
  });
  app.route("/", server.app);
  const running = await listen(app, 0, "127.0.0.1");
  front.url = `http://127.0.0.1:${running.port}`;
  front.close = async () => {
    server.dispose();
    await running.close();
  };
  return front;
}

// ---------------------------------------------------------------- the load

interface Planned {
  userId: number;
  text: string;
}

/** round robin over the users: each sends its next command once per round */
function plan(firstUser: number, users: number, perUser: number): Planned[] {
  const out: Planned[] = [];
  for (let round = 0; round < perUser; round++) {
    for (let u = 0; u < users; u++) {
      out.push({ userId: firstUser + u, text: SCRIPT[round % SCRIPT.length]! });
    }
  }
  return out;
}

interface LoadResult {
  /** POST → reply at the Bot API, ms */
  replies: number[];
  /** POST → the webhook's answer, ms */
  answers: number[];
  /** updates whose reply never came */
  lost: number;
  /** replies to chats with no update waiting */
  unexpected: number;
  /** POSTs answered other than 2xx, or not at all */
  failedPosts: number;
  firstFailure: string | undefined;
}

/** POSTs the planned updates to the webhook at RATE per second; waits for their replies */
async function deliver(
  front: Front,
  hook: { url: string; secret: string | undefined },
  planned: readonly Planned[],
  nextUpdateId: () => number,
  messageIds: Map<number, number>,
): Promise<LoadResult> {
  const result: LoadResult = {
    replies: [],
    answers: [],
    lost: 0,
    unexpected: 0,
    failedPosts: 0,
    firstFailure: undefined,
  };
  /** per chat, the POST times of its updates not replied to yet, oldest first */
  const waiting = new Map<number, number[]>();
  let outstanding = planned.length;
  front.onSent = (chatId, at) => {
    const sent = waiting.get(chatId)?.shift();
    if (sent === undefined) result.unexpected += 1;
    else {
      result.replies.push(at - sent);
      outstanding -= 1;
    }
  };
  const posts: Promise<void>[] = [];
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (hook.secret) headers["X-Telegram-Bot-Api-Secret-Token"] = hook.secret;
  const interval = 1000 / RATE;
  const start = performance.now() + 20;
  /** closed loop: per chat, what resolves when its update in flight is replied to */
  const replied = new Map<number, () => void>();
  if (CLOSED) {
    const onReply = front.onSent!;
    front.onSent = (chatId, at) => {
      onReply(chatId, at);
      const next = replied.get(chatId);
      replied.delete(chatId);
      next?.();
    };
  }
  const send = (p: Planned) => {
    const messageId = (messageIds.get(p.userId) ?? 1) + 1;
    messageIds.set(p.userId, messageId);
    const user = { id: p.userId, is_bot: false, first_name: `W${p.userId}` } as const;
    const update: Update = {
      update_id: nextUpdateId(),
      message: {
        message_id: messageId,
        from: user,
        chat: { id: p.userId, type: "private", first_name: user.first_name },
        date: Math.floor(Date.now() / 1000),
        text: p.text,
        ...(p.text.startsWith("/")
          ? { entities: [{ type: "bot_command", offset: 0, length: p.text.length }] }
          : {}),
      },
    };
    const body = JSON.stringify(update);
    const at = performance.now();
    waiting.set(p.userId, [...(waiting.get(p.userId) ?? []), at]);
    posts.push(
      fetch(hook.url, { method: "POST", headers, body }).then(
        async (res) => {
          await res.arrayBuffer();
          result.answers.push(performance.now() - at);
          if (!res.ok) {
            result.failedPosts += 1;
            result.firstFailure ??= `HTTP ${res.status}`;
          }
        },
        (err: unknown) => {
          result.failedPosts += 1;
          result.firstFailure ??= err instanceof Error ? err.message : String(err);
        },
      ),
    );
  };
  if (CLOSED) {
    // each user's commands in turn, the next once the one before is replied to
    const byUser = new Map<number, Planned[]>();
    for (const p of planned) byUser.set(p.userId, [...(byUser.get(p.userId) ?? []), p]);
    await Promise.all(
      [...byUser.values()].map(async (mine) => {
        for (const p of mine) {
          const reply = new Promise<void>((r) => replied.set(p.userId, r));
          send(p);
          await Promise.race([reply, sleep(REPLY_GRACE_MS)]);
        }
      }),
    );
  } else {
    for (let i = 0; i < planned.length; i++) {
      const wait = start + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      send(planned[i]!);
    }
  }
  await Promise.all(posts);
  const end = performance.now() + REPLY_GRACE_MS;
  while (outstanding > 0 && performance.now() < end) await sleep(5);
  // a reply that comes later than the grace is as good as lost
  result.lost = outstanding;
  front.onSent = undefined;
  return result;
}

/** opens each user's chat at the Bot API server (a first message, never delivered) */
function openChats(
  front: Front,
  firstUser: number,
  users: number,
  messageIds: Map<number, number>,
) {
  for (let u = 0; u < users; u++) {
    const id = firstUser + u;
    front.server.user(id, { first_name: `W${id}` });
    const sent = front.server.sendText(id, "hi");
    messageIds.set(id, sent.message.message_id);
  }
}

/** throws unless every POST got a 2xx and every update its one reply */
function requireComplete(who: string, r: LoadResult, front: Front): void {
  const problems: string[] = [];
  if (r.failedPosts > 0) problems.push(`${r.failedPosts} POSTs failed (first: ${r.firstFailure})`);
  if (r.lost > 0) problems.push(`${r.lost} updates got no reply within ${REPLY_GRACE_MS} ms`);
  if (r.unexpected > 0) problems.push(`${r.unexpected} replies to no waiting update`);
  if (front.failedSends > 0) problems.push(`${front.failedSends} sendMessage calls failed`);
  if (problems.length > 0) throw new Error(`${who}: ${problems.join("; ")}`);
}

interface RunResult {
  p50: number;
  p99: number;
  answerP50: number;
  answerP99: number;
  /** Bot API calls other than sendMessage during the timed updates */
  otherCalls: number;
  /** % of one core per group while the timed updates were handled */
  cpu: Map<string, number>;
  /** statements kios sent to PostgreSQL for the timed updates (kios only) */
  statements: number | undefined;
  /** kios's largest process's RSS after the load, MiB (kios only) */
  rss?: number;
}

/** kios's processes whose statements are counted, and how to know their work is done */
interface Counting {
  metricsUrls: string[];
  /** resolves once every update delivered is marked handled */
  drained(): Promise<void>;
}

/** the warm-up, then the timed updates, against a webhook already set up */
async function measure(
  who: string,
  front: Front,
  hook: { url: string; secret: string | undefined },
  database?: string,
  counting?: Counting,
): Promise<RunResult> {
  let updateId = 100_000;
  const nextUpdateId = () => ++updateId;
  const messageIds = new Map<number, number>();
  const warmUsers = Math.min(WARMUP, Math.max(1, Math.ceil(WARMUP / SCRIPT.length)));
  openChats(front, FIRST_USER, USERS, messageIds);
  if (WARMUP > 0) {
    openChats(front, FIRST_WARMUP_USER, warmUsers, messageIds);
    const warm = plan(FIRST_WARMUP_USER, warmUsers, SCRIPT.length).slice(0, WARMUP);
    requireComplete(
      `${who} (warm-up)`,
      await deliver(front, hook, warm, nextUpdateId, messageIds),
      front,
    );
    await sleep(500);
  }
  const before = new Map(front.calls);
  const counted = counting && (await openStatementWindow(counting.metricsUrls));
  const cpuBefore = sampleCpu(database);
  const timed = await deliver(
    front,
    hook,
    plan(FIRST_USER, USERS, PER_USER),
    nextUpdateId,
    messageIds,
  );
  const cpu = cpuShares(cpuBefore, sampleCpu(database));
  requireComplete(who, timed, front);
  // a reply goes out before its update is marked handled: the count waits for the finish
  await counting?.drained();
  const statements = await counted?.close();
  let otherCalls = 0;
  for (const [method, n] of front.calls) {
    if (method !== "sendMessage") otherCalls += n - (before.get(method) ?? 0);
  }
  return {
    p50: percentile(timed.replies, 50),
    p99: percentile(timed.replies, 99),
    answerP50: percentile(timed.answers, 50),
    answerP99: percentile(timed.answers, 99),
    otherCalls,
    cpu,
    statements,
  };
}

async function bare(): Promise<RunResult> {
  const front = await startFront();
  const secret = randomBytes(16).toString("hex");
  let bot: Awaited<ReturnType<typeof startBareHono>> | undefined;
  try {
    bot = await startBareHono([
      "--mode",
      "webhook",
      "--api-root",
      front.url,
      "--token",
      DEFAULT_BOT.token,
      "--secret",
      secret,
    ]);
    return await measure("bare grammY", front, { url: `${bot.url}/telegram/bare`, secret });
  } finally {
    await bot?.stop();
    await front.close();
  }
}

async function kios(rep: number, logDir: string): Promise<RunResult> {
  const front = await startFront();
  const name = `kios_bench_${randomBytes(5).toString("hex")}`;
  const admin = PGLITE ? undefined : postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin?.unsafe(`create database ${name}`);
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    ...(PGLITE
      ? { PGLITE_DIR: join(logDir, `rep${rep}-pglite`) }
      : { DATABASE_URL: withDatabase(SERVER_URL, name) }),
    BOT_TOKEN: DEFAULT_BOT.token,
    TELEGRAM_API_ROOT: front.url,
    BOT_MODE: "webhook",
    PUBLIC_URL: publicUrl,
    WEBHOOK_SECRET: randomBytes(16).toString("hex"),
    HOST: "127.0.0.1",
    PORT: String(port),
    // "kios started" is an info line; info is also what a shop runs with
    LOG_LEVEL: "info",
    INBOX_CONCURRENCY: String(CONCURRENCY),
  };
  const roles = ALL_IN_ONE ? (["all"] as const) : (["worker", "web"] as const);
  const listeners = await Promise.all(roles.map(() => metricsListener()));
  const db = PGLITE
    ? undefined
    : postgres(withDatabase(SERVER_URL, name), { max: 1, onnotice: () => {} });
  const procs: KiosProcess[] = roles.map((role, i) =>
    kiosProcess({
      role,
      env: { ...env, ...listeners[i]!.env },
      logPath: join(logDir, `rep${rep}-${role}.log`),
      nodeArgs: process.env.KIOS_NODE_ARGS?.split(" ").filter(Boolean),
    }),
  );
  try {
    // the worker first: it migrates and syncs the catalogue; then the web process, which
    // sets the webhook
    for (const p of procs) await p.start(120_000);
    const hook = front.webhook;
    if (!hook?.url.startsWith(`${publicUrl}/telegram/`)) {
      throw new Error(`kios set no webhook under ${publicUrl} (got ${hook?.url})`);
    }
    const result = await measure("kios", front, hook, name, {
      // PGlite's statements go over no wire: nothing to count
      metricsUrls: PGLITE ? [] : listeners.map((l) => l.url),
      drained: () => (db ? inboxDrained(db, 60_000) : sleep(1_000)),
    });
    await sleep(1_000);
    return { ...result, rss: Math.max(...procs.map((p) => rssMiB(p.pid))) };
  } finally {
    await Promise.allSettled(procs.map((p) => p.stop()));
    await front.close();
    await db?.end();
    await admin?.unsafe(`drop database if exists ${name} with (force)`);
    await admin?.end();
  }
}

// ---------------------------------------------------------------- the runs and the table

const logDir = mkdtempSync(join(tmpdir(), "kios-bench-webhook-"));
const kiosRuns: RunResult[] = [];
const bareRuns: RunResult[] = [];
const show = (r: RunResult) =>
  `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (POST answered: ${r.answerP50.toFixed(1)} / ${r.answerP99.toFixed(1)} ms; other Bot API calls ${r.otherCalls})`;
for (let rep = 0; rep < REPS; rep++) {
  const order = rep % 2 === 0 ? (["bare", "kios"] as const) : (["kios", "bare"] as const);
  for (const side of order) {
    if (side === "bare") bareRuns.push(await bare());
    else kiosRuns.push(await kios(rep, logDir));
  }
  process.stderr.write(
    `rep ${rep + 1}/${REPS}: kios ${show(kiosRuns.at(-1)!)}; bare ${show(bareRuns.at(-1)!)}\n`,
  );
}

const med = (runs: RunResult[], f: (r: RunResult) => number) => median(runs.map(f));
const k50 = med(kiosRuns, (r) => r.p50);
const k99 = med(kiosRuns, (r) => r.p99);
const b50 = med(bareRuns, (r) => r.p50);
const b99 = med(bareRuns, (r) => r.p99);
const ka50 = med(kiosRuns, (r) => r.answerP50);
const ka99 = med(kiosRuns, (r) => r.answerP99);
const ba50 = med(bareRuns, (r) => r.answerP50);
const ba99 = med(bareRuns, (r) => r.answerP99);
// the embedded default's goal is looser: one connection, every statement after the one before
const GOAL = PGLITE ? 5 : 2;
const pair = (a: number, b: number, digits = 1) => `${a.toFixed(digits)} / ${b.toFixed(digits)}`;
printTable(
  `webhook time to reply: ${USERS * PER_USER} updates from ${USERS} users ${CLOSED ? "in a closed loop (each user's next once its reply came)" : `offered at ${RATE}/s`} (after ${WARMUP} warm-up), each POSTed to the webhook and timed to its sendMessage's arrival at the Bot API (${LATENCY} ms away); kios: ${ALL_IN_ONE ? "one process (role all)" : "web + worker"} on ${PGLITE ? "PGlite" : "PostgreSQL"}, inbox concurrency ${CONCURRENCY}; ms, medians of ${REPS}`,
  [
    "measure",
    "kios p50/p99",
    "statements/update",
    "baseline p50/p99 (bare grammY webhookCallback)",
    "ratio p50 / p99",
    "goal",
    "met",
  ],
  [
    [
      "webhook POST → reply at the Bot API",
      pair(k50, k99),
      perUnit(
        med(kiosRuns, (r) => r.statements ?? Number.NaN),
        USERS * PER_USER,
      ),
      pair(b50, b99),
      pair(k50 / b50, k99 / b99, 2),
      `≤ ${GOAL}× bare`,
      k50 <= GOAL * b50 && k99 <= GOAL * b99 ? "yes" : "no",
    ],
    [
      "webhook POST → its 2xx (kios: stored; bare: after its reply)",
      pair(ka50, ka99),
      "",
      pair(ba50, ba99),
      "—",
      "",
      "",
    ],
  ],
);
printStatementsNote(
  "by the web and worker processes together, from the first timed POST until every update was marked handled",
);
printCpu("CPU while the timed load ran", [
  ["kios (web + worker)", kiosRuns.map((r) => r.cpu)],
  ["baseline (bare grammY)", bareRuns.map((r) => r.cpu)],
]);
printMemoryGoal(
  `kios after the load, ${PGLITE ? "PGlite" : "PostgreSQL"} (RSS a second after, the largest process)`,
  med(kiosRuns, (r) => r.rss ?? Number.NaN),
  PGLITE ? 300 : 200,
);
