import { listen, systemClock } from "@kios/kit";
import { pino } from "pino";
import { createAccounts } from "./accounts.ts";
import { createSandboxApp } from "./app.ts";
import { generateCatalogue } from "./catalogue.ts";
import { createDelays } from "./delays.ts";
import { createCallbackDice, createFaultDice, createProductOutDice, faultsFrom } from "./faults.ts";
import { createRateLimiter } from "./rate-limit.ts";
import { createReportSender } from "./reports.ts";
import { createSettlement } from "./settlement.ts";
import { createStore, snapshot } from "./store.ts";
import type { RunningSandbox, Sandbox, SandboxFaults, SandboxOptions } from "./types.ts";

// the composition root of the sandbox supplier.

/** sandbox credentials: not secret, printed by `kios sandbox` */
export const DEFAULT_SANDBOX_CREDENTIALS = {
  apiId: "KIOS-SANDBOX",
  apiKey: "sandbox-api-key",
  secretKey: "sandbox-secret-key",
} as const;

export const DEFAULT_SANDBOX_BALANCE = 5_000_000;

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? pino({ level: "silent" });
  const seed = options.seed ?? 1;
  const accounts = createAccounts(
    options.accounts ?? [
      {
        apiId: DEFAULT_SANDBOX_CREDENTIALS.apiId,
        keys: [
          {
            apiKey: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
            secretKey: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
          },
        ],
        balance: DEFAULT_SANDBOX_BALANCE,
      },
    ],
  );
  const catalogue = generateCatalogue(seed, options.catalogueVariant);
  const store = createStore();
  const delays = createDelays();
  const sandbox: { faults: SandboxFaults; deprecationWarning: string | undefined } = {
    faults: faultsFrom(options.faults),
    deprecationWarning: options.deprecationWarning || undefined,
  };
  const callbacks = createReportSender({
    clock,
    logger,
    delays,
    retryDelaysMs: options.callbackRetryDelaysMs ?? [250, 1000, 3000],
    timeoutMs: options.callbackTimeoutMs ?? 5000,
  });
  const settlement = createSettlement({
    store,
    accounts,
    clock,
    callbacks,
    faults: () => sandbox.faults,
    rollCallbacks: createCallbackDice(seed),
    logger,
  });
  const app = createSandboxApp({
    accounts,
    catalogue,
    store,
    clock,
    logger,
    delays,
    rateLimiter: createRateLimiter(options.rateLimitPerSecond ?? 50),
    faults: () => sandbox.faults,
    rollFaults: createFaultDice(seed),
    rollProductOut: createProductOutDice(seed),
    settleDelayMs: options.settleDelayMs ?? 2000,
    slowReplyMs: options.slowReplyMs ?? 30_000,
    deprecationWarning: () => sandbox.deprecationWarning,
    outcomes: options.outcomes,
  });
  settlement.start();

  let closing: Promise<void> | undefined;
  return {
    app,
    clock,
    get faults() {
      return sandbox.faults;
    },
    set faults(next) {
      sandbox.faults = faultsFrom(next);
    },
    get deprecationWarning() {
      return sandbox.deprecationWarning;
    },
    set deprecationWarning(next) {
      sandbox.deprecationWarning = next || undefined;
    },
    account: (apiId) => accounts.handle(apiId),
    catalogue: () => catalogue.all,
    setPrice(code, price) {
      const entry = catalogue.get(code);
      if (!entry) throw new Error(`no product ${code}`);
      if (!Number.isSafeInteger(price) || price <= 0) throw new Error("price must be positive");
      // the catalogue is the sandbox's own: its products are read-only to callers only
      (entry.product as { price: number }).price = price;
    },
    setActive(code, active) {
      const entry = catalogue.get(code);
      if (!entry) throw new Error(`no product ${code}`);
      (entry.product as { status: string }).status = active ? "active" : "inactive";
    },
    setCutOff(code, window) {
      const entry = catalogue.get(code);
      if (!entry) throw new Error(`no product ${code}`);
      const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;
      if (window && !(hhmm.test(window.start) && hhmm.test(window.end))) {
        throw new Error("a cut-off window is two HH:MM times");
      }
      const product = entry.product as { start_cut_off?: string; end_cut_off?: string };
      if (window) {
        product.start_cut_off = window.start;
        product.end_cut_off = window.end;
      } else {
        delete product.start_cut_off;
        delete product.end_cut_off;
      }
    },
    settleNow: () => settlement.settleAll(),
    transactions: () => store.all().map(snapshot),
    requests: () => store.requests(),
    refusals: () => store.refusals(),
    close() {
      closing ??= (async () => {
        settlement.stop();
        delays.releaseAll();
        callbacks.close();
        await callbacks.idle();
      })();
      return closing;
    },
  };
}

export async function startSandbox(
  options: SandboxOptions & { port?: number; hostname?: string } = {},
): Promise<RunningSandbox> {
  const hostname = options.hostname ?? "127.0.0.1";
  const sandbox = createSandbox(options);
  const server = await listen(sandbox.app, options.port ?? 0, hostname, {
    keepIdleConnections: true,
  });
  // a wildcard address is not something a client can dial
  const host = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    app: sandbox.app,
    clock: sandbox.clock,
    get faults() {
      return sandbox.faults;
    },
    set faults(next) {
      sandbox.faults = next;
    },
    get deprecationWarning() {
      return sandbox.deprecationWarning;
    },
    set deprecationWarning(next) {
      sandbox.deprecationWarning = next;
    },
    account: (apiId) => sandbox.account(apiId),
    catalogue: () => sandbox.catalogue(),
    setPrice: (code, price) => sandbox.setPrice(code, price),
    setActive: (code, active) => sandbox.setActive(code, active),
    setCutOff: (code, window) => sandbox.setCutOff(code, window),
    settleNow: () => sandbox.settleNow(),
    transactions: () => sandbox.transactions(),
    requests: () => sandbox.requests(),
    refusals: () => sandbox.refusals(),
    url: `http://${urlHost}:${server.port}/v1`,
    port: server.port,
    close() {
      closing ??= (async () => {
        await sandbox.close();
        await server.close();
      })();
      return closing;
    },
  };
}
