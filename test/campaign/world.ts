import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import {
  DEFAULT_GATEWAY_CREDENTIALS,
  type GatewayFaults,
  NO_GATEWAY_FAULTS,
  type RunningGatewaySandbox,
  startGatewaySandbox,
} from "@kios/gateway-sandbox";
import { freePort } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  NO_FAULTS,
  type RunningSandbox,
  type SandboxFaults,
  startSandbox,
} from "@kios/supplier-sandbox";
import { BACKUP_SANDBOX } from "../../src/app/connect-supplier.ts";
import { DEFAULT_ROUND_STEP, markedUp } from "../../src/commerce/catalogue/pricing.ts";
import { type DatabaseHandle, openDatabase } from "../../src/db/client.ts";
import { type CampaignDatabase, createCampaignDatabase } from "./database.ts";
import { type KiosProcess, kiosProcess, runKiosCommand } from "./processes.ts";

// the world a campaign runs in: two sandbox suppliers, the gateway sandbox and the local Bot
// API server inside the campaign process (so their books and chats can be read directly), a
// database of its own on a real PostgreSQL server, and kios as separate processes, one web
// and one worker, configured with both suppliers (SUPPLIER_* and SUPPLIER_2_*).

/** the first supplier: every fault the sandbox has, on at once, at rates that leave most requests working */
export const CAMPAIGN_FAULTS: SandboxFaults = {
  ...NO_FAULTS,
  latencyMs: 10,
  timeoutRate: 0.01,
  errorRate: 0.03,
  errorBeforeRate: 0.03,
  resetBeforeRate: 0.03,
  resetAfterRate: 0.03,
  statusErrorRate: 0.1,
  statusLagMs: 3000,
  callbackDropRate: 0.15,
  callbackDuplicateRate: 0.2,
  callbackReorderRate: 0.2,
  callbackForgeRate: 0.15,
  callbackExpireRate: 0.1,
  // a product out for a moment: proof that nothing was formed, so kios tries the backup
  productInactiveRate: 0.15,
};

/**
 * the second supplier's own mix: fewer transport faults, a status side that fails less and
 * lags less, callbacks that are lost or replayed late more often, and products out less often.
 * Its low balance (BACKUP_START_BALANCE) adds INSUFFICIENT_BALANCE once it is spent.
 */
export const BACKUP_FAULTS: SandboxFaults = {
  ...NO_FAULTS,
  latencyMs: 25,
  timeoutRate: 0.01,
  errorRate: 0.02,
  resetAfterRate: 0.02,
  statusErrorRate: 0.05,
  statusLagMs: 1000,
  callbackDropRate: 0.3,
  callbackDuplicateRate: 0.1,
  callbackExpireRate: 0.25,
  productInactiveRate: 0.05,
};

/** the gateway sandbox's faults that stay on (the depositors add dropped and forged notifications) */
export const CAMPAIGN_GATEWAY_FAULTS: GatewayFaults = {
  ...NO_GATEWAY_FAULTS,
  latencyMs: 10,
  duplicateNotifications: true,
  lateNotificationMs: 300,
  statusErrorRate: 0.15,
  chargeErrorRate: 0.05,
  chargeLostAnswerRate: 0.05,
};

/** the first supplier's balance at the start: large enough that no order is refused for it */
export const SUPPLIER_START_BALANCE = 1_000_000_000_000;
/**
 * the second supplier's: a few dozen orders' worth, so it runs short during the run and
 * refuses with INSUFFICIENT_BALANCE (the proof that sends an order on to the next route)
 */
export const BACKUP_START_BALANCE = 50_000;

/** the suppliers' names in kios (SUPPLIER_NAME, SUPPLIER_2_NAME) */
export const FIRST_SUPPLIER = "main";
export const SECOND_SUPPLIER = BACKUP_SANDBOX.name;

/**
 * a product whose first route is the second supplier (moved up with `kios routes`, as an
 * owner does), so refusals there send orders to the first
 */
export const BACKUP_FIRST_PRODUCT = "TSELD1GB1";

/** the shop's markup over the first supplier's price: leaves a margin on either route */
const SHOP_MARKUP_PERCENT = "3";

/**
 * a product the second supplier sells dearer than the shop's own price for it (but cheaper
 * than what a downline pays with their uplines' markups in it): an order of it re-routed
 * there would pay the uplines' margins out of the shop's pocket, so kios never sends one
 * (design rule 21), and the campaign's shop-margin check fails if it ever
 * does
 */
