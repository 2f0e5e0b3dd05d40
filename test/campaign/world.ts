import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import {
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  type DigiflazzFaults,
  startDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
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
  type SandboxFaults,
  startSandbox,
} from "@kios/supplier-sandbox";
import { BACKUP_SANDBOX } from "../../src/app/connect-supplier.ts";
import { DEFAULT_ROUND_STEP, markedUp } from "../../src/commerce/catalogue/pricing.ts";
import { type DatabaseHandle, openDatabase } from "../../src/db/client.ts";
import { type CampaignDatabase, createCampaignDatabase } from "./database.ts";
import { type KiosProcess, kiosProcess, runKiosCommand } from "./processes.ts";
import {
  type CampaignSupplier,
  digiflazzSupplier,
  type Protocol,
  seedSupplier,
} from "./suppliers.ts";

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

/**
 * the Digiflazz sandbox's own mix (its README, "Faults"), first or second: answers lost or
 * held past kios's timeout after the work, 500s before it, refusals with nothing formed
 * (balance short, SKU down, seller down, out of stock, price above max_price), failures for
 * the product's sake (another route may sell it) and the destination's (none may), pending
 * then final by a signed webhook that is sometimes lost, doubled or forged. The trap is
 * always there: a ref_id it does not hold, sent again, forms a transaction.
 */
