// what the conversations plugin's replay costs per update. A flow's state is a log of the
// updates it has seen, replayed on every update: the longer a flow runs, the more each of
// its updates costs. Measured where a flow can grow longest: a buyer paging a product list
// back and forth (each page tap is one more update in the log). The baseline is /saldo, a
// plain handler with no flow, sent by another user in the same rounds: its time is what an
// update costs without any replay. Per bucket of page taps: the median time from the tap to
// the list's page changing, its ratio to /saldo's, and the CPU this process spent per update
// (a `kios start --role all` process in polling mode, read from /proc: its own CPU only).
// run: npx tsx bench/conversations.ts [--taps 120] [--reps 3]; PostgreSQL from
//      BENCH_DATABASE_URL (default the local server)

import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_BOT, type MessageView, startBotApiServer } from "@kios/bot-api-server";
import postgres from "postgres";
import { kiosProcess } from "../test/campaign/processes.ts";
import { createChatDriver, labels } from "../test/helpers/chat-driver.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { median, printTable } from "./table.ts";

const { values } = parseArgs({
  options: {
    taps: { type: "string", default: "120" },
    reps: { type: "string", default: "3" },
  },
});
const TAPS = Number(values.taps);
const REPS = Number(values.reps);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ADMIN = 7_000_001;

/** the process's own CPU time so far (ms), from /proc (utime + stime, in clock ticks) */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // fields after the command: state is [0], utime [11], stime [12]; 100 ticks a second
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const pageLabel = (m: MessageView | undefined) =>
  m ? (labels(m).find((l) => /^\d+\/\d+$/.test(l)) ?? "") : "";

interface Sample {
  /** how many updates the flow had seen before this one */
  step: number;
  tapMs: number;
  saldoMs: number;
  cpuMs: number;
}

const telegram = await startBotApiServer({ rateLimits: { enabled: false } });
const h = createChatDriver(telegram, 15_000);
const name = `kios_bench_${randomBytes(4).toString("hex")}`;
const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const kios = kiosProcess({
  role: "all",
  env: {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    DATABASE_URL: withDatabase(SERVER_URL, name),
    BOT_TOKEN: DEFAULT_BOT.token,
    TELEGRAM_API_ROOT: telegram.url,
    BOT_MODE: "polling",
    LOG_LEVEL: "info",
    PORT: "0",
    ADMIN_IDS: String(ADMIN),
  },
  logPath: join(mkdtempSync(join(tmpdir(), "kios-bench-")), "kios.log"),
  nodeArgs: process.env.KIOS_NODE_ARGS?.split(" ").filter(Boolean),
});

async function oneRun(rep: number, pid: number): Promise<Sample[]> {
  const buyer = 7_100_000 + rep * 2;
  const plain = buyer + 1;
  h.user(buyer);
  h.user(plain);
  const at = h.say(buyer, "/start");
  const menu = await h.waitMessage(buyer, /Halo|Hi /, at);
  h.tap(buyer, menu, /Pulsa & Data/);
  await h.waitMessage(buyer, /nomor HP/, menu.message_id);
  const typed = h.say(buyer, "081234561234");
  const which = await h.waitMessage(buyer, /pulsa atau paket data/, typed);
  h.tap(buyer, which, /^Pulsa$/);
  const list = await h.waitMessage(buyer, /untuk/, which.message_id);
  if (!labels(list).includes("▶️")) throw new Error("the list has one page: nothing to page");
  const current = () => h.chat(buyer).messages.find((m) => m.message_id === list.message_id);

  const samples: Sample[] = [];
  // the flow has seen the menu tap, the number and the category before its first page tap
  let step = 3;
  for (let i = 0; i < TAPS; i++) {
    const before = pageLabel(current());
    const cpu = cpuMsOf(pid);
    const started = performance.now();
    h.tap(buyer, current()!, labels(current()!).includes("▶️") ? /^▶️$/ : /^◀️$/);
    await telegram.waitFor(buyer, () => pageLabel(current()) !== before, 15_000);
    const tapMs = performance.now() - started;
    const cpuMs = cpuMsOf(pid) - cpu;
    // the baseline in the same round: a plain command of another user
    const said = performance.now();
    const sent = h.say(plain, "/saldo");
    await h.waitMessage(plain, /Rp/, sent);
    const saldoMs = performance.now() - said;
    samples.push({ step: step++, tapMs, saldoMs, cpuMs });
  }
  h.say(buyer, "/cancel");
  return samples;
}

const all: Sample[] = [];
try {
  await kios.start(120_000);
  for (let rep = 0; rep < REPS; rep++) all.push(...(await oneRun(rep, kios.pid!)));
} finally {
  await kios.stop();
  await telegram.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}

const BUCKET = 10;
const rows: string[][] = [];
const stride = Math.max(BUCKET, Math.floor(TAPS / 5));
for (let from = 3; from < 3 + TAPS; from += stride) {
  const bucket = all.filter((s) => s.step >= from && s.step < from + BUCKET);
  if (bucket.length === 0) continue;
  const tap = median(bucket.map((s) => s.tapMs));
  const saldo = median(bucket.map((s) => s.saldoMs));
  rows.push([
    `${from}–${from + BUCKET - 1}`,
    tap.toFixed(1),
    saldo.toFixed(1),
    (tap / saldo).toFixed(2),
    (bucket.reduce((n, s) => n + s.cpuMs, 0) / bucket.length).toFixed(1),
  ]);
}
printTable(
  `conversations replay: a page tap N updates into the flow (${REPS} runs × ${BUCKET} taps a row)`,
  [
    "updates since the flow began",
    "page tap ms",
    "/saldo ms (baseline)",
    "ratio",
    "kios CPU ms per tap",
  ],
  rows,
);
