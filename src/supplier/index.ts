import type { Clock } from "@kios/kit";
import type { Config, SupplierCredentials, SupplierSettings } from "../config.ts";
import type { Logger } from "../logger.ts";
import { createDigiflazzSupplier } from "./digiflazz/client.ts";
import { createKeySupplier } from "./key/client.ts";
import { createSignatureSupplier } from "./signature/client.ts";
import type { Supplier } from "./types.ts";

export { createSignatureSupplier } from "./signature/client.ts";

export * from "./types.ts";

export interface CreateSupplierOptions {
  config: Config;
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
  /** overrides config.supplier, e.g. the embedded sandbox's address and credentials */
  credentials?: SupplierCredentials;
}

/** the Supplier adapter that config.supplierInterface names (the first supplier). */
export function createSupplier(options: CreateSupplierOptions): Supplier {
  const { config } = options;
  const credentials = options.credentials ?? config.supplier;
  if (!credentials) {
    throw new Error(
      "no supplier credentials: set SUPPLIER_BASE_URL, SUPPLIER_API_ID, SUPPLIER_API_KEY and SUPPLIER_SECRET_KEY, or use the embedded sandbox",
    );
  }
  return createSupplierClient(
    { credentials, interface: config.supplierInterface, timeoutMs: config.supplierTimeoutMs },
    options,
  );
}

/** the adapter for one supplier's settings (any of SUPPLIER_*, SUPPLIER_2_*, …) */
export function createSupplierClient(
  settings: Pick<SupplierSettings, "credentials" | "interface" | "timeoutMs">,
  options: { clock?: Clock | undefined; logger?: Logger | undefined; fetch?: typeof fetch },
): Supplier {
  const { credentials } = settings;
  if (settings.interface === "digiflazz") {
    // the username signs with the key; the webhook's secret verifies its reports
    return createDigiflazzSupplier({
      baseUrl: credentials.baseUrl,
      username: credentials.apiId,
      apiKey: credentials.apiKey,
      timeoutMs: settings.timeoutMs,
      clock: options.clock,
      logger: options.logger,
      fetch: options.fetch,
    });
  }
  if (settings.interface === "key") {
    // the key interface sends only the api key; the secret key still verifies callbacks
    return createKeySupplier({
      baseUrl: credentials.baseUrl,
      apiKey: credentials.apiKey,
      timeoutMs: settings.timeoutMs,
      clock: options.clock,
      logger: options.logger,
      fetch: options.fetch,
    });
  }
  return createSignatureSupplier({
    baseUrl: credentials.baseUrl,
    apiId: credentials.apiId,
    apiKey: credentials.apiKey,
    secretKey: credentials.secretKey,
    timeoutMs: settings.timeoutMs,
    clock: options.clock,
    logger: options.logger,
    fetch: options.fetch,
  });
}
