import {
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  type DigiflazzFaults,
  NO_DIGIFLAZZ_FAULTS,
  type RunningDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
import { NO_FAULTS, type RunningSandbox, type SandboxFaults } from "@kios/supplier-sandbox";
import type { SupplierCallFact, SupplierTransactionFact } from "./facts.ts";

// a supplier the campaign runs, whatever protocol it speaks: its books (balance,
// transactions, every call it received) read as plain facts, its faults switched on and off,
// its pending transactions settled. The checks never ask kios what a supplier did.

export type Protocol = "seed" | "digiflazz";

export interface CampaignSupplier {
  /** its name in kios (SUPPLIER_NAME, SUPPLIER_2_NAME) */
  name: string;
  protocol: Protocol;
  startBalance: number;
  /** its account's balance now, from its own books */
  balance(): number;
  /** money put into its account (the owner's top-up), as a bank transfer would */
  credit(amount: number): void;
  faultsOn(): void;
  faultsOff(): void;
  /** settles every pending transaction now (and reports it) */
  settleNow(): Promise<void>;
  transactions(): SupplierTransactionFact[];
  calls(): SupplierCallFact[];
  /** where it reports (kios's report path for it) */
  reportTo(url: string): void;
  /** the environment kios is configured with for it (prefix SUPPLIER_ or SUPPLIER_2_) */
  env(prefix: string): Record<string, string>;
}

/**
 * the seed sandbox's failure reasons by outcome (its README, "Outcomes"): 941 to 945 are the
 * product's or the supplier's sake, 946 the destination's; every other failure gives none
 */
function seedFailure(outcome: string): SupplierTransactionFact["failure"] {
  const ending = outcome.slice(0, 3);
  if (["941", "942", "943", "944", "945"].includes(ending)) return "product";
  if (ending === "946") return "destination";
  return "none";
}

export function seedSupplier(o: {
  name: string;
  sandbox: RunningSandbox;
  credentials: { apiId: string; apiKey: string; secretKey: string };
  startBalance: number;
  faults: SandboxFaults;
}): CampaignSupplier {
  const { sandbox } = o;
  const account = () => sandbox.account(o.credentials.apiId);
  return {
    name: o.name,
    protocol: "seed",
    startBalance: o.startBalance,
    balance: () => account().balance,
    credit: (amount) => account().setBalance(account().balance + amount),
    faultsOn: () => {
      sandbox.faults = { ...o.faults };
    },
    faultsOff: () => {
      sandbox.faults = { ...NO_FAULTS };
    },
    settleNow: () => sandbox.settleNow(),
    transactions: () =>
      sandbox.transactions().map((t) => ({
        supplier: o.name,
        refId: t.refId,
        kind: t.kind,
        code: t.code,
        customerNo: t.customerNo,
        status: t.status,
        charged: t.charged,
        failure: t.status === "failed" ? seedFailure(t.outcome) : undefined,
      })),
    calls: () => [
      ...sandbox.requests().map(
        (r): SupplierCallFact => ({
          supplier: o.name,
          refId: r.refId,
          at: r.at,
          result: r.result,
          code: "",
        }),
      ),
      ...sandbox.refusals().map(
        (r): SupplierCallFact => ({
          supplier: o.name,
          refId: r.refId,
          at: r.at,
          result: "refused",
          code: r.code,
        }),
      ),
    ],
    reportTo: (url) => account().setCallbackUrl(url),
    env: (prefix) => ({
      [`${prefix}BASE_URL`]: sandbox.url,
      [`${prefix}API_ID`]: o.credentials.apiId,
      [`${prefix}API_KEY`]: o.credentials.apiKey,
      [`${prefix}SECRET_KEY`]: o.credentials.secretKey,
    }),
  };
}

/**
 * Digiflazz's rc codes by whose sake a formed transaction failed (the campaign's own copy
 * of docs/suppliers.md's table, so kios's table can't vouch for itself)
 */
const DIGIFLAZZ_PRODUCT_RCS = new Set(["53", "55", "58", "70", "71", "74", "85"]);
const DIGIFLAZZ_DESTINATION_RCS = new Set(["51", "52", "54", "57", "59", "60", "72", "73"]);

function digiflazzFailure(rc: string): SupplierTransactionFact["failure"] {
  if (DIGIFLAZZ_PRODUCT_RCS.has(rc)) return "product";
  if (DIGIFLAZZ_DESTINATION_RCS.has(rc)) return "destination";
  return "none";
}

export function digiflazzSupplier(o: {
  name: string;
  sandbox: RunningDigiflazzSandbox;
  startBalance: number;
  faults: Partial<DigiflazzFaults>;
}): CampaignSupplier {
  const { sandbox } = o;
  const account = DIGIFLAZZ_SANDBOX_ACCOUNT;
  const mine = <T extends { username: string }>(xs: Iterable<T>) =>
    [...xs].filter((x) => x.username === account.username);
  return {
    name: o.name,
    protocol: "digiflazz",
    startBalance: o.startBalance,
    balance: () => sandbox.account(account.username).balance,
    credit: (amount) => sandbox.account(account.username).credit(amount),
    faultsOn: () => {
      sandbox.faults = { ...NO_DIGIFLAZZ_FAULTS, ...o.faults };
    },
    faultsOff: () => {
      sandbox.faults = { ...NO_DIGIFLAZZ_FAULTS };
    },
    settleNow: async () => {
      sandbox.settleAll();
      await sandbox.webhooks.idle();
    },
    transactions: () =>
      mine(sandbox.state.txns.values()).map((t) => ({
        supplier: o.name,
        refId: t.refId,
        kind: t.kind === "bill" ? "bill" : "order",
        code: t.sku,
        customerNo: t.customerNo,
        status: t.status === "Sukses" ? "success" : t.status === "Gagal" ? "failed" : "pending",
        // the sandbox refunds what fails: only a success stays charged
        charged: t.status === "Sukses" && !t.testing ? t.price : 0,
        failure: t.status === "Gagal" ? digiflazzFailure(t.rc) : undefined,
      })),
    calls: () =>
      mine(sandbox.state.calls).flatMap((c): SupplierCallFact[] =>
        c.result === "invalid"
          ? []
          : [{ supplier: o.name, refId: c.refId, at: c.at, result: c.result, code: c.rc }],
      ),
    reportTo: (url) => sandbox.account(account.username).setWebhookUrl(url),
    env: (prefix) => ({
      [`${prefix}INTERFACE`]: "digiflazz",
      [`${prefix}BASE_URL`]: sandbox.url,
      [`${prefix}USERNAME`]: account.username,
      [`${prefix}API_KEY`]: account.apiKey,
      [`${prefix}WEBHOOK_SECRET`]: account.webhookSecret,
      // kios's own timeout; the sandbox's held replies outlast it
      [`${prefix}TIMEOUT_MS`]: "15000",
    }),
  };
}
