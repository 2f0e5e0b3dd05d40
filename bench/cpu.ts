import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { median, printTable } from "./table.ts";

// who used the CPU while a benchmark measured, from /proc (Linux; elsewhere nothing is said):
// this process (the load and the fronts), its child processes (kios, the bare baselines), the
// PostgreSQL backends of the database it names, and the rest of the machine. On a shared
// machine, "other programs" says how far the numbers were disturbed.

/** clock ticks per second of /proc's counters (USER_HZ, 100 on Linux) */
const TICKS_PER_SECOND = 100;

export const CPU_GROUPS = ["bench process", "server processes", "postgres", "other programs"];

export interface CpuSample {
  at: number;
  /** busy ticks of the whole machine */
  busy: number;
  groups: Map<string, number>;
}

function ticksOf(pid: string): { comm: string; ppid: number; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    // utime + stime (fields 14 and 15 of the line)
    return {
      comm: text.slice(text.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far; undefined once it is gone */
export function cpuSecondsOf(pid: number): number | undefined {
  const stat = ticksOf(String(pid));
  return stat && stat.ticks / TICKS_PER_SECOND;
}

function groupOf(pid: string, comm: string, ppid: number, database: string | undefined) {
  if (Number(pid) === process.pid) return "bench process";
  if (ppid === process.pid) return "server processes";
  if (comm !== "postgres" || database === undefined) return undefined;
  try {
    // a backend's title: "postgres: 15/main: <user> <database> <client> <state>"
    const title = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return title.includes(` ${database} `) ? "postgres" : undefined;
  } catch {
    return undefined;
  }
}

/** a sample; `database`: whose PostgreSQL backends count as the benchmark's */
export function sampleCpu(database?: string): CpuSample | undefined {
  try {
    const [, ...counts] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const n = counts.map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait
    const busy = n.slice(0, 8).reduce((a, b) => a + b, 0) - n[3]! - n[4]!;
    const groups = new Map<string, number>();
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = ticksOf(pid);
      const group = stat && groupOf(pid, stat.comm, stat.ppid, database);
      if (stat && group) groups.set(group, (groups.get(group) ?? 0) + stat.ticks);
    }
    return { at: performance.now(), busy, groups };
  } catch {
    return undefined;
  }
}

/** % of one core each group used between two samples; empty when either is missing */
export function cpuShares(a: CpuSample | undefined, b: CpuSample | undefined): Map<string, number> {
  const shares = new Map<string, number>();
  if (!a || !b) return shares;
  const ticks = ((b.at - a.at) / 1000) * TICKS_PER_SECOND;
  let known = 0;
  for (const g of CPU_GROUPS.slice(0, -1)) {
    // a process that ended between the samples takes its ticks along: never below 0
    const used = Math.max(0, (b.groups.get(g) ?? 0) - (a.groups.get(g) ?? 0));
    known += used;
    shares.set(g, (100 * used) / ticks);
  }
  shares.set("other programs", (100 * Math.max(0, b.busy - a.busy - known)) / ticks);
  return shares;
}

/** per side, the median share of each group over its runs; a note when others disturbed it */
export function printCpu(title: string, sides: [name: string, runs: Map<string, number>[]][]) {
  const measured = sides.filter(([, runs]) => runs.some((r) => r.size > 0));
  if (measured.length === 0) return;
  const share = (runs: Map<string, number>[], g: string) =>
    median(runs.flatMap((r) => (r.has(g) ? [r.get(g)!] : [])));
  printTable(
    `${title} (% of one core; ${availableParallelism()} cores); medians`,
    ["side", ...CPU_GROUPS],
    measured.map(([name, runs]) => [name, ...CPU_GROUPS.map((g) => share(runs, g).toFixed(0))]),
  );
  const worst = Math.max(...measured.map(([, runs]) => share(runs, "other programs")));
  if (worst > 20) {
    console.log(
      `\nnote: other programs used up to ${worst.toFixed(0)}% of a core meanwhile: the numbers above are disturbed`,
    );
  }
}