export const DEARER_AT_BACKUP = "TSEL10";
/** how much dearer than the shop's own price (less than one level's markup, run.ts's 200) */
const DEARER_BY = 100;

export const ADMIN_ID = 9_000_001;
/** a second admin: the owner's staff, who books supplier top-ups too */
export const STAFF_ID = 9_000_002;

/** kios's own supplier timeout is 15 s: a held reply must outlast it to be a timeout */
const SLOW_REPLY_MS = 16_000;

/** a supplier kios buys from in the run: its sandbox and where its balance started */
export interface CampaignSupplier {
  name: string;
  sandbox: RunningSandbox;
  apiId: string;
  startBalance: number;
  /** its fault mix while the customers buy */
  faults: SandboxFaults;
}

export interface World {
  telegram: RunningBotApiServer;
  /** the first supplier's sandbox (the one /recon reads and the owner tops up) */
  sandbox: RunningSandbox;
  /** every supplier, the first first */
  suppliers: CampaignSupplier[];
  /** the payment gateway's sandbox (QRIS deposits) */
  gateway: RunningGatewaySandbox;
  database: CampaignDatabase;
  /** the campaign's own connection to kios's database */
  db: DatabaseHandle;
  web: KiosProcess;
  worker: KiosProcess;
  logDir: string;
  close(): Promise<void>;
}

