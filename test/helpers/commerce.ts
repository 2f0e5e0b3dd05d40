import { ManualClock } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "@kios/supplier-sandbox";
import { syncCatalogue } from "../../src/commerce/catalogue/sync.ts";
import type { OrderEngine } from "../../src/commerce/orders/engine.ts";
import { createQuote } from "../../src/commerce/orders/quotes.ts";
import type { Quote } from "../../src/commerce/orders/types.ts";
import { setTier, upsertUser } from "../../src/commerce/users.ts";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import { createLogger } from "../../src/logger.ts";
import { createKeySupplier } from "../../src/supplier/key/client.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import type { Supplier } from "../../src/supplier/types.ts";
import { createTestDatabase, type TestDatabase } from "./db.ts";

export interface CommerceHarness {
  database: TestDatabase;
  sandbox: RunningSandbox;
  supplier: Supplier;
  clock: ManualClock;
  deps: OrderEngine;
  /** a user with this much in their wallet */
  newUser(balance?: number, tier?: "customer" | "reseller"): Promise<number>;
  /** a quote the user is sure to get (a refusal throws) */
  quote(user: number, destination?: string, productCode?: string): Promise<Quote>;
  stop(): Promise<void>;
}

/**
 * the commerce core on a fresh database, buying from a real sandbox supplier over HTTP,
 * its catalogue synced, with one manual clock shared by the engine, client and sandbox.
 */
export async function bootCommerce(
  options: {
    sandbox?: SandboxOptions;
    timeoutMs?: number;
    testing?: boolean;
    /** the wire interface the client speaks (default signature) */
    supplierInterface?: "signature" | "key";
    /** told of each statement the database is sent (postgres only) */
    onStatement?: (sql: string) => void;
  } = {},
): Promise<CommerceHarness> {
  const clock = new ManualClock();
  const database = await createTestDatabase({ onStatement: options.onStatement });
  const sandbox = await startSandbox({
    port: 0,
    clock,
    settleDelayMs: 50,
    slowReplyMs: 5_000,
    callbackRetryDelaysMs: [50],
    ...options.sandbox,
  });
  const clientOptions = {
    baseUrl: sandbox.url,
    clock,
    // generous: a loaded 2-core machine must not turn a normal reply into a timeout
    timeoutMs: options.timeoutMs ?? 2_500,
    readRetries: 1,
    retryBaseMs: 20,
  };
  const supplier: Supplier =
    options.supplierInterface === "key"
      ? createKeySupplier({ ...clientOptions, apiKey: DEFAULT_SANDBOX_CREDENTIALS.apiKey })
      : createSignatureSupplier({ ...clientOptions, ...DEFAULT_SANDBOX_CREDENTIALS });
  const logger = createLogger({ level: "silent" });
  await syncCatalogue(database.handle.db, supplier, { clock, logger });
  const deps: OrderEngine = {
    db: database.handle.db,
    supplier,
    clock,
    logger,
    testing: options.testing ?? false,
    adminIds: [1],
  };
  let nextUser = 100_000;
  return {
    database,
    sandbox,
    supplier,
    clock,
    deps,
    async newUser(balance = 0, tier = "customer") {
      const id = nextUser++;
      await upsertUser(deps.db, { telegramId: id, firstName: `User ${id}` });
      if (tier === "reseller") await setTier(deps.db, id, "reseller");
      if (balance > 0) {
        await creditWallet(deps.db, { userId: id, amount: balance, key: `seed:${id}` });
      }
      return id;
    },
    async quote(user, destination = "081234561234", productCode = "TSEL10") {
      const q = await createQuote(deps, { userId: user, chatId: user, productCode, destination });
      if (!q.ok) throw new Error(`quote refused: ${q.reason}`);
      return q.quote;
    },
    async stop() {
      await sandbox.close();
      await database.destroy();
    },
  };
}

/** a supplier whose order calls never get an answer in time: each order is left unknown */
export function timingOutSupplier(supplier: Supplier): Supplier {
  return {
    ...supplier,
    order: async () => ({ outcome: "unknown", reason: "no answer within 15000 ms" }),
  };
}
