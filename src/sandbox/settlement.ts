import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { Accounts } from "./accounts.ts";
import type { CallbackSender } from "./callbacks.ts";
import { callbackPlan } from "./faults.ts";
import { wireResult } from "./results.ts";
import type { Store, StoredTransaction } from "./store.ts";
import type { SandboxFaults } from "./types.ts";

// pending → final: a timer loop settles what is due by the clock; settleAll() does it now.

export interface Settlement {
  start(): void;
  stop(): void;
  /** settles every pending transaction whatever its time, and waits for the callbacks */
  settleAll(): Promise<void>;
}

export interface SettlementDeps {
  store: Store;
  accounts: Accounts;
  clock: Clock;
  callbacks: CallbackSender;
  faults: () => SandboxFaults;
  logger: Logger;
  intervalMs?: number;
}

export function createSettlement(deps: SettlementDeps): Settlement {
  let timer: NodeJS.Timeout | undefined;

  function settle(t: StoredTransaction): void {
    t.status = t.rule.final;
    t.settleAt = null;
    const account = deps.accounts.get(t.apiId);
    if (t.status === "failed" && account) {
      account.balance += t.charged;
      t.charged = 0;
    }
    deps.logger.debug({ refId: t.refId, status: t.status }, "transaction settled");
    const plan = callbackPlan(t.rule.callbacks, deps.faults());
    const url = account?.callbackUrl;
    if (plan.length === 0 || !url) return;
    const payloads = plan.map((p) => (p === "final" ? wireResult(t) : wireResult(t, "pending")));
    void deps.callbacks.deliver(url, t.secretKey, payloads, t.refId).then((n) => {
      t.callbacksDelivered += n;
    });
  }

  function settleDue(): void {
    const now = deps.clock.now();
    for (const t of deps.store.pending()) if (t.settleAt !== null && t.settleAt <= now) settle(t);
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(settleDue, deps.intervalMs ?? 25);
      // the loop alone must not keep a process alive
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    async settleAll() {
      for (const t of deps.store.pending()) settle(t);
      await deps.callbacks.idle();
    },
  };
}