export const DIGIFLAZZ_FAULTS: Partial<DigiflazzFaults> = {
  errorBeforeRate: 0.03,
  errorAfterRate: 0.02,
  timeoutRate: 0.01,
  refuseRate: 0.1,
  productFailRate: 0.05,
  destinationFailRate: 0.03,
  pendingRate: 0.3,
  webhookDropRate: 0.2,
  webhookDuplicateRate: 0.15,
  webhookForgeRate: 0.1,
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
 * the products one of which gets the second supplier as its first route (moved up with
 * `kios routes`, as an owner does), so refusals there send orders to the first: the first of
 * them that the second sells (the seed's backup variant has TSEL5 inactive; Digiflazz sells no
 * 1 GB one-day package)
 */
const BACKUP_FIRST_CANDIDATES = ["TSELD1GB1", "tseld1", "TSEL5"];

/**
 * what the customers buy, as the shop's codes name them: the first supplier's own codes
 * (Digiflazz's SKUs are lower case, and kios matches codes exactly), or, for a product only
 * the second sells, its code there
 */
const WANTED_PREPAID = ["TSEL5", "TSEL10", "TSEL50", "TSELD1GB1"];
const WANTED_BILL = ["PLNPOST", "PLN"];

async function shopCodes(db: DatabaseHandle): Promise<{ prepaid: string[]; bill: string }> {
  const { rows } = await db.executeSql("select code from products");
  const codes = rows.map((r) => String(r.code));
  const find = (want: string) =>
    codes.find((c) => c.toUpperCase() === want) ??
    codes.find((c) => c.toUpperCase() === `B${want}`);
  const prepaid = WANTED_PREPAID.map(find).filter((c): c is string => c !== undefined);
  const bill = WANTED_BILL.map(find).find((c) => c !== undefined);
  if (prepaid.length < 2 || !bill)
    throw new Error(`the shop lacks the campaign's products: ${codes.join(" ")}`);
  return { prepaid, bill };
}

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

/** seals the H2H and center credentials of the run's shop (a fresh database each run) */
const CAMPAIGN_H2H_KEY = "6b696f732d63616d706169676e2d6832682d6b65792d666f722d746573747321";

export const ADMIN_ID = 9_000_001;
/** a second admin: the owner's staff, who books supplier top-ups too */
export const STAFF_ID = 9_000_002;

/** kios's own supplier timeout is 15 s: a held reply must outlast it to be a timeout */
const SLOW_REPLY_MS = 16_000;

export interface World {
  telegram: RunningBotApiServer;
  /** every supplier, the first first (the one /recon reads first and the owner tops up) */
  suppliers: CampaignSupplier[];
  /** the payment gateway's sandbox (QRIS deposits) */
  gateway: RunningGatewaySandbox;
  database: CampaignDatabase;
  /** the campaign's own connection to kios's database */
  db: DatabaseHandle;
  /** the codes customers type (shopCodes) */
  codes: { prepaid: string[]; bill: string };
  /** the web process's base URL (the H2H doors) */
  webUrl: string;
  /** a kios command as the owner runs it (`kios center-key …`); throws when it fails */
  kios(args: string[]): Promise<string>;
  web: KiosProcess;
  worker: KiosProcess;
  logDir: string;
  close(): Promise<void>;
}

export async function startWorld(o: {
  serverUrl: string;
  seed: number;
  startTimeoutMs: number;
  /** which protocol the first supplier speaks (the second speaks the other) */
  first: Protocol;
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
    const seedFirst = o.first === "seed";
    // the seed-protocol sandbox: first with every fault and a large balance, or second as
    // the playground's second sandbox (its codes, outcome table, account and secret) with a
    // seed of its own per run, fewer faults and a low balance
    const seedCredentials = seedFirst ? DEFAULT_SANDBOX_CREDENTIALS : BACKUP_SANDBOX.credentials;
    const seedBalance = seedFirst ? SUPPLIER_START_BALANCE : BACKUP_START_BALANCE;
    const seedSandbox = await startSandbox({
      ...(seedFirst
        ? { seed: o.seed }
        : { ...BACKUP_SANDBOX.options, seed: BACKUP_SANDBOX.options.seed * 1000 + o.seed }),
      settleDelayMs: 1500,
      slowReplyMs: SLOW_REPLY_MS,
      rateLimitPerSecond: 1000,
      accounts: [
        {
          apiId: seedCredentials.apiId,
          keys: [{ apiKey: seedCredentials.apiKey, secretKey: seedCredentials.secretKey }],
          balance: seedBalance,
        },
      ],
    });
    closers.push(() => seedSandbox.close());
    // the Digiflazz sandbox: the other place, its own faults and seed
    const digiflazzBalance = seedFirst ? BACKUP_START_BALANCE : SUPPLIER_START_BALANCE;
    const digiflazzSandbox = await startDigiflazzSandbox({
      seed: 3000 + o.seed,
      settleDelayMs: 1500,
      slowReplyMs: SLOW_REPLY_MS,
      accounts: [{ ...DIGIFLAZZ_SANDBOX_ACCOUNT, balance: digiflazzBalance }],
    });
    closers.push(() => digiflazzSandbox.stop());
    const seed = seedSupplier({
      name: seedFirst ? FIRST_SUPPLIER : SECOND_SUPPLIER,
      sandbox: seedSandbox,
      credentials: seedCredentials,
      startBalance: seedBalance,
      faults: seedFirst ? CAMPAIGN_FAULTS : BACKUP_FAULTS,
    });
    const digiflazz = digiflazzSupplier({
      name: seedFirst ? SECOND_SUPPLIER : FIRST_SUPPLIER,
      sandbox: digiflazzSandbox,
      startBalance: digiflazzBalance,
      faults: DIGIFLAZZ_FAULTS,
    });
    const suppliers: CampaignSupplier[] = seedFirst ? [seed, digiflazz] : [digiflazz, seed];
    const [first, second] = suppliers as [CampaignSupplier, CampaignSupplier];

    const webPort = await freePort();
    // each supplier reports on its own path (docs/suppliers.md, "Reports")
    first.reportTo(`http://127.0.0.1:${webPort}/supplier/callback`);
    second.reportTo(`http://127.0.0.1:${webPort}/supplier/${SECOND_SUPPLIER}/callback`);
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
      ...first.env("SUPPLIER_"),
      SUPPLIER_NAME: FIRST_SUPPLIER,
      ...second.env("SUPPLIER_2_"),
      SUPPLIER_2_NAME: SECOND_SUPPLIER,
      PAYMENT_GATEWAY: "midtrans",
      MIDTRANS_SERVER_KEY: DEFAULT_GATEWAY_CREDENTIALS.serverKey,
      MIDTRANS_BASE_URL: gateway.url,
      // the sandbox supplier stands in for a real one: kios runs a test gateway beside it
      // only when told to
      PAYMENT_GATEWAY_TESTING: "true",
      ADMIN_IDS: `${ADMIN_ID},${STAFF_ID}`,
      // the H2H doors (the OtomaX door's resellers, run.ts), their reports sent to the
      // campaign's own server on this machine
      H2H_ENCRYPTION_KEY: CAMPAIGN_H2H_KEY,
      H2H_CALLBACK_ALLOW_LOOPBACK: "true",
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
    const seedPrice = seedSandbox
      .catalogue()
      .find((p) => p.code === (seedFirst ? "" : "B") + DEARER_AT_BACKUP)?.price;
    const digiflazzSku = DEARER_AT_BACKUP.toLowerCase();
    const digiflazzPrice = digiflazzSandbox
      .catalogue()
      .find((p) => p.buyer_sku_code === digiflazzSku)?.price;
    const firstPrice = seedFirst ? seedPrice : digiflazzPrice;
    if (firstPrice === undefined)
      throw new Error(`the first supplier sells no ${DEARER_AT_BACKUP}`);
    const dearer =
      markedUp(firstPrice, Number(SHOP_MARKUP_PERCENT) * 100, 0, DEFAULT_ROUND_STEP) + DEARER_BY;
    if (seedFirst) digiflazzSandbox.setProduct(digiflazzSku, { price: dearer });
    else seedSandbox.setPrice(`B${DEARER_AT_BACKUP}`, dearer);
    // the catalogue first, as an owner would (`kios sync`, which links the second supplier's
    // products as routes): with a supplier of its own, kios syncs in a background job, and
    // customers must find products from the first minute. Then the owner's markup and one
    // product sent to the second supplier first
    await syncCatalogue(env(0));
    await owner(env(0), ["markup", "set", "--scope", "all", "--percent", SHOP_MARKUP_PERCENT]);
    const routed = await db.executeSql(
      "select product_code from product_routes where supplier = $1 and product_code = any($2)",
      [SECOND_SUPPLIER, BACKUP_FIRST_CANDIDATES],
    );
    const linked = new Set(routed.rows.map((r) => String(r.product_code)));
    const backupFirst = BACKUP_FIRST_CANDIDATES.find((c) => linked.has(c));
    const all = await db.executeSql(
      "select product_code, supplier, supplier_code, cost from product_routes where product_code ilike 'TSEL%' order by 1, 2",
    );
    if (!backupFirst) {
      throw new Error(
        `${SECOND_SUPPLIER} has no route for ${BACKUP_FIRST_CANDIDATES}; routes: ${all.rows.map((r) => `${r.product_code}@${r.supplier}:${r.supplier_code}`).join(" ")}`,
      );
    }
    await owner(env(0), ["routes", backupFirst, "up", SECOND_SUPPLIER]);
    step(
      `catalogue synced and linked; markup set; ${backupFirst} first at ${SECOND_SUPPLIER}; routes: ${all.rows.map((r) => `${r.product_code}@${r.supplier}:${r.supplier_code}=${r.cost}`).join(" ")}`,
    );
    // together, as a first deploy does: their set-up takes turns (it once deadlocked)
    await Promise.all([web.start(o.startTimeoutMs), worker.start(o.startTimeoutMs)]);
    step("web and worker started");
    const codes = await shopCodes(db);
    step(`customers buy ${codes.prepaid.join(", ")} and the bill ${codes.bill}`);
    const webUrl = `http://127.0.0.1:${webPort}`;
    const kios = async (args: string[]) => {
      const run = await runKiosCommand(args, { ...env(0), LOG_LEVEL: "warn" }, 60_000);
      if (run.code !== 0) {
        throw new Error(`kios ${args.join(" ")} failed (${run.code}): ${run.stderr.trim()}`);
      }
      return run.stdout;
    };
    return {
      kios,
      telegram,
      suppliers,
      gateway,
      database,
      db,
      codes,
      webUrl,
      web,
      worker,
      logDir,
      close,
    };
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