export async function startWorld(o: {
  serverUrl: string;
  seed: number;
  startTimeoutMs: number;
  onStep?: (step: string) => void;
}): Promise<World> {
  const step = o.onStep ?? (() => {});
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    // in reverse: children first, then what they talk to, then the database
    for (const c of closers.reverse()) await c().catch(() => {});
  };
  try {
    const logDir = mkdtempSync(join(tmpdir(), "kios-campaign-"));
    const database = await createCampaignDatabase(o.serverUrl);
    closers.push(() => database.drop());
    step(`database ${database.name}`);
    const db = await openDatabase({ databaseUrl: database.url, maxConnections: 4 });
    closers.push(() => db.close());
    await db.migrate();

    const telegram = await startBotApiServer({ rateLimits: { enabled: false } });
    closers.push(() => telegram.close());
    const sandbox = await startSandbox({
      seed: o.seed,
      settleDelayMs: 1500,
      slowReplyMs: SLOW_REPLY_MS,
      rateLimitPerSecond: 1000,
      accounts: [
        {
          apiId: DEFAULT_SANDBOX_CREDENTIALS.apiId,
          keys: [
            {
              apiKey: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
              secretKey: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
            },
          ],
          balance: SUPPLIER_START_BALANCE,
        },
      ],
    });
    closers.push(() => sandbox.close());
    // the playground's second sandbox (its codes, outcome table, account and secret), with a
    // seed of its own per run and a low balance
    const backupCredentials = BACKUP_SANDBOX.credentials;
    const backup = await startSandbox({
      ...BACKUP_SANDBOX.options,
      seed: BACKUP_SANDBOX.options.seed * 1000 + o.seed,
      settleDelayMs: 1500,
      slowReplyMs: SLOW_REPLY_MS,
      rateLimitPerSecond: 1000,
      accounts: [
        {
          apiId: backupCredentials.apiId,
          keys: [{ apiKey: backupCredentials.apiKey, secretKey: backupCredentials.secretKey }],
          balance: BACKUP_START_BALANCE,
        },
      ],
    });
    closers.push(() => backup.close());
    const suppliers: CampaignSupplier[] = [
      {
        name: FIRST_SUPPLIER,
        sandbox,
        apiId: DEFAULT_SANDBOX_CREDENTIALS.apiId,
        startBalance: SUPPLIER_START_BALANCE,
        faults: CAMPAIGN_FAULTS,
      },
      {
        name: SECOND_SUPPLIER,
        sandbox: backup,
        apiId: backupCredentials.apiId,
        startBalance: BACKUP_START_BALANCE,
        faults: BACKUP_FAULTS,
      },
    ];

    const webPort = await freePort();
    // each supplier reports on its own path (docs/suppliers.md, "Reports")
    sandbox.account().setCallbackUrl(`http://127.0.0.1:${webPort}/supplier/callback`);
    backup
      .account()
      .setCallbackUrl(`http://127.0.0.1:${webPort}/supplier/${SECOND_SUPPLIER}/callback`);
    const gateway = await startGatewaySandbox({
      seed: o.seed,
      notificationUrl: `http://127.0.0.1:${webPort}/payments/midtrans/notification`,
    });
    closers.push(() => gateway.close());
    const env = (port: number): Record<string, string> => ({
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_URL: database.url,
      BOT_TOKEN: DEFAULT_BOT.token,
      TELEGRAM_API_ROOT: telegram.url,
      BOT_MODE: "polling",
      SUPPLIER_BASE_URL: sandbox.url,
      SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
      SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
      SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
      SUPPLIER_NAME: FIRST_SUPPLIER,
      SUPPLIER_2_NAME: SECOND_SUPPLIER,
      SUPPLIER_2_BASE_URL: backup.url,
      SUPPLIER_2_API_ID: backupCredentials.apiId,
      SUPPLIER_2_API_KEY: backupCredentials.apiKey,
      SUPPLIER_2_SECRET_KEY: backupCredentials.secretKey,
      PAYMENT_GATEWAY: "midtrans",
      MIDTRANS_SERVER_KEY: DEFAULT_GATEWAY_CREDENTIALS.serverKey,
      MIDTRANS_BASE_URL: gateway.url,
      // the sandbox supplier stands in for a real one: kios runs a test gateway beside it
      // only when told to
      PAYMENT_GATEWAY_TESTING: "true",
      ADMIN_IDS: `${ADMIN_ID},${STAFF_ID}`,
      PORT: String(port),
      LOG_LEVEL: "info",
    });
    const web = kiosProcess({ role: "web", env: env(webPort), logPath: join(logDir, "web.log") });
    const worker = kiosProcess({
      role: "worker",
      env: env(0),
      logPath: join(logDir, "worker.log"),
    });
    closers.push(() => worker.stop());
    closers.push(() => web.stop());
    // before the catalogue is synced (so kios links the route at this cost): the second
    // supplier's DEARER_AT_BACKUP above the shop's own price, below a downline's
    const mainPrice = sandbox.catalogue().find((p) => p.code === DEARER_AT_BACKUP)?.price;
    if (mainPrice === undefined) throw new Error(`the sandbox sells no ${DEARER_AT_BACKUP}`);
    backup.setPrice(
      `B${DEARER_AT_BACKUP}`,
      markedUp(mainPrice, Number(SHOP_MARKUP_PERCENT) * 100, 0, DEFAULT_ROUND_STEP) + DEARER_BY,
    );
    // the catalogue first, as an owner would (`kios sync`, which links the second supplier's
    // products as routes): with a supplier of its own, kios syncs in a background job, and
    // customers must find products from the first minute. Then the owner's markup and one
    // product sent to the second supplier first
    await syncCatalogue(env(0));
    await owner(env(0), ["markup", "set", "--scope", "all", "--percent", SHOP_MARKUP_PERCENT]);
    await owner(env(0), ["routes", BACKUP_FIRST_PRODUCT, "up", SECOND_SUPPLIER]);
    step("catalogue synced and linked; markup set; routes moved");
    // together, as a first deploy does: their set-up takes turns (it once deadlocked)
    await Promise.all([web.start(o.startTimeoutMs), worker.start(o.startTimeoutMs)]);
    step("web and worker started");
    return { telegram, sandbox, suppliers, gateway, database, db, web, worker, logDir, close };
  } catch (err) {
    await close();
    throw err;
  }
}

async function syncCatalogue(env: Record<string, string>): Promise<void> {
  const run = await runKiosCommand(["sync", "--json"], { ...env, LOG_LEVEL: "warn" }, 120_000);
  if (run.code !== 0) throw new Error(`kios sync failed (${run.code}): ${run.stderr.trim()}`);
  const summary = JSON.parse(run.stdout) as { linked?: { supplier: string; linked: number }[] };
  const linked = summary.linked?.find((l) => l.supplier === SECOND_SUPPLIER)?.linked ?? 0;
  if (linked === 0) throw new Error(`kios sync linked no route of ${SECOND_SUPPLIER}`);
}

/** one of the owner's commands (`kios markup`, `kios routes`); the campaign stops if it fails */
async function owner(env: Record<string, string>, args: string[]): Promise<void> {
  const run = await runKiosCommand(args, { ...env, LOG_LEVEL: "warn" }, 60_000);
  if (run.code !== 0) {
    throw new Error(`kios ${args.join(" ")} failed (${run.code}): ${run.stderr.trim()}`);
  }
}
