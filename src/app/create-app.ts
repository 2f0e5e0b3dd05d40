import { type Clock, listen, type RunningServer, systemClock } from "@kios/kit";
import type { Hono } from "hono";
import type { BotPayments } from "../bot/deps.ts";
import { createCenterRoutes } from "../center/routes.ts";
import { registerCatalogueJobs, syncAndLink } from "../commerce/catalogue/sync-job.ts";
import { createSecretBox } from "../commerce/h2h/cipher.ts";
import { registerH2hCallbacks } from "../commerce/h2h/jobs.ts";
import {
  registerCommerceJobs,
  registerHousekeeping,
  registerOutboxDrain,
} from "../commerce/jobs.ts";
import type { NotificationSender } from "../commerce/notifications/outbox.ts";
import { createSendLimiter } from "../commerce/notifications/send-limiter.ts";
import { openOrderCounts } from "../commerce/orders/counts.ts";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import { sweepOpenOrders } from "../commerce/orders/resolve.ts";
import type { Order } from "../commerce/orders/types.ts";
import type { PaymentEngine } from "../commerce/payments/engine.ts";
import { registerPaymentJobs } from "../commerce/payments/jobs.ts";
import { createGatewayReportRoute, GATEWAY_REPORT_PATH } from "../commerce/payments/route.ts";
import { noteAnswerBalance } from "../commerce/reconciliation/answer-reading.ts";
import { latestBalanceCheck } from "../commerce/reconciliation/balance-check.ts";
import { registerReconciliationJobs } from "../commerce/reconciliation/jobs.ts";
import {
  createSupplierReportDrain,
  type SupplierReportDrain,
} from "../commerce/supplier-reports/drain.ts";
import { createSupplierReportRoute } from "../commerce/supplier-reports/route.ts";
import { type Config, callbackLoopbackAllowed } from "../config.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { createClientAddress } from "../h2h/client-address.ts";
import { createRateLimiter } from "../h2h/rate-limit.ts";
import { createH2hRoutes } from "../h2h/routes.ts";
import type { Leases } from "../jobs/lease.ts";
import { createJobRunner, type JobRunner } from "../jobs/runner.ts";
import type { Logger } from "../logger.ts";
import { createMiniAppRoutes, type MiniAppHost } from "../mini-app/routes.ts";
import {
  type AppEnv,
  type BodyLimit,
  createServer,
  type HealthReport,
} from "../server/create-server.ts";
import { createMetrics, type Metrics } from "../server/metrics.ts";
import { createMetricsServer } from "../server/metrics-server.ts";
import { startingGate } from "../server/starting-gate.ts";
import { countingErrors } from "../supplier/counted.ts";
import { connectGateway, type GatewayConnection } from "./connect-gateway.ts";
import {
  connectSuppliers,
  type SupplierConnection,
  type SupplierRegistry,
} from "./connect-supplier.ts";
import { createEngines } from "./engines.ts";
import { openAppDatabase } from "./open-database.ts";

/** which parts a process runs (Procfile): web = HTTP, worker = jobs, all = both. */
export type Role = "all" | "web" | "worker";

/**
 * the bot plugged into the app (the Telegram bot service): it gets the order engine and
 * returns its routes, its notification sender and its start/stop.
 */
