import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { creditWallet } from "../src/commerce/wallet/ledger.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { KIOS_ENTRY as BIN } from "./helpers/kios-cli.ts";
import { patient } from "./helpers/patience.ts";
import { kios } from "./helpers/run-cli.ts";

function spawnKios(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH, ...env },
    timeout: patient(90_000),
  });
}

describe("kios CLI", () => {
  it("prints help and exits 0", async () => {
    const r = await kios(["help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("usage: kios <command>");
    expect(r.stdout).toMatch(/migrate\s+apply database migrations/);
  });

  it("answers an unknown command with usage and exit 2", async () => {
    const r = await kios(["frobnicate"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command "frobnicate"');
    expect(r.stderr).toContain("usage: kios <command>");
  });

  it("answers bad arguments with the command's usage and exit 2", async () => {
    const r = await kios(["migrate", "--force"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("usage: kios migrate");
  });

  it("stops on a bad environment with one line per variable", async () => {
    const r = await kios(["migrate"], { env: { PORT: "http", LOG_LEVEL: "shout" } });
    expect(r.status).toBe(78);
    expect(r.stderr).toMatch(/^ {2}PORT must be a whole number/m);
    expect(r.stderr).toMatch(/^ {2}LOG_LEVEL must be one of/m);
  });

  it("migrates the embedded database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kios-cli-"));
    const r = await kios(["migrate"], { env: { PGLITE_DIR: join(dir, "db") } });
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("migrations applied (pglite)");
  });
});

// the binary itself: what runCli returns is the real process's exit code, and what it
// prints reaches the pipes before the exit (every other case runs in-process)
describe("the kios binary", () => {
  it("exits with the command's code and prints on its pipes", () => {
    const help = spawnKios(["help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("usage: kios <command>");
    const bad = spawnKios(["migrate"], { PORT: "http", LOG_LEVEL: "shout" });
    expect(bad.status).toBe(78);
    expect(bad.stderr).toMatch(/^ {2}PORT must be a whole number/m);
  });
});

describe("kios ledger verify", () => {
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it("says ok on a clean ledger and names the account on a mismatch (exit 1)", async () => {
    db = await createTestDatabase();
    const database = db.handle;
    const clean = await kios(["ledger", "verify"], { database });
    expect(clean.stdout).toContain("ledger ok");
    expect(clean.status).toBe(0);

    await creditWallet(database.db, { userId: 77, amount: 5_000, key: "seed" });
    await database.executeSql("update accounts set balance = balance + 1 where key = 'user:77'");

    const broken = await kios(["ledger", "verify"], { database });
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain(
      "MISMATCH account user:77: stored balance 5001, entries sum to 5000",
    );
  });

  it("refuses an unknown subcommand with exit 2", async () => {
    expect((await kios(["ledger", "fix"])).status).toBe(2);
  });
});

// this test starts a real kios process, which opens its own database
vi.setConfig({ testTimeout: 120_000 });

describe("kios start", () => {
  let child: ChildProcess | undefined;
  let db: TestDatabase | undefined;
  afterEach(async () => {
    child?.kill("SIGKILL");
    await db?.destroy();
  });

  it("serves /healthz, says what it lacks, and exits on Ctrl-C within 5 seconds", async () => {
    const env: Record<string, string> = { PORT: "0", LOG_LEVEL: "info" };
    if (process.env.TEST_DATABASE_URL) {
      db = await createTestDatabase();
      await db.handle.close();
      env.DATABASE_URL = db.url!;
    } else {
      env.PGLITE_DIR = join(mkdtempSync(join(tmpdir(), "kios-start-")), "db");
    }
    const proc = spawn(process.execPath, [BIN, "start"], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = proc;
    let out = "";
    proc.stdout!.on("data", (d) => {
      out += d;
    });
    proc.stderr!.on("data", (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((resolve) =>
      proc.on("exit", (code) => resolve(code)),
    );

    const deadline = Date.now() + 90_000;
    while (!out.includes("kios started") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = out.split("\n").find((l) => l.includes("kios started"));
    expect(started, out).toBeTruthy();
    const url = JSON.parse(started!).http as string;
    // without a terminal, the first line says what runs and where to open it
    const lines = out.split("\n").filter((l) => l.startsWith("{"));
    expect(lines[0], out).toBe(started);
    expect(JSON.parse(started!).msg).toContain(`open ${url}/`);
    const res = await fetch(`${url.replace("localhost", "127.0.0.1")}/healthz`);
    expect(res.status).toBe(200);
    expect(out).toContain("no BOT_TOKEN");

    const stopAt = Date.now();
    proc.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(Date.now() - stopAt).toBeLessThan(5000);
    expect(out).toContain("stopped");
  });
});
