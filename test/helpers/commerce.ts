import { ManualClock } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "@kios/supplier-sandbox";
import { eq } from "drizzle-orm";
import { syncCatalogue } from "../../src/commerce/catalogue/sync.ts";
import type { OrderEngine } from "../../src/commerce/orders/engine.ts";
import { confirmQuote } from "../../src/commerce/orders/place.ts";
import { createQuote } from "../../src/commerce/orders/quotes.ts";
import type { Order, Quote } from "../../src/commerce/orders/types.ts";
import { noteAnswerBalance } from "../../src/commerce/reconciliation/answer-reading.ts";
import { checkSupplierBalance } from "../../src/commerce/reconciliation/balance-check.ts";
import { setTier, upsertUser } from "../../src/commerce/users.ts";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import { orders } from "../../src/db/schema.ts";
import { createLogger } from "../../src/logger.ts";
import { createKeySupplier } from "../../src/supplier/key/client.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import type { Supplier } from "../../src/supplier/types.ts";
import { createTestDatabase, type TestDatabase } from "./db.ts";
import { catalogueNeutral, type SyncedCatalogue } from "./synced-catalogue.ts";

export interface CommerceHarness {
  database: TestDatabase;
  sandbox: RunningSandbox;
  supplier: Supplier;
  clock: ManualClock;
  deps: OrderEngine;
  /** a user with this much in their wallet */
  newUser(balance?: number, tier?: "customer" | "reseller"): Promise<number>;
  /**
   * another client of the sandbox, of the same interface, that gives up after `timeoutMs`:
   * for a test that wants a timeout (the sandbox's slow reply), not the harness's margin
   */
  supplierTimingOutAfter(timeoutMs: number): Supplier;
  /** a quote the user is sure to get (a refusal throws) */
  quote(user: number, destination?: string, productCode?: string): Promise<Quote>;
  /**
   * a quote as an H2H order makes it: no same-day rule (each ref_id is its own order), so its
   * Pay stores the order in one statement (place.ts, storeOrderAlone)
   */
  h2hQuote(user: number, destination?: string): Promise<Quote>;
  /**
   * the supplier's balance set to cover this many TSEL10 orders and a half, read by kios's
   * balance check (the guard's estimate), the clock moved past the reading
   */
  readingFor(orders: number): Promise<Awaited<ReturnType<typeof checkSupplierBalance>>>;
  /**
   * an order stored and held whose request never left: its Pay's process stopped right after
   * the commit (design rule 1: stored before sent)
   */
  storedNotSent(destination: string): Promise<{ user: number; quote: Quote; order: Order }>;
  /**
   * the synced template this boot's database was cloned from (its catalogue in it, not
   * synced by this boot), or undefined: synced afresh
   */
  catalogueFrom: SyncedCatalogue | undefined;
  stop(): Promise<void>;
}

/**
 * how long the harness's client waits for the sandbox. A timeout in a test is a fault the
 * test asks for (a slow reply, a client of its own), never a measure of the machine: the
 * sandbox answers in the test's own process, and PGlite holds that process's event loop
 * for seconds on a busy machine (eight confirmations of one quote, two cores shared by
 * several suites), so a tight limit fired before the sandbox had even read the order and
 * left it unknown. Long, as the production default (15 s) is.
 */
