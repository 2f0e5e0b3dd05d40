import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { currentBundle } from "../../bin/bundle.js";
import { PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { buildBundle } from "../helpers/bundle.ts";

// `npm install` bundles kios into dist/ and bin/kios.js starts that bundle while no source is
// newer. These tests prove the choice, and that the bundle runs the whole playground: files
// found from a module's own location (migrations, locales, the chat page) are found from dist/.

const ROOT = join(import.meta.dirname, "..", "..");

describe("which entry kios runs", () => {
  const at = (root: string, path: string, seconds: number) => {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "");
    utimesSync(file, seconds, seconds);
  };

  it("runs the bundle only while no source under src/ or packages/ is newer", () => {
    const root = mkdtempSync(join(tmpdir(), "kios-entry-"));
    at(root, "src/app/main.ts", 1_000);
    at(root, "packages/kit/src/clock.ts", 1_000);
    expect(currentBundle(root)).toBeUndefined(); // never built

    at(root, "dist/cli.js", 2_000);
    expect(currentBundle(root)).toBe(join(root, "dist", "cli.js"));

    // tests, installed packages and other files don't make it stale
    at(root, "packages/kit/test/clock.test.ts", 3_000);
    at(root, "packages/kit/node_modules/x/index.ts", 3_000);
    at(root, "src/bot/ui/locales/id.ftl", 3_000);
    expect(currentBundle(root)).toBe(join(root, "dist", "cli.js"));

    at(root, "packages/kit/src/clock.ts", 3_000);
    expect(currentBundle(root)).toBeUndefined();
    at(root, "dist/cli.js", 4_000);
    at(root, "src/bot/deep/edit.ts", 5_000);
    expect(currentBundle(root)).toBeUndefined();
  });
});

describe("the bundle", () => {
  let child: ChildProcess | undefined;
  let entry: string | undefined;
  afterEach(() => {
    child?.kill("SIGKILL");
    if (entry) rmSync(dirname(entry), { recursive: true, force: true });
  });

  it("starts the playground from plain JavaScript, finding its migrations, locales and page", {
    timeout: 120_000,
  }, async () => {
    entry = buildBundle();
    const dir = mkdtempSync(join(tmpdir(), "kios-bundle-start-"));
    const record = join(dir, "modules.txt");
    const proc = spawn(
      process.execPath,
      ["--import", join(ROOT, "test/helpers/record-modules.mjs"), entry, "start"],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          RECORD_MODULES: record,
          PGLITE_DIR: join(dir, "db"),
          PORT: "0",
          LOG_LEVEL: "info",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = proc;
    let out = "";
    proc.stdout!.on("data", (d) => {
      out += d;
    });
    proc.stderr!.on("data", (d) => {
      out += d;
    });
    const deadline = Date.now() + 90_000;
    while (!out.includes("kios started") && Date.now() < deadline && proc.exitCode === null) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = out.split("\n").find((l) => l.includes("kios started"));
    expect(started, out).toBeTruthy();
    const base = (JSON.parse(started!).http as string).replace("localhost", "127.0.0.1");

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");
    expect((await fetch(`${base}/playground.js`)).status).toBe(200);

    // the bot answers in Indonesian: the locales were loaded from the sources' folder
    await fetch(`${base}/control/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: PLAYGROUND_CUSTOMER.id, text: "/start" }),
    });
    let texts: string[] = [];
    const replyBy = Date.now() + 20_000;
    while (texts.length === 0 && Date.now() < replyBy) {
      const chat = (await (
        await fetch(`${base}/control/chats/${PLAYGROUND_CUSTOMER.id}/messages`)
      ).json()) as {
        result: { messages: { sender: string; text?: string }[] };
      };
      texts = chat.result.messages.filter((m) => m.sender === "bot").map((m) => m.text ?? "");
      if (texts.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(texts[0]).toMatch(/Halo/);

    // nothing was compiled from TypeScript at run time
    const modules = readFileSync(record, "utf8").split("\n").filter(Boolean);
    expect(modules.filter((url) => url.endsWith(".ts"))).toEqual([]);
    expect(modules.some((url) => url.includes("supplier-sandbox-"))).toBe(true);
  });
});