export interface BotService {
  routes?: Hono<AppEnv>[];
  /** paths of its routes that take bodies past the app's limit (the playground's uploads) */
  bodyLimits?: readonly BodyLimit[];
  /** renders and sends one outbox notification (the outbox drain calls it) */
  sendNotification?: NotificationSender;
  /** daily clean-up of the bot's own tables */
  housekeeping?(now: Date): Promise<void>;
  /** the bot's own checks for /healthz */
  health?(): Promise<HealthReport["checks"]>;
  /** the Mini App the bot opens: served at /app by the web role */
  miniApp?: MiniAppHost;
  /** resolves once the updates waiting when it started are answered */
  caughtUp?(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type BotServiceFactory = (core: {
  orders: OrderEngine;
  /** QR deposits, when a payment gateway is configured */
  payments?: BotPayments | undefined;
  supplier: SupplierConnection;
  role: Role;
  database: DatabaseHandle;
  /** leases that end with this process (see jobs/lease.ts) */
  leases: Leases;
  metrics: Metrics;
}) => Promise<BotService>;

/** where the HTTP server listens */
export interface HttpListen {
  port: number;
  /** undefined: all interfaces */
  host: string | undefined;
}

export interface AppDeps {
  config: Config;
  /** where HTTP listens; default PORT and HOST (the playground chooses its own: connectTelegram) */
  http?: HttpListen;
  /** the shop's admins; default ADMIN_IDS (the playground adds its demo admin) */
  adminIds?: readonly number[];
  logger: Logger;
  role?: Role;
  /** an already open database (tests hand in a migrated template); otherwise from config */
  database?: DatabaseHandle;
  clock?: Clock;
  /** settings of the embedded sandbox, used when no supplier is configured */
  sandbox?: Parameters<typeof connectSuppliers>[0]["sandbox"];
  /** with no supplier configured, how many embedded sandboxes (the playground runs 2) */
  sandboxes?: 1 | 2;
  bot?: BotServiceFactory;
  /** how often the catalogue-sync worker polls its queue, seconds (default 10) */
  catalogueSyncPollSeconds?: number;
}

export interface App {
  readonly config: Config;
  readonly logger: Logger;
  readonly database: DatabaseHandle;
  readonly jobs: JobRunner;
  readonly metrics: Metrics;
  /** the first supplier, set once started */
  readonly supplier: SupplierConnection | undefined;
  /** every supplier by name, the first first; set once started */
  readonly suppliers: SupplierRegistry | undefined;
  /** the payment gateway, once started (undefined: deposits are manual only) */
  readonly gateway: GatewayConnection | undefined;
  /** gateway deposits' engine, once started */
  readonly payments: PaymentEngine | undefined;
  /** the order engine, with its jobs, once started */
  readonly orders: OrderEngine | undefined;
  /** the bound HTTP port once started (web and all roles) */
  readonly port: number | undefined;
  /** the address HTTP is bound to once started */
  readonly address: string | undefined;
  /** the metrics listener's port once started (METRICS_PORT set) */
  readonly metricsPort: number | undefined;
  /** the address the metrics listener is bound to */
  readonly metricsAddress: string | undefined;
  health(): Promise<HealthReport>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** how long a start on PGlite lets the updates waiting at its start go first */
const FIRST_ANSWERS_MS = 5_000;

/** `answered`, or FIRST_ANSWERS_MS, whichever comes first (a flood must not hold the start) */
async function firstAnswers(answered: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, FIRST_ANSWERS_MS);
  });
  try {
    await Promise.race([answered, cap]);
  } finally {
    clearTimeout(timer);
  }
}

