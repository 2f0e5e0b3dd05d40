import type { Clock } from "@kios/kit";
import type { RunningSandbox, SandboxOptions } from "@kios/supplier-sandbox";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { createSupplier } from "../supplier/index.ts";
import type { Supplier } from "../supplier/types.ts";

export interface SupplierConnection {
  supplier: Supplier;
  /** the secret that signs this supplier's reports (its callbacks) */
  reportSecret: string;
  /** set when kios runs its own sandbox supplier (no SUPPLIER_* configured) */
  sandbox: RunningSandbox | undefined;
  /** for the start-up log: which supplier this is, without secrets */
  description: string;
  close(): Promise<void>;
}

/**
 * the configured supplier, or, with no SUPPLIER_* set, the embedded sandbox on a free
 * loopback port: a shop can try everything before it has a supplier account.
 */
export async function connectSupplier(deps: {
  config: Config;
  clock?: Clock;
  logger: Logger;
  /** the embedded sandbox's settings (port, settle delay, …) */
  sandbox?: Omit<SandboxOptions, "clock" | "logger"> & { port?: number };
}): Promise<SupplierConnection> {
  const { config, logger } = deps;
  if (config.supplier) {
    return {
      supplier: createSupplier({ config, logger, clock: deps.clock }),
      reportSecret: config.supplier.secretKey,
      sandbox: undefined,
      description: `${config.supplierInterface} interface at ${new URL(config.supplier.baseUrl).host}`,
      close: async () => {},
    };
  }
  // loaded only here, so a process that sells for real never loads the simulator
  const { DEFAULT_SANDBOX_CREDENTIALS, startSandbox } = await import("@kios/supplier-sandbox");
  const sandbox = await startSandbox({
    port: 0,
    ...deps.sandbox,
    hostname: "127.0.0.1",
    logger: logger.child({ component: "sandbox" }),
    clock: deps.clock,
  });
  return {
    supplier: createSupplier({
      config,
      logger,
      credentials: { baseUrl: sandbox.url, ...DEFAULT_SANDBOX_CREDENTIALS },
      clock: deps.clock,
    }),
    reportSecret: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
    sandbox,
    description: `embedded sandbox at ${sandbox.url}`,
    close: () => sandbox.close(),
  };
}
