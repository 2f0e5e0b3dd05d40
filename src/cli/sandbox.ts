import { createLogger } from "../logger.ts";
import type { Command } from "./command.ts";
import { parseFlags, UsageError } from "./command.ts";

// `kios sandbox`: the sandbox supplier on its own port, for local runs and demos. Flags win
// over SANDBOX_* variables, which win over the defaults.

const USAGE = [
  "kios sandbox [--port 8081] [--host 127.0.0.1] [--api-id ID] [--api-key KEY] [--secret-key KEY]",
  "             [--balance 5000000] [--callback-url URL] [--settle-delay-ms 2000] [--slow-reply-ms 30000]",
  "             [--seed 1] [--latency-ms 0] [--error-rate 0] [--timeout-rate 0]",
  "             [--error-before-rate 0] [--reset-before-rate 0] [--reset-after-rate 0]",
  "             [--status-error-rate 0] [--status-lag-ms 0] [--product-inactive-rate 0]",
  "             [--drop-callbacks] [--duplicate-callbacks] [--reorder-callbacks]",
  "             [--callback-drop-rate 0] [--callback-duplicate-rate 0] [--callback-reorder-rate 0]",
  "             [--callback-forge-rate 0] [--callback-expire-rate 0]",
].join("\n");

/** rate flags beyond --error-rate and --timeout-rate: flag → the faults field it sets */
const MORE_RATES = {
  "error-before-rate": "errorBeforeRate",
  "reset-before-rate": "resetBeforeRate",
  "reset-after-rate": "resetAfterRate",
  "status-error-rate": "statusErrorRate",
  "product-inactive-rate": "productInactiveRate",
  "callback-drop-rate": "callbackDropRate",
  "callback-duplicate-rate": "callbackDuplicateRate",
  "callback-reorder-rate": "callbackReorderRate",
  "callback-forge-rate": "callbackForgeRate",
  "callback-expire-rate": "callbackExpireRate",
} as const;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, not "${value}"`);
  }
  return n;
}

function rate(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new UsageError(`${flag} must be a number from 0 to 1, not "${value}"`);
  }
  return n;
}

function httpUrl(flag: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // falls through to the usage error
  }
  throw new UsageError(`${flag} must be an http(s) URL, not "${value}"`);
}

export const sandboxCommand: Command = {
  name: "sandbox",
  summary: "run the sandbox supplier (a local test-mode supplier) until Ctrl-C",
  usage: USAGE,
  async run(argv, deps) {
    const { values } = parseFlags(argv, {
      port: { type: "string" },
      host: { type: "string" },
      "api-id": { type: "string" },
      "api-key": { type: "string" },
      "secret-key": { type: "string" },
      balance: { type: "string" },
      "callback-url": { type: "string" },
      "settle-delay-ms": { type: "string" },
      "slow-reply-ms": { type: "string" },
      seed: { type: "string" },
      "latency-ms": { type: "string" },
      "error-rate": { type: "string" },
      "timeout-rate": { type: "string" },
      "drop-callbacks": { type: "boolean" },
      "duplicate-callbacks": { type: "boolean" },
      "reorder-callbacks": { type: "boolean" },
      "status-lag-ms": { type: "string" },
      ...Object.fromEntries(
        Object.keys(MORE_RATES).map((flag) => [flag, { type: "string" as const }]),
      ),
    });
    const env = deps.env;
    // a flag, else its SANDBOX_* variable; the error names whichever was used
    const pick = (flag: string, variable: string): [string, string | undefined] => {
      const fromFlag = values[flag as keyof typeof values];
      if (typeof fromFlag === "string") return [`--${flag}`, fromFlag];
      const fromEnv = env[variable]?.trim();
      return [variable, fromEnv === "" ? undefined : fromEnv];
    };
    const num = (flag: string, variable: string, fallback: number, min: number, max: number) => {
      const [name, v] = pick(flag, variable);
      return v === undefined ? fallback : wholeNumber(name, v, min, max);
    };
    const str = (flag: string, variable: string, fallback: string) => {
      const [name, v] = pick(flag, variable);
      if (v !== undefined && v.trim() === "") throw new UsageError(`${name} must not be empty`);
      return v ?? fallback;
    };

    const { DEFAULT_SANDBOX_BALANCE, DEFAULT_SANDBOX_CREDENTIALS, startSandbox } = await import(
      "@kios/supplier-sandbox"
    );
    const port = num("port", "SANDBOX_PORT", 8081, 0, 65535);
    const hostname = str("host", "SANDBOX_HOST", "127.0.0.1");
    const apiId = str("api-id", "SANDBOX_API_ID", DEFAULT_SANDBOX_CREDENTIALS.apiId);
    const apiKey = str("api-key", "SANDBOX_API_KEY", DEFAULT_SANDBOX_CREDENTIALS.apiKey);
    const secretKey = str(
      "secret-key",
      "SANDBOX_SECRET_KEY",
      DEFAULT_SANDBOX_CREDENTIALS.secretKey,
    );
    const balance = num(
      "balance",
      "SANDBOX_BALANCE",
      DEFAULT_SANDBOX_BALANCE,
      0,
      Number.MAX_SAFE_INTEGER,
    );
    const [callbackName, callbackValue] = pick("callback-url", "SANDBOX_CALLBACK_URL");
    const callbackUrl = callbackValue === undefined ? null : httpUrl(callbackName, callbackValue);
    const settleDelayMs = num("settle-delay-ms", "SANDBOX_SETTLE_DELAY_MS", 2000, 0, 86_400_000);
    const slowReplyMs = num("slow-reply-ms", "SANDBOX_SLOW_REPLY_MS", 30_000, 0, 600_000);
    const seed = num("seed", "SANDBOX_SEED", 1, 0, 2 ** 32 - 1);
    const latencyMs = num("latency-ms", "SANDBOX_LATENCY_MS", 0, 0, 600_000);
    const [errorName, errorValue] = pick("error-rate", "SANDBOX_ERROR_RATE");
    const [timeoutName, timeoutValue] = pick("timeout-rate", "SANDBOX_TIMEOUT_RATE");
    const statusLagMs = num("status-lag-ms", "SANDBOX_STATUS_LAG_MS", 0, 0, 600_000);
    const moreRates: Record<string, number> = {};
    for (const [flag, field] of Object.entries(MORE_RATES)) {
      const variable = `SANDBOX_${flag.replaceAll("-", "_").toUpperCase()}`;
      const [name, v] = pick(flag, variable);
      if (v !== undefined) moreRates[field] = rate(name, v);
    }

    const level = env.LOG_LEVEL?.trim().toLowerCase() || "info";
    const logger = createLogger({ level: LOG_LEVELS.includes(level) ? level : "info" });
    const sandbox = await startSandbox({
      port,
      hostname,
      accounts: [{ apiId, keys: [{ apiKey, secretKey }], balance, callbackUrl }],
      settleDelayMs,
      slowReplyMs,
      seed,
      logger,
      faults: {
        latencyMs,
        errorRate: errorValue === undefined ? 0 : rate(errorName, errorValue),
        timeoutRate: timeoutValue === undefined ? 0 : rate(timeoutName, timeoutValue),
        dropCallbacks: values["drop-callbacks"] ?? false,
        duplicateCallbacks: values["duplicate-callbacks"] ?? false,
        reorderCallbacks: values["reorder-callbacks"] ?? false,
        statusLagMs,
        ...moreRates,
      },
    });

    // sandbox credentials are not secret: printing them is the point
    console.log(
      [
        "kios sandbox supplier running (Ctrl-C to stop)",
        `  base URL:     ${sandbox.url}`,
        `  api_id:       ${apiId}`,
        `  api_key:      ${apiKey}`,
        `  secret_key:   ${secretKey}`,
        `  balance:      ${balance}`,
        `  callback URL: ${callbackUrl ?? "(none: --callback-url)"}`,
        `  settle delay: ${settleDelayMs} ms`,
        `  products:     ${sandbox.catalogue().length}`,
        "",
        "point kios at it with:",
        `  SUPPLIER_BASE_URL=${sandbox.url}`,
        `  SUPPLIER_API_ID=${apiId}`,
        `  SUPPLIER_API_KEY=${apiKey}`,
        `  SUPPLIER_SECRET_KEY=${secretKey}`,
      ].join("\n"),
    );

    let signals = 0;
    const stop = async () => {
      signals += 1;
      if (signals > 1) process.exit(130); // a second Ctrl-C does not wait
      setTimeout(() => process.exit(1), 4500).unref();
      await sandbox.close();
      console.log("sandbox stopped");
      process.exit(0);
    };
    process.on("SIGINT", () => void stop());
    process.on("SIGTERM", () => void stop());
    return -1; // keeps running until a signal
  },
};