/** the composition root: builds every part from explicit dependencies; start() runs them. */
export async function createApp(deps: AppDeps): Promise<App> {
  const { config, logger } = deps;
  const httpListen = deps.http ?? { port: config.port, host: config.host };
  const adminIds = deps.adminIds ?? config.adminIds;
  const role = deps.role ?? "all";
  const clock = deps.clock ?? systemClock;
  const runsJobs = role !== "web";
  const database = deps.database ?? (await openAppDatabase(config));
  const jobs = createJobRunner({ database, logger, supervise: runsJobs });
  const metrics = createMetrics();
  metrics.watchOpenOrders(() => openOrderCounts(database.db));
  metrics.watchSupplier(() => latestBalanceCheck(database.db));
  if (database.kind === "postgres") metrics.watchStatements(() => database.statements);

  let supplier: SupplierConnection | undefined;
  let suppliers: SupplierRegistry | undefined;
  let gateway: GatewayConnection | undefined;
  let payments: PaymentEngine | undefined;
  let orders: OrderEngine | undefined;
  let bot: BotService | undefined;
  let server: RunningServer | undefined;
  let metricsServer: RunningServer | undefined;
  let reportDrain: SupplierReportDrain | undefined;
  let stopping: Promise<void> | undefined;
  let botStarted = false;
  /** until start() returns: the jobs may still be setting up behind an app that answers */
  let starting = true;

  async function health(): Promise<HealthReport> {
    const checks: HealthReport["checks"] = {};
    try {
      await database.ping();
      checks.database = { ok: true, detail: database.kind };
    } catch {
      checks.database = { ok: false, detail: "unreachable" };
    }
    // pg-boss starts after the app answers; until it runs, what needs it waits (jobs.send)
    checks.jobs =
      starting && jobs.state !== "failed"
        ? { ok: true, detail: jobs.state === "running" ? "running" : "starting" }
        : { ok: jobs.state === "running", detail: jobs.state };
    try {
      // the bot starts last, after the app answers: until then its inbox is "starting"
      if (bot && !botStarted) checks.inbox = { ok: true, detail: "starting" };
      else Object.assign(checks, await bot?.health?.());
    } catch {
      checks.inbox = { ok: false, detail: "unreadable" };
    }
    return { ok: Object.values(checks).every((c) => c.ok), checks };
  }

  async function start() {
    // the listener first: it answers (/healthz "starting") while the rest starts
    const gate = role !== "worker" ? startingGate() : undefined;
    if (gate) server = await listen(gate.app, httpListen.port, httpListen.host);
    await database.migrate();
    suppliers = await connectSuppliers({
      config,
      clock,
      logger,
      sandbox: deps.sandbox,
      sandboxes: deps.sandboxes,
    });
    const connected = suppliers.first;
    supplier = connected;
    // "kios started" names them once the app answers; this line is for the start's details
    logger.debug(
      {
        suppliers: suppliers.all.map((s) => ({
          name: s.name,
          at: s.description,
          reports: s.reportPath,
        })),
      },
      `suppliers: ${suppliers.all.map((s) => s.name).join(", ")}`,
    );
    if (config.supplier && config.h2h?.callbackAllowLoopback) {
      // a real-looking supplier and callbacks to this machine over plain http: right for a
      // staging shop, wrong for a live one, so it is said at every start
      logger.warn(
        { setting: "H2H_CALLBACK_ALLOW_LOOPBACK" },
        "H2H_CALLBACK_ALLOW_LOOPBACK=true: reseller callbacks may go to plain http://127.0.0.1 and localhost on a shop with a supplier configured; staging only, never a live shop",
      );
    }
    gateway = await connectGateway({ config, clock, logger });
    // the supplier's refusals and failures, counted by code for /metrics
    const supplierCounted = countingErrors(connected.supplier, (code) =>
      metrics.supplierErrors.inc({ code }),
    );
    const others = new Map(
      suppliers.all
        .slice(1)
        .map((s) => [
          s.name,
          countingErrors(s.supplier, (code) => metrics.supplierErrors.inc({ code })),
        ]),
    );
    const engines = createEngines(config, {
      db: database.db,
      supplier: supplierCounted,
      suppliers: others,
      clock,
      logger,
      adminIds,
      jobs,
      gateway: gateway?.gateway,
      onOrderFinal: (order: Order) => {
        metrics.orders.inc({ status: order.status });
        metrics.orderLatency.observe(
          { status: order.status },
          ((order.finalAt?.getTime() ?? clock.now()) - order.createdAt.getTime()) / 1000,
        );
      },
      onOrderSubmitted: () => metrics.orders.inc({ status: "submitted" }),
    });
    const engine = engines.orders;
    payments = engines.payments;
    orders = engine;
    bot = await deps.bot?.({
      orders: engine,
      payments: payments && {
        engine: payments,
        manual: config.depositManual,
        payPageUrl: gateway?.payPageUrl,
      },
      supplier: connected,
      role,
      database,
      leases: jobs.leases,
      metrics,
    });

    if (role !== "worker") {
      // each supplier's reports on a path of its own, verified with its own secret
      const supplierReportRoutes = suppliers.all.map((s) =>
        createSupplierReportRoute({
          db: database.db,
          secretKey: s.reportSecret,
          reader: s.reportReader,
          supplier: s.name,
          path: s.reportPath,
          clock,
          logger,
          onReceived: (result) => metrics.supplierReports.inc({ result }),
          onBalance: (refId, balance) => noteAnswerBalance(engine, s.name, refId, balance),
        }),
      );
      const resellerDoors = (encryptionKey: string) => {
        const shared = {
          orders: engine,
          box: createSecretBox(encryptionKey),
          clock,
          logger,
          clientAddress: createClientAddress(config.trustProxy),
        };
        return [
          createH2hRoutes({ ...shared, limiter: createRateLimiter() }),
          createCenterRoutes({ ...shared, limiter: createRateLimiter() }),
        ];
      };
      const http = createServer({
        logger,
        health,
        bodyLimits: bot?.bodyLimits,
        routes: [
          ...supplierReportRoutes,
          ...(gateway && payments
            ? [
                createGatewayReportRoute({
                  db: database.db,
                  gateway: gateway.gateway,
                  logger,
                  onStored: (paymentId) => payments?.jobs?.checkNow(paymentId) ?? Promise.resolve(),
                }),
              ]
            : []),
          ...(bot?.routes ?? []),
          ...(bot?.miniApp ? [createMiniAppRoutes({ ...bot.miniApp, orders: engine })] : []),
          // kios as a supplier for its resellers (docs/h2h.md), and as a center for
          // OtomaX-family software (docs/center.md): each door its own rate limiter, as
          // their key ids are of different tables
          ...(config.h2h ? resellerDoors(config.h2h.encryptionKey) : []),
        ],
      });
      gate?.open(http);
      gateway?.reportTo(`http://127.0.0.1:${server!.port}${GATEWAY_REPORT_PATH}`);
      for (const s of suppliers.all) {
        s.reportTo?.(`http://127.0.0.1:${server!.port}${s.reportPath}`);
      }
    }

    // every role: a worker's own counters (updates, notifications, settled orders) are
    // only in its process
    if (config.metrics) {
      metricsServer = await listen(
        createMetricsServer({ logger, metrics, health }),
        config.metrics.port,
        config.metrics.host,
      );
    }

    // the app answers and the bot takes updates now: what they ask of the jobs (a status
    // check, a notification's kick) waits in jobs.send() until the queues below exist
    await bot?.start();
    botStarted = true;
    // PGlite runs one statement at a time, and what follows (pg-boss's set-up, the queues,
    // a new shop's first catalogue in one transaction) takes it for seconds: the updates
    // waiting now (a /start sent while the shop was starting) are answered first, for at
    // most FIRST_ANSWERS_MS. On PostgreSQL they run side by side on their own connections.
    if (database.kind === "pglite" && bot?.caughtUp) await firstAnswers(bot.caughtUp());

    // pg-boss's set-up and the queues, one process at a time (web and worker starting
    // together on a new database would deadlock creating them)
    const { catalogueJobs } = await database.exclusive(async () => {
      await jobs.start();
      await registerCommerceJobs({
        jobs,
        orders: engine,
        work: runsJobs,
        settleConcurrency: config.settleConcurrency,
      });
      if (payments) await registerPaymentJobs(jobs, payments, runsJobs);
      const catalogueJobs = runsJobs
        ? await registerCatalogueJobs(jobs, {
            db: database.db,
            supplier: supplierCounted,
            firstSupplier: config.supplierName,
            others: [...others].map(([name, supplier]) => ({ name, supplier })),
            logger,
            pollingIntervalSeconds: deps.catalogueSyncPollSeconds,
          })
        : undefined;
      if (runsJobs && config.h2h) {
        registerH2hCallbacks(jobs, {
          db: database.db,
          box: createSecretBox(config.h2h.encryptionKey),
          clock,
          logger,
          // plain http to this machine only where simulators stand (tests, the playground),
          // or on a staging shop that asked for it (H2H_CALLBACK_ALLOW_LOOPBACK)
          policy: { allowLoopbackHttp: callbackLoopbackAllowed(config) },
        });
      }
      if (runsJobs) {
        await registerReconciliationJobs(jobs, { orders: engine });
        await registerHousekeeping(jobs, {
          db: database.db,
          clock,
          logger,
          bot: bot?.housekeeping,
        });
      }
      if (runsJobs && bot?.sendNotification) {
        await registerOutboxDrain(jobs, {
          db: database.db,
          send: bot.sendNotification,
          limiter: createSendLimiter(),
          clock,
          logger,
          onSendResult: (result) => metrics.notifications.inc({ result }),
        });
      }
      return { catalogueJobs };
    });
    jobs.markReady();
    if (runsJobs) {
      // stored supplier reports: woken by their INSERT, acted on side by side
      reportDrain = createSupplierReportDrain({
        database,
        leases: jobs.leases,
        orders: engine,
        concurrency: config.settleConcurrency ?? 50,
        logger,
        onResult: (result) => metrics.supplierReportsActed.inc({ result }),
      });
      await reportDrain.start();
    }

    // what makes it sell: a first catalogue (the bot says it is loading until then) and the
    // orders a crash left open (a start returns once they are done)
    if (runsJobs) {
      const { rows } = await database.executeSql("select count(*)::int as n from products");
      if (Number(rows[0]?.n ?? 0) === 0) {
        if (supplier.sandbox) {
          // the local sandbox answers in milliseconds: sync here, and a start returns with it
          const summary = await syncAndLink({
            db: database.db,
            supplier: supplier.supplier,
            firstSupplier: config.supplierName,
            others: [...others].map(([name, supplier]) => ({ name, supplier })),
            clock,
            // the sandbox's own catalogue: its sync's details would bury the start's first
            // line ("kios started: open …"), so only its problems are logged
            logger: logger.child({}, { level: "warn" }),
          });
          logger.debug({ products: summary.total }, "catalogue synced");
        } else {
          // a real supplier may be slow or down: the sync runs as the job, started now
          await catalogueJobs?.syncNow();
        }
      }
      // orders a crash left open are resolved now, not at the next sweep
      await sweepOpenOrders(orders);
    }
    starting = false;
  }

  return {
    config,
    logger,
    database,
    jobs,
    metrics,
    get supplier() {
      return supplier;
    },
    get suppliers() {
      return suppliers;
    },
    get gateway() {
      return gateway;
    },
    get payments() {
      return payments;
    },
    get orders() {
      return orders;
    },
    get port() {
      return server?.port;
    },
    get address() {
      return server?.address;
    },
    get metricsPort() {
      return metricsServer?.port;
    },
    get metricsAddress() {
      return metricsServer?.address;
    },
    health,
    start,
    stop() {
      stopping ??= (async () => {
        await bot?.stop();
        await reportDrain?.stop();
        await server?.close();
        await metricsServer?.close();
        await jobs.stop();
        await suppliers?.close();
        await gateway?.close();
        await database.close();
      })();
      return stopping;
    },
  };
}
