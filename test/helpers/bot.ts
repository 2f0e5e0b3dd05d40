import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import { ManualClock } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import type { KiosBot } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { createUpdatePipeline, type UpdatePipeline } from "../../src/bot/inbox/pipeline.ts";
import { createBot } from "../../src/bot/index.ts";
import { createNotificationSender } from "../../src/bot/notifications/sender.ts";
import { notificationRenderers } from "../../src/bot/renderers.ts";
import { createI18n } from "../../src/bot/ui/i18n.ts";
import { syncCatalogue } from "../../src/commerce/catalogue/index.ts";
import { drainOutbox } from "../../src/commerce/notifications/drain.ts";
import type { NotificationSender } from "../../src/commerce/notifications/outbox.ts";
import type { OrderEngine } from "../../src/commerce/orders/engine.ts";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import type { Database } from "../../src/db/client.ts";
import { createLeases } from "../../src/jobs/lease.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import { createSignatureSupplier } from "../../src/supplier/index.ts";
import type { Supplier } from "../../src/supplier/types.ts";
import { memorySink } from "./app.ts";
import { type ChatDriver, createChatDriver } from "./chat-driver.ts";

export { callbackData, copyTexts, labels } from "./chat-driver.ts";

import { createTestDatabase, type TestDatabase } from "./db.ts";

export const ADMIN_ID = 1_000_001;
const TOKEN = DEFAULT_BOT.token;

export interface BotHarness extends ChatDriver {
  db: Database;
  database: TestDatabase;
  clock: ManualClock;
  sandbox: RunningSandbox;
  supplier: Supplier;
  telegram: RunningBotApiServer;
  orders: OrderEngine;
  deps: BotDeps;
  readonly bot: KiosBot;
  logger: Logger;
  logs(): string;
  /** deliveries that failed (and will be retried) in the notification pump */
  deliveryErrors: string[];
  /** runs the outbox now (the job runner's part), until it is empty */
  pump(): Promise<void>;
  /** a second bot on the same database (a restart, or another instance) */
  restart(): Promise<void>;
  stop(): Promise<void>;
  fund(userId: number, amount: number): Promise<void>;
}

export interface HarnessOptions {
  /** sync the sandbox catalogue into the database (default true) */
  catalogue?: boolean;
  adminIds?: number[];
  supplierTesting?: boolean;
  /** the H2H API's keys in the chat (/api) */
  h2h?: BotDeps["config"]["h2h"];
  /** the Mini App's address (its buttons and the chat's menu button) */
  miniAppUrl?: string;
}

/**
 * the whole bot on real HTTP: a test database, the sandbox supplier, the local Bot API
 * server and the bot in polling mode; the outbox is pumped whenever the engine kicks it.
 */
export async function startBotHarness(options: HarnessOptions = {}): Promise<BotHarness> {
  const sink = memorySink();
  const logger = createLogger({ level: "debug", pretty: false, destination: sink.stream });
  const clock = new ManualClock();
  const database = await createTestDatabase();
  const db = database.handle.db;
  const sandbox = await startSandbox({ port: 0, clock, settleDelayMs: 60_000, logger });
  const supplier = createSignatureSupplier({
    baseUrl: sandbox.url,
    ...DEFAULT_SANDBOX_CREDENTIALS,
    clock,
    readRetries: 0,
  });
  if (options.catalogue !== false) await syncCatalogue(db, supplier, { clock });
  const telegram = await startBotApiServer({ rateLimits: { enabled: false } });
  const i18n = createI18n();
  const deliveryErrors: string[] = [];

  let bot: KiosBot;
  let pipeline: UpdatePipeline | undefined;
  const leases = createLeases(database.handle);
  let sendNotification: NotificationSender;
  let pumping: Promise<void> = Promise.resolve();
  let funded = 0;

  // the notifier job's own loop, without its pacing (the local Bot API has no limits on)
  const pump = (): Promise<void> => {
    pumping = pumping.then(async () => {
      await drainOutbox({
        db,
        send: sendNotification,
        limiter: { wait: async () => {} },
        clock,
        logger,
        onSendResult: (result) => {
          if (result === "failed") deliveryErrors.push(result);
        },
      });
    });
    return pumping;
  };

  const adminIds = options.adminIds ?? [ADMIN_ID];
  const orders: OrderEngine = {
    db,
    supplier,
    clock,
    logger,
    testing: options.supplierTesting ?? false,
    adminIds,
    jobs: {
      // tests settle open orders themselves (sandbox.settleNow + resolveOrder)
      scheduleCheck: async () => {},
      kickNotifications: pump,
    },
  };
  const deps: BotDeps = {
    token: TOKEN,
    apiRoot: telegram.url,
    logger,
    db: orders.db,
    clock: orders.clock,
    config: {
      adminIds,
      supplierTesting: options.supplierTesting ?? false,
      h2h: options.h2h,
      miniAppUrl: options.miniAppUrl,
    },
    orders,
  };

  async function boot() {
    bot = createBot(deps);
    sendNotification = createNotificationSender({
      api: bot.api,
      db,
      i18n,
      adminIds,
      logger,
      // automatic receipts as a real start has them (a reseller asks with /struk otomatis)
      renderers: notificationRenderers({ receipts: { shop: () => "kios" } }),
    });
    // the production path: polled into the inbox, drained from it
    pipeline = createUpdatePipeline({
      bot,
      database: database.handle,
      leases,
      logger,
      concurrency: 8,
      poll: true,
      pollingTimeoutSeconds: 1,
    });
    await pipeline.start();
  }
  await boot();

  const harness: BotHarness = {
    ...createChatDriver(telegram),
    db,
    database,
    clock,
    sandbox,
    supplier,
    telegram,
    orders,
    deps,
    get bot() {
      return bot;
    },
    logger,
    logs: sink.text,
    deliveryErrors,
    pump,
    async restart() {
      await pipeline?.stop();
      await boot();
    },
    async stop() {
      await pipeline?.stop();
      await pumping;
      await leases.close();
      await telegram.close();
      await sandbox.close();
      await database.destroy();
    },
    async fund(userId, amount) {
      funded++;
      await creditWallet(db, { userId, amount, key: `test:fund:${userId}:${funded}` });
    },
  };
  return harness;
}
