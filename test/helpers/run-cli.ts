import { format } from "node:util";
import { openAppDatabase } from "../../src/app/open-database.ts";
import type { CliDeps } from "../../src/cli/command.ts";
import { runCli } from "../../src/cli.ts";
import type { DatabaseHandle } from "../../src/db/client.ts";

/**
 * `kios <args>` run in the test's own process through runCli, as the binary runs it but
 * without booting Node, loading the bundle and opening the database for every command (1–3 s
 * of CPU a spawn; "where the suite's time goes" in docs/reliability.md). What the binary itself
 * does (bin/kios.js choosing the bundle, the real process's exit, signals, `kios start`)
 * stays proved by spawning it: test/helpers/kios-cli.ts.
 */

export interface CliRun {
  /** the exit code the binary would exit with */
  status: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /**
   * the command's environment: PATH and these, nothing else of the test's (a spawned kios
   * was given `{ PATH, ...env }`)
   */
  env?: Record<string, string | undefined>;
  /**
   * the database the command works on: the test's own, left open after the command (as a
   * database server outlives a command). Without it the command opens what its environment
   * names (PGLITE_DIR, DATABASE_URL), as the binary does.
   */
  database?: DatabaseHandle;
}

/** the test's handle, lent to one command: its close() leaves the handle open */
function lent(handle: DatabaseHandle): DatabaseHandle {
  return new Proxy(handle, {
    get(target, key) {
      if (key === "close") return async () => {};
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const CONSOLE = ["log", "info", "debug", "warn", "error"] as const;

/**
 * runs `kios <args>` in-process and returns its exit code with what it wrote on stdout
 * (console.log, process.stdout) and stderr (console.error and .warn, process.stderr, the
 * logger). Calls must not overlap: the capture replaces the process's writers for the call.
 */
export async function kios(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const deps: CliDeps = {
    env: { PATH: process.env.PATH, ...options.env },
    openDatabase: options.database
      ? async () => lent(options.database as DatabaseHandle)
      : openAppDatabase,
  };
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }) as typeof process.stdout.write;

  const saved = {
    stdout: process.stdout.write,
    stderr: process.stderr.write,
    console: CONSOLE.map((name) => console[name]),
  };
  process.stdout.write = sink(out);
  process.stderr.write = sink(err);
  for (const name of CONSOLE) {
    const into = name === "log" || name === "info" || name === "debug" ? out : err;
    console[name] = (...values: unknown[]) => {
      into.push(`${format(...values)}\n`);
    };
  }
  try {
    const status = await runCli(args, deps);
    if (status < 0) throw new Error(`kios ${args.join(" ")} keeps running: spawn the binary`);
    // the logger writes through a stream: let what it was given reach stderr
    await new Promise((resolve) => setImmediate(resolve));
    return { status, stdout: out.join(""), stderr: err.join("") };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    CONSOLE.forEach((name, i) => {
      console[name] = saved.console[i] as (typeof console)[typeof name];
    });
  }
}
