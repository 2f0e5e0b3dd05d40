import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildBundle } from "../helpers/bundle.ts";

// a process that sells for real (SUPPLIER_* set) loads neither simulator: the sandbox supplier
// and the Bot API server are imported only when kios runs the playground or the embedded
// sandbox. Proven on a real `kios start --role web`, every module it resolves recorded, from the
// TypeScript sources and from the bundle `npm install` builds.

const ROOT = join(import.meta.dirname, "..", "..");
const SIMULATORS = ["supplier-sandbox", "bot-api-server"];
/**
 * what draws pictures (charts, receipts, price lists, QR codes) and pretty terminal logs:
 * loaded on first use, never by a start (docs/performance.md, cold start)
 */
const ON_FIRST_USE = [
  "/node_modules/vega/",
  "/node_modules/vega-lite/",
  "/node_modules/satori/",
  "/node_modules/@resvg/",
  "/node_modules/qrcode/",
  "/node_modules/pino-pretty/",
];

function startAndRecord(entry: string, env: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "kios-prod-start-"));
  const record = join(dir, "modules.txt");
  const child = spawn(
    process.execPath,
    ["--import", join(ROOT, "test/helpers/record-modules.mjs"), entry].concat([
      "start",
      "--role",
      "web",
    ]),
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        RECORD_MODULES: record,
        PGLITE_DIR: join(dir, "db"),
        PORT: "0",
        LOG_LEVEL: "info",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("kios started")) child.kill("SIGTERM");
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", reject);
    child.once("exit", () => {
      if (!output.includes("kios started")) reject(new Error(`kios did not start:\n${output}`));
      else resolve(readFileSync(record, "utf8").split("\n").filter(Boolean));
    });
  });
}

const PRODUCTION = {
  SUPPLIER_BASE_URL: "http://127.0.0.1:9/v1",
  SUPPLIER_API_ID: "prod-id",
  SUPPLIER_API_KEY: "prod-key-0123456789",
  SUPPLIER_SECRET_KEY: "prod-secret-0123456789",
};

describe("a production start", () => {
  it("loads neither the sandbox supplier nor the Bot API server (sources)", {
    timeout: 120_000,
  }, async () => {
    const modules = await startAndRecord(join(ROOT, "bin/kios.js"), {
      ...PRODUCTION,
      KIOS_FROM_SOURCE: "1",
    });
    // the recorder sees the workspace packages: the shared kit is loaded
    expect(modules.some((url) => url.includes("/packages/kit/"))).toBe(true);
    expect(modules.some((url) => url.endsWith("/src/app/create-app.ts"))).toBe(true);
    const simulators = modules.filter((url) => SIMULATORS.some((name) => url.includes(name)));
    expect(simulators).toEqual([]);
  });

  it("loads neither from the bundle: each simulator stays in its own chunk", {
    timeout: 120_000,
  }, async () => {
    const entry = buildBundle();
    try {
      const modules = await startAndRecord(entry, PRODUCTION);
      const chunks = modules.filter((url) => url.includes(dirname(entry)));
      expect(chunks.length).toBeGreaterThan(1);
      // the chunks exist (named after their package), and none of them was loaded
      for (const name of SIMULATORS) {
        expect(readdirSync(dirname(entry)).some((f) => f.startsWith(`${name}-`))).toBe(true);
      }
      const simulators = modules.filter((url) => SIMULATORS.some((name) => url.includes(name)));
      expect(simulators).toEqual([]);
      expect(modules.filter((url) => ON_FIRST_USE.some((path) => url.includes(path)))).toEqual([]);
    } finally {
      rmSync(dirname(entry), { recursive: true, force: true });
    }
  });
});
