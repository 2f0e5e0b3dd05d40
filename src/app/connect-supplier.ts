import type { RunningDigiflazzSandbox } from "@kios/digiflazz-sandbox";
import type { Clock } from "@kios/kit";
import type { RunningSandbox, SandboxOptions } from "@kios/supplier-sandbox";
import type { Config, SupplierSettings } from "../config.ts";
import type { Logger } from "../logger.ts";
import { digiflazzReportReader } from "../supplier/digiflazz/webhook.ts";
import { createSupplierClient } from "../supplier/index.ts";
import type { ReportReader } from "../supplier/report.ts";
import type { Supplier } from "../supplier/types.ts";

export interface SupplierConnection {
  /** its name (SUPPLIER_NAME, SUPPLIER_<n>_NAME): in its report path, logs and admin views */
  name: string;
  supplier: Supplier;
  /** the secret that signs this supplier's reports (its callbacks) */
  reportSecret: string;
  /** where its reports arrive: /supplier/callback for the first, /supplier/<name>/callback */
  reportPath: string;
  /** how its protocol signs and shapes reports; undefined: the signature interface's */
  reportReader?: ReportReader | undefined;
  /** set when kios runs its own sandbox supplier (no SUPPLIER_* configured) */
  sandbox: RunningSandbox | undefined;
  /** the playground's Digiflazz sandbox (its backup) */
  digiflazzSandbox?: RunningDigiflazzSandbox | undefined;
  /** an embedded sandbox is told where kios takes its reports, once kios listens */
  reportTo?(url: string): void;
  /** for the start-up log: which supplier this is, without secrets */
  description: string;
  close(): Promise<void>;
}

/** every supplier kios buys from, by name, built once (src/app) */
export interface SupplierRegistry {
  /** the first: SUPPLIER_*, or the embedded sandbox */
  readonly first: SupplierConnection;
  /** the first first, then SUPPLIER_2_*, SUPPLIER_3_*, … */
  readonly all: readonly SupplierConnection[];
  get(name: string): SupplierConnection | undefined;
  close(): Promise<void>;
}

// the path suppliers are already configured with (their "callback URL"): the first's stays
const FIRST_REPORT_PATH = "/supplier/callback";

/** where a supplier's reports arrive: the first at the old path, the others under their name */
function supplierReportPath(name: string, isFirst: boolean): string {
  return isFirst ? FIRST_REPORT_PATH : `/supplier/${name}/callback`;
}

type SandboxSettings = Omit<SandboxOptions, "clock" | "logger"> & { port?: number };

/** a second seed-protocol sandbox: its own account, codes, prices and outcome table (the fault
 * campaign's second supplier) */
export const BACKUP_SANDBOX = {
  name: "backup",
  credentials: {
    apiId: "KIOS-BACKUP",
    apiKey: "backup-sandbox-api-key",
    secretKey: "backup-sandbox-secret-key",
  },
  options: {
    seed: 2,
    // its own codes; what the main sandbox has inactive it sells, and the reverse for TSEL5
    catalogueVariant: { codePrefix: "B", inactiveCodes: ["TSEL5", "PUBG60"] },
    // what fails at the main sandbox for the product's or the supplier's sake (941 to 945)
    // succeeds here: a re-route saves the sale. 902 and 904 (no reason given) succeed here
    // too, but kios never re-routes them
    outcomes: {
      "902": "901",
      "904": "903",
      "941": "901",
      "942": "901",
      "943": "903",
      "944": "903",
      "945": "901",
    },
  },
} as const;

/**
 * the configured suppliers, or, with no SUPPLIER_* set, the embedded sandbox on a free
 * loopback port (and, when asked, a second one with other codes and outcomes, so failover
 * can be tried): a shop can try everything before it has a supplier account.
 */
export async function connectSuppliers(deps: {
  config: Config;
  clock?: Clock | undefined;
  logger: Logger;
  /** the embedded sandbox's settings (port, settle delay, …) */
  sandbox?: SandboxSettings | undefined;
  /** with nothing configured: 1 (default) or 2 embedded sandboxes (the playground) */
  sandboxes?: 1 | 2;
}): Promise<SupplierRegistry> {
  const { config } = deps;
  const all: SupplierConnection[] = [];
  if (config.suppliers.length > 0) {
    config.suppliers.forEach((settings, i) => {
      all.push(configured(settings, i === 0, deps));
    });
  } else {
    all.push(await embedded(config.supplierName, true, deps, undefined));
    if (deps.sandboxes === 2) all.push(await embeddedDigiflazz(DIGIFLAZZ_BACKUP_NAME, deps));
  }
  const byName = new Map(all.map((c) => [c.name, c]));
  return {
    first: all[0]!,
    all,
    get: (name) => byName.get(name),
    async close() {
      for (const c of all) await c.close();
    },
  };
}

