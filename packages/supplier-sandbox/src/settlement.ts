import type { Clock } from "@kios/kit";
import type { Logger } from "pino";
import type { Accounts } from "./accounts.ts";
import { type CallbackKind, type CallbackRoll, callbackPlan } from "./faults.ts";
import type { ReportPayload, ReportSender } from "./reports.ts";
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
  callbacks: ReportSender;
  faults: () => SandboxFaults;
  /** decides the callback faults of one settled transaction */
  rollCallbacks?: (faults: SandboxFaults) => CallbackRoll;
  logger: Logger;
  intervalMs?: number;
}

/** an expired callback's timestamp: well outside the 5-minute window */
const EXPIRED_BY_MS = 10 * 60 * 1000;

function payloadOf(t: StoredTransaction, kind: CallbackKind): ReportPayload {
  switch (kind) {
    case "final":
      return { data: wireResult(t) };
    case "stale":
      return { data: wireResult(t, "pending") };
    case "expired":
      return { data: wireResult(t), timestampOffsetMs: -EXPIRED_BY_MS };
    case "forged": {
      // a forger claims the outcome that would cost the shop: the opposite one
      const claim = t.status === "success" ? "failed" : "success";
      return {
        data: { ...wireResult(t, claim), sn: claim === "success" ? "FORGED" : null },
        forged: true,
      };
    }
  }
}

export function createSettlement(deps: SettlementDeps): Settlement {
  let timer: NodeJS.Timeout | undefined;

  function settle(t: StoredTransaction): void {
    t.status = t.rule.final;
    t.settleAt = null;
    t.settledAt = deps.clock.now();
    const account = deps.accounts.get(t.apiId);
    const faults = deps.faults();
    if (t.status === "failed" && account && !faults.keepFailedCharges) {
      account.balance += t.charged;
      t.charged = 0;
    }
    deps.logger.debug({ refId: t.refId, status: t.status }, "transaction settled");
    const plan = callbackPlan(t.rule.callbacks, faults, deps.rollCallbacks?.(faults));
    const url = account?.callbackUrl;
    if (plan.length === 0 || !url) return;
    const payloads = plan.map((kind) => payloadOf(t, kind));
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