export const HARNESS_SUPPLIER_TIMEOUT_MS = 20_000;
/** the sandbox's "slow reply" (ending 906): outlasts any client's limit; close() ends it */
export const HARNESS_SLOW_REPLY_MS = 10 * 60_000;

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
    /**
     * the synced template to start from when this boot's catalogue would be the same
     * (bootTwoSuppliers: "main+backup"); default "main"; "fresh": always sync
     */
    catalogue?: SyncedCatalogue | "fresh";
  } = {},
): Promise<CommerceHarness> {
  const clock = new ManualClock();
  // the database after the sync, cloned, where nothing this boot is given changes what the
  // sync reads or writes: the signature interface, a sandbox of the standard catalogue, and
  // no statement counting (a budget counts from a fresh database)
  const catalogueFrom =
    options.catalogue !== "fresh" &&
    (options.supplierInterface ?? "signature") === "signature" &&
    catalogueNeutral(options.sandbox) &&
    options.onStatement === undefined
      ? ((options.catalogue as SyncedCatalogue | undefined) ?? "main")
      : undefined;
  const database = await createTestDatabase({
    onStatement: options.onStatement,
    catalogue: catalogueFrom,
  });
  const sandbox = await startSandbox({
    port: 0,
    clock,
    settleDelayMs: 50,
    slowReplyMs: HARNESS_SLOW_REPLY_MS,
    callbackRetryDelaysMs: [50],
    ...options.sandbox,
  });
  const clientFor = (timeoutMs: number): Supplier => {
    const clientOptions = {
      baseUrl: sandbox.url,
      clock,
      timeoutMs,
      readRetries: 1,
      retryBaseMs: 20,
    };
    return options.supplierInterface === "key"
      ? createKeySupplier({ ...clientOptions, apiKey: DEFAULT_SANDBOX_CREDENTIALS.apiKey })
      : createSignatureSupplier({ ...clientOptions, ...DEFAULT_SANDBOX_CREDENTIALS });
  };
  const supplier = clientFor(options.timeoutMs ?? HARNESS_SUPPLIER_TIMEOUT_MS);
  const logger = createLogger({ level: "silent" });
  if (!catalogueFrom) await syncCatalogue(database.handle.db, supplier, { clock, logger });
  const deps: OrderEngine = {
    db: database.handle.db,
    supplier,
    clock,
    logger,
    testing: options.testing ?? false,
    adminIds: [1],
  };
  // as createEngines wires it: balances in answers become readings
  deps.onAnswerBalance = noteAnswerBalance;
  let nextUser = 100_000;
  const harness: CommerceHarness = {
    database,
    sandbox,
    supplier,
    clock,
    deps,
    supplierTimingOutAfter: clientFor,
    catalogueFrom,
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
    async h2hQuote(user, destination = "081234561234") {
      const q = await createQuote(deps, {
        userId: user,
        chatId: user,
        productCode: "TSEL10",
        destination,
        repeat: false,
      });
      if (!q.ok) throw new Error(`quote refused: ${q.reason}`);
      return q.quote;
    },
    async readingFor(orders) {
      const cost = sandbox.catalogue().find((p) => p.code === "TSEL10")!.price;
      sandbox.account().setBalance(orders * cost + Math.floor(cost / 2));
      clock.advance(10);
      const reading = await checkSupplierBalance({ db: deps.db, supplier, clock });
      clock.advance(10);
      return reading;
    },
    async storedNotSent(destination) {
      const user = await harness.newUser(50_000);
      const quote = await harness.quote(user, destination);
      const stopped = new Error("stopped right after the commit");
      const paid = await confirmQuote(deps, {
        quoteId: quote.id,
        userId: user,
        onSubmitted: () => {
          throw stopped;
        },
      }).catch((err: unknown) => err);
      if (paid !== stopped) throw new Error(`the Pay went on: ${JSON.stringify(paid)}`);
      const [order] = await deps.db.select().from(orders).where(eq(orders.confirmKey, quote.id));
      if (!order) throw new Error("no order stored");
      return { user, quote, order };
    },
    async stop() {
      await sandbox.close();
      await database.destroy();
    },
  };
  return harness;
}

/**
 * bootCommerce after one purchase: the shop's shared accounts exist, as in any shop that sold
 * once (a test of concurrent Pays then races on what a running shop has, not on the first
 * account's creation)
 */
export async function bootCommerceThatSold(
  options?: Parameters<typeof bootCommerce>[0],
): Promise<CommerceHarness> {
  const h = await bootCommerce(options);
  const user = await h.newUser(100_000);
  const q = await h.quote(user, "081234567900");
  const sold = await confirmQuote(h.deps, { quoteId: q.id, userId: user });
  if (!sold.ok) throw new Error(`the first purchase was refused: ${sold.reason}`);
  return h;
}

/** a supplier whose order calls never get an answer in time: each order is left unknown */
export function timingOutSupplier(supplier: Supplier): Supplier {
  return {
    ...supplier,
    order: async () => ({ outcome: "unknown", reason: "no answer within 15000 ms" }),
  };
}
