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
import { vi } from "vitest";
import { type Journey, startJourney } from "./e2e.ts";
import { patient } from "./patience.ts";

// a shop on kios's full start-up (the local Bot API server, real HTTP) buying from the
// Digiflazz sandbox alone, or from it and the seed's signature sandbox in either order:
// test/e2e/digiflazz*.test.ts. Both sandboxes keep the shop's clock, so the shop's minute
// between Digiflazz re-sends is the sandbox's minute too (state.earlyResends). The shop's
// catalogue is its own first sync (the job a start runs on an empty catalogue): a second
// sync of the test's own would ask Digiflazz for the whole list again, and within its
// five minutes that is refused (rc 83) unless the first answer is still cached.

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
 * boots the shop with its suppliers in the order given (`beforeStart` changes the sandboxes
 * before the shop first reads them), points each sandbox's reports at its path (the
 * first's `/supplier/callback`, a backup's `/supplier/<name>/callback`) and returns once
 * the start's catalogue sync has made the products and linked the second supplier's
 */
export async function startDigiflazzShop(options: {
  suppliers: readonly ["digiflazz"] | readonly [Kind, Kind];
  /** more configuration (SUPPLIER_TIMEOUT_MS, MIN_MARGIN, H2H_ENCRYPTION_KEY, …) */
  env?: Record<string, string>;
  digiflazz?: Omit<DigiflazzSandboxOptions, "clock">;
  seed?: Omit<SandboxOptions, "clock">;
  beforeStart?: (sandboxes: { d: RunningDigiflazzSandbox; s: RunningSandbox | undefined }) => void;
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
  options.beforeStart?.({ d, s });
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
    async stop() {
      await j.stop();
      await d.stop();
      await s?.close();
    },
  };
  const secondName =
    second === undefined ? undefined : second === "seed" ? SEED_NAME : DIGIFLAZZ_NAME;
  try {
    await vi.waitFor(
      async () => {
        // the sync and each link commit in one transaction: products, then the routes
        const { rows } = await j.app.app.database.executeSql(
          secondName === undefined
            ? "select count(*)::int as n from products"
            : "select count(*)::int as n from product_routes where supplier = $1",
          secondName === undefined ? [] : [secondName],
        );
        if (Number(rows[0]?.n ?? 0) === 0) throw new Error("the first catalogue sync is not done");
      },
      { timeout: patient(60_000), interval: 200 },
    );
  } catch (err) {
    const failed = j.app
      .logs()
      .split("\n")
      .filter((l) => /sync failed|linking a supplier/.test(l));
    await shop.stop();
    throw new Error(`${(err as Error).message}: ${failed.join("\n") || "no sync error logged"}`);
  }
  return shop;
}
