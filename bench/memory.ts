import { readFileSync } from "node:fs";

// a process's resident memory, as the kernel counts it (what a small VPS runs out of), and
// the goal lines the benches print beside it: a goal not met is said, never a failure.

/** VmRSS of a process, MiB (NaN when it is gone) */
export function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** prints whether `mib` is within `goal`; a miss is one line on stdout, not an error */
export function printMemoryGoal(what: string, mib: number, goal: number): void {
  const line = `${what}: ${mib.toFixed(0)} MiB, goal ≤ ${goal} MiB`;
  process.stdout.write(mib <= goal ? `memory goal met — ${line}\n` : `GOAL NOT MET — ${line}\n`);
}