/** the first supplier alone (the CLI's balance, products and status commands) */
export async function connectSupplier(deps: {
  config: Config;
  clock?: Clock;
  logger: Logger;
  sandbox?: SandboxSettings;
}): Promise<SupplierConnection> {
  const registry = await connectSuppliers(deps);
  // the others are plain clients holding nothing open; the sandbox is only ever the first
  return registry.first;
}

function configured(
  settings: SupplierSettings,
  isFirst: boolean,
  deps: { clock?: Clock | undefined; logger: Logger },
): SupplierConnection {
  return {
    name: settings.name,
    supplier: createSupplierClient(settings, {
      clock: deps.clock,
      logger: deps.logger.child({ supplier: settings.name }),
    }),
    reportSecret: settings.credentials.secretKey,
    reportPath: supplierReportPath(settings.name, isFirst),
    reportReader:
      settings.interface === "digiflazz"
        ? digiflazzReportReader(settings.credentials.secretKey)
        : undefined,
    sandbox: undefined,
    description: `${settings.interface} interface at ${new URL(settings.credentials.baseUrl).host}`,
    close: async () => {},
  };
}

async function embedded(
  name: string,
  isFirst: boolean,
  deps: {
    config: Config;
    clock?: Clock | undefined;
    logger: Logger;
    sandbox?: SandboxSettings | undefined;
  },
  variant: typeof BACKUP_SANDBOX | undefined,
): Promise<SupplierConnection> {
  // loaded only here, so a process that sells for real never loads the simulator
  const { DEFAULT_SANDBOX_CREDENTIALS, DEFAULT_SANDBOX_BALANCE, startSandbox } = await import(
    "@kios/supplier-sandbox"
  );
  const credentials = variant?.credentials ?? DEFAULT_SANDBOX_CREDENTIALS;
  const sandbox = await startSandbox({
    port: 0,
    ...deps.sandbox,
    // a second sandbox takes a free port of its own, whatever the first was given
    ...(variant
      ? {
          ...variant.options,
          port: 0,
          accounts: [
            {
              apiId: credentials.apiId,
              keys: [{ apiKey: credentials.apiKey, secretKey: credentials.secretKey }],
              balance: DEFAULT_SANDBOX_BALANCE,
            },
          ],
        }
      : {}),
    hostname: "127.0.0.1",
    logger: deps.logger.child({ component: "sandbox", supplier: name }),
    clock: deps.clock,
  });
  return {
    name,
    supplier: createSupplierClient(
      {
        credentials: { baseUrl: sandbox.url, ...credentials },
        interface: deps.config.supplierInterface,
        timeoutMs: deps.config.supplierTimeoutMs,
      },
      { clock: deps.clock, logger: deps.logger.child({ supplier: name }) },
    ),
    reportSecret: credentials.secretKey,
    reportPath: supplierReportPath(name, isFirst),
    sandbox,
    reportTo: (url) => sandbox.account().setCallbackUrl(url),
    description: `embedded sandbox at ${sandbox.url}`,
    close: () => sandbox.close(),
  };
}

/** the playground's backup: it speaks Digiflazz, so failover across protocols can be tried in chat */
const DIGIFLAZZ_BACKUP_NAME = "backup";

async function embeddedDigiflazz(
  name: string,
  deps: { clock?: Clock | undefined; logger: Logger; config: Config },
): Promise<SupplierConnection> {
  // loaded only here, as the other sandbox
  const { DIGIFLAZZ_SANDBOX_ACCOUNT, startDigiflazzSandbox } = await import(
    "@kios/digiflazz-sandbox"
  );
  const sandbox = await startDigiflazzSandbox({ clock: deps.clock, hostname: "127.0.0.1" });
  const account = DIGIFLAZZ_SANDBOX_ACCOUNT;
  return {
    name,
    supplier: createSupplierClient(
      {
        credentials: {
          baseUrl: sandbox.url,
          apiId: account.username,
          apiKey: account.apiKey,
          secretKey: account.webhookSecret,
        },
        interface: "digiflazz",
        timeoutMs: deps.config.supplierTimeoutMs,
      },
      { clock: deps.clock, logger: deps.logger.child({ supplier: name }) },
    ),
    reportSecret: account.webhookSecret,
    reportPath: supplierReportPath(name, false),
    reportReader: digiflazzReportReader(account.webhookSecret),
    sandbox: undefined,
    digiflazzSandbox: sandbox,
    reportTo: (url) => sandbox.account().setWebhookUrl(url),
    description: `embedded Digiflazz sandbox at ${sandbox.url}`,
    close: () => sandbox.stop(),
  };
}
