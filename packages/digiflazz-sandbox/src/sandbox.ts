import { type Clock, listen, systemClock } from "@kios/kit";
import { createDigiflazzApp } from "./app.ts";
import { defaultPasca, defaultPrepaid, type PascaItem, type PrepaidItem } from "./catalogue.ts";
import { createFaultDice, type DigiflazzFaults, NO_DIGIFLAZZ_FAULTS } from "./faults.ts";
import { createState, type SandboxAccount, type SandboxState } from "./state.ts";
import { createWebhookSender, type WebhookSender } from "./webhook.ts";

// the composition root of the Digiflazz sandbox.

/** the sandbox's own account: not secret, printed by the playground */
export const DIGIFLAZZ_SANDBOX_ACCOUNT = {
  username: "kiosbackup",
  apiKey: "dev-digiflazz-sandbox-key",
  webhookSecret: "digiflazz-sandbox-webhook-secret",
} as const;

export const DIGIFLAZZ_SANDBOX_BALANCE = 5_000_000;

export interface DigiflazzSandboxOptions {
  clock?: Clock;
  accounts?: Omit<SandboxAccount, "webhookUrl">[];
  prepaid?: PrepaidItem[];
  pasca?: PascaItem[];
  /** how long a pending transaction waits for its final state; default 1500 ms */
  settleDelayMs?: number;
  /** fault injection (faults.ts); all off by default, mutable through `faults` */
  faults?: Partial<DigiflazzFaults>;
  /** the seed of the faults' dice; default 1 */
  seed?: number;
  /** how long the timeout fault holds a reply (ms); default 16 000 (past a 15 s timeout) */
  slowReplyMs?: number;
}

export interface DigiflazzSandbox {
  fetch(request: Request): Response | Promise<Response>;
  readonly state: SandboxState;
  readonly webhooks: WebhookSender;
  /** one account's handle (the first by default) */
  account(username?: string): {
    readonly balance: number;
    setWebhookUrl(url: string | undefined): void;
    credit(amount: number): void;
  };
  /** settles a pending transaction now (and posts its webhook) */
  settle(refId: string, username?: string): void;
  /** settles every pending transaction now */
  settleAll(): void;
  /** the faults in force, mutable at run time */
  faults: DigiflazzFaults;
  /** the prepaid price list as it stands */
  catalogue(): readonly PrepaidItem[];
  /** a product's price or status, changed as a seller would */
  setProduct(sku: string, change: Partial<PrepaidItem>): void;
  /** clears the timers of pending settlements */
  close(): void;
}

export function createDigiflazzSandbox(options: DigiflazzSandboxOptions = {}): DigiflazzSandbox {
  const clock = options.clock ?? systemClock;
  const accounts = (
    options.accounts ?? [{ ...DIGIFLAZZ_SANDBOX_ACCOUNT, balance: DIGIFLAZZ_SANDBOX_BALANCE }]
  ).map((a) => ({ ...a, webhookUrl: undefined }));
  const state = createState(accounts);
  const webhooks = createWebhookSender();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const prepaid = options.prepaid ?? defaultPrepaid();
  let faults: DigiflazzFaults = { ...NO_DIGIFLAZZ_FAULTS, ...options.faults };
  const { app, settle, settleAll } = createDigiflazzApp({
    dice: createFaultDice(() => faults, options.seed ?? 1),
    slowReplyMs: options.slowReplyMs ?? 16_000,
    state,
    prepaid,
    pasca: options.pasca ?? defaultPasca(),
    clock,
    webhooks,
    settleDelayMs: options.settleDelayMs ?? 1500,
    later(ms, run) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    },
  });
  const first = accounts[0]!.username;
  const accountOf = (username = first) => {
    const a = state.accounts.get(username);
    if (!a) throw new Error(`no sandbox account ${username}`);
    return a;
  };
  return {
    fetch: (request) => app.fetch(request),
    state,
    webhooks,
    account(username) {
      const a = accountOf(username);
      return {
        get balance() {
          return a.balance;
        },
        setWebhookUrl(url) {
          a.webhookUrl = url;
        },
        credit(amount) {
          a.balance += amount;
        },
      };
    },
    settle: (refId, username = first) => settle(username, refId),
    settleAll,
    get faults() {
      return faults;
    },
    set faults(next) {
      faults = { ...NO_DIGIFLAZZ_FAULTS, ...next };
    },
    catalogue: () => prepaid.map((p) => ({ ...p })),
    setProduct(sku, change) {
      const p = prepaid.find((x) => x.buyer_sku_code === sku);
      if (!p) throw new Error(`no sandbox product ${sku}`);
      Object.assign(p, change);
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

export interface RunningDigiflazzSandbox extends DigiflazzSandbox {
  /** its base URL, ending in /v1 */
  readonly url: string;
  stop(): Promise<void>;
}

export async function startDigiflazzSandbox(
  options: DigiflazzSandboxOptions & { port?: number; hostname?: string } = {},
): Promise<RunningDigiflazzSandbox> {
  const sandbox = createDigiflazzSandbox(options);
  const hostname = options.hostname ?? "127.0.0.1";
  const server = await listen(sandbox, options.port ?? 0, hostname);
  return Object.assign(sandbox, {
    url: `http://${hostname}:${server.port}/v1`,
    async stop() {
      sandbox.close();
      await sandbox.webhooks.idle();
      await server.close();
    },
  });
}
