import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { fileURLToPath } from "node:url";
import { patient } from "../helpers/patience.ts";

// real kios processes (`node bin/kios.js start --role …`) that the campaign starts, kills
// with SIGKILL and starts again. Their logs go to one file per role.

const KIOS_BIN = fileURLToPath(new URL("../../bin/kios.js", import.meta.url));

export type KiosRole = "web" | "worker" | "all";

export interface KiosProcess {
  readonly role: KiosRole;
  /** how many times it was started */
  readonly starts: number;
  readonly running: boolean;
  /** the running process's id (undefined when it is not running) */
  readonly pid: number | undefined;
  /** starts it and resolves once it said "kios started" (rejects after timeoutMs) */
  start(timeoutMs: number): Promise<void>;
  /** SIGKILL: no shutdown, no cleanup, whatever it was doing */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after graceMs */
  stop(graceMs?: number): Promise<void>;
}

// biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's expansion, as the Procfile has it
const OLD_SPACE_MIB = "${KIOS_HEAP_MIB:-192}";

/** node's flags in `npm start` and the Procfile: a heap sized for a small VPS (README) */
export const START_HEAP_FLAGS = [
  `--max-old-space-size=${OLD_SPACE_MIB}`,
  "--max-semi-space-size=8",
] as const;

export function kiosProcess(o: {
  role: KiosRole;
  env: Record<string, string>;
  logPath: string;
  /** node's own flags (a benchmark's --cpu-prof) */
  nodeArgs?: string[];
  /** another checkout's bin/kios.js (a benchmark's before/after builds); default this one's */
  bin?: string;
}): KiosProcess {
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let starts = 0;
  let log: WriteStream | undefined;

  const logLine = (line: string) => log?.write(`${line}\n`);

  return {
    role: o.role,
    get starts() {
      return starts;
    },
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    get pid() {
      return this.running ? child?.pid : undefined;
    },
    start(timeoutMs) {
      starts += 1;
      log ??= createWriteStream(o.logPath, { flags: "a" });
      logLine(`--- campaign: start #${starts} of ${o.role} at ${new Date().toISOString()}`);
      // the heap as `npm start` and the Procfile size it (test/bin/start-flags.test.ts)
      const heap = START_HEAP_FLAGS.map((f) => f.replace(OLD_SPACE_MIB, "192"));
      const args = [...heap, ...(o.nodeArgs ?? []), o.bin ?? KIOS_BIN, "start", "--role", o.role];
      const proc = spawn(process.execPath, args, {
        env: o.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = proc;
      exited = new Promise((resolve) => proc.once("exit", () => resolve()));
      proc.stderr?.pipe(log, { end: false });
      return new Promise<void>((resolve, reject) => {
        let buffered = "";
        // a cap, scaled by the load at this start: a restarted worker resolves the orders its
        // crash left open before it says it started, one at a time, and on a loaded machine
        // (a full campaign beside other suites) that took over 90 s
        const capMs = patient(timeoutMs);
        const timer = setTimeout(() => {
          reject(new Error(`kios ${o.role} did not start within ${capMs} ms (${o.logPath})`));
        }, capMs);
        proc.stdout?.on("data", (chunk: Buffer) => {
          log?.write(chunk);
          buffered += chunk.toString("utf8");
          if (buffered.includes('"msg":"kios started')) {
            clearTimeout(timer);
            buffered = "";
            resolve();
          } else if (buffered.length > 1_000_000) buffered = buffered.slice(-10_000);
        });
        proc.once("exit", (code, signal) => {
          clearTimeout(timer);
          reject(new Error(`kios ${o.role} exited during start (code ${code}, ${signal})`));
        });
      });
    },
    async kill() {
      if (!child || !this.running) return;
      logLine(`--- campaign: SIGKILL ${o.role} at ${new Date().toISOString()}`);
      child.kill("SIGKILL");
      await exited;
    },
    async stop(graceMs = 5000) {
      if (!child || !this.running) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child?.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
      log?.end();
      log = undefined;
    },
  };
}

/**
 * a one-off kios command (`kios sync`, `kios ledger verify`), run asynchronously: the
 * sandbox and the Bot API server live in this process and must keep answering meanwhile
 */
export function runKiosCommand(
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [KIOS_BIN, ...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    proc.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    proc.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
