import {
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  type DigiflazzSandboxOptions,
  type RunningDigiflazzSandbox,
  startDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
import { ManualClock } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "@kios/supplier-sandbox";
import { syncAndLink } from "../../src/commerce/catalogue/sync-job.ts";
import { type Journey, startJourney } from "./e2e.ts";

// a shop on kios's full start-up (the local Bot API server, real HTTP) buying from the
// Digiflazz sandbox alone, or from it and the seed's signature sandbox in either order:
// test/e2e/digiflazz*.test.ts. Both sandboxes keep the shop's clock, so the shop's minute
// between Digiflazz re-sends is the sandbox's minute too (state.earlyResends).

export const DIGIFLAZZ_NAME = "dflz";
export const SEED_NAME = "seed";

type Kind = "digiflazz" | "seed";

export interface DigiflazzShop {
  j: Journey;
  /** the Digiflazz sandbox */
  d: RunningDigiflazzSandbox;
  /** the seed's signature sandbox (a shop with both suppliers) */
  s: RunningSandbox | undefined;
  /** every /transaction body Digiflazz was sent for one ref_id */
  sentTo(refId: string): Record<string, unknown>[];
  /** every /transaction body Digiflazz was sent for one customer number */
  sentFor(customerNo: string): Record<string, unknown>[];
  /** the owner's `kios sync`: the first supplier's catalogue, the others linked as routes */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

const account = DIGIFLAZZ_SANDBOX_ACCOUNT;

function envOf(kind: Kind, prefix: string, d: RunningDigiflazzSandbox, s?: RunningSandbox) {
  if (kind === "digiflazz") {
    return {
      [`${prefix}INTERFACE`]: "digiflazz",
      [`${prefix}NAME`]: DIGIFLAZZ_NAME,
      [`${prefix}BASE_URL`]: d.url,
      [`${prefix}USERNAME`]: account.username,
      [`${prefix}API_KEY`]: account.apiKey,
      [`${prefix}WEBHOOK_SECRET`]: account.webhookSecret,
    };
  }
  if (!s) throw new Error("no seed sandbox");
  return {
    [`${prefix}INTERFACE`]: "signature",
    [`${prefix}NAME`]: SEED_NAME,
    [`${prefix}BASE_URL`]: s.url,
    [`${prefix}API_ID`]: DEFAULT_SANDBOX_CREDENTIALS.apiId,
    [`${prefix}API_KEY`]: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
    [`${prefix}SECRET_KEY`]: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
  };
}

/**
 * boots the shop with its suppliers in the order given, points each sandbox's reports at
 * its path (the first's `/supplier/callback`, a backup's `/supplier/<name>/callback`), runs
 * `beforeSync` (prices, products, markups), then syncs
 */
export async function startDigiflazzShop(options: {
  suppliers: readonly ["digiflazz"] | readonly [Kind, Kind];
  /** more configuration (SUPPLIER_TIMEOUT_MS, MIN_MARGIN, H2H_ENCRYPTION_KEY, …) */
  env?: Record<string, string>;
  digiflazz?: Omit<DigiflazzSandboxOptions, "clock">;
  seed?: Omit<SandboxOptions, "clock">;
  beforeSync?: (shop: DigiflazzShop) => void | Promise<void>;
}): Promise<DigiflazzShop> {
  const clock = new ManualClock();
  const d = await startDigiflazzSandbox({
    hostname: "127.0.0.1",
    settleDelayMs: 300,
    ...options.digiflazz,
    clock,
  });
  const both = options.suppliers.length === 2;
  const s = both
    ? await startSandbox({
        hostname: "127.0.0.1",
        port: 0,
        settleDelayMs: 300,
        ...options.seed,
        clock,
      })
    : undefined;
  const [first, second] = options.suppliers;
  const env = {
    ...envOf(first, "SUPPLIER_", d, s),
    ...(second ? envOf(second, "SUPPLIER_2_", d, s) : {}),
    ...options.env,
  };
  let j: Journey;
  try {
    j = await startJourney({ env, clock });
  } catch (err) {
    await d.stop();
    await s?.close();
    throw err;
  }
  const pathOf = (kind: Kind) =>
    kind === first
      ? "/supplier/callback"
      : `/supplier/${kind === "seed" ? SEED_NAME : DIGIFLAZZ_NAME}/callback`;
  d.account().setWebhookUrl(`${j.app.baseUrl}${pathOf("digiflazz")}`);
  s?.account().setCallbackUrl(`${j.app.baseUrl}${pathOf("seed")}`);
  const shop: DigiflazzShop = {
    j,
    d,
    s,
    sentTo: (refId) => d.state.requests.filter((b) => b.ref_id === refId),
    sentFor: (customerNo) => d.state.requests.filter((b) => b.customer_no === customerNo),
    async sync() {
      const registry = j.app.app.suppliers!;
      await syncAndLink({
        db: j.app.app.database.db,
        supplier: registry.first.supplier,
        firstSupplier: registry.first.name,
        others: registry.all.slice(1).map((x) => ({ name: x.name, supplier: x.supplier })),
        logger: j.app.app.logger,
      });
    },
    async stop() {
      await j.stop();
      await d.stop();
      await s?.close();
    },
  };
  await options.beforeSync?.(shop);
  await shop.sync();
  return shop;
}
