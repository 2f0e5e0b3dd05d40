import { type Rng, seededRng } from "./rng.ts";
import type { SandboxFaults } from "./types.ts";

// injected trouble, decided per request (and per settled transaction, for callbacks) with
// seeded generators, so a seed gives the same pattern every run.

export const NO_FAULTS: SandboxFaults = {
  latencyMs: 0,
  timeoutRate: 0,
  errorRate: 0,
  errorBeforeRate: 0,
  resetBeforeRate: 0,
  resetAfterRate: 0,
  statusErrorRate: 0,
  productInactiveRate: 0,
  statusLagMs: 0,
  dropCallbacks: false,
  duplicateCallbacks: false,
  reorderCallbacks: false,
  callbackDropRate: 0,
  callbackDuplicateRate: 0,
  callbackReorderRate: 0,
  callbackForgeRate: 0,
  callbackExpireRate: 0,
  keepFailedCharges: false,
};

const RATES = [
  "timeoutRate",
  "errorRate",
  "errorBeforeRate",
  "resetBeforeRate",
  "resetAfterRate",
  "statusErrorRate",
  "productInactiveRate",
  "callbackDropRate",
  "callbackDuplicateRate",
  "callbackReorderRate",
  "callbackForgeRate",
  "callbackExpireRate",
] as const;

export function faultsFrom(partial: Partial<SandboxFaults> = {}): SandboxFaults {
  const faults = { ...NO_FAULTS, ...partial };
  for (const rate of RATES) {
    const v = faults[rate];
    if (!(v >= 0 && v <= 1)) throw new Error(`faults.${rate} must be between 0 and 1`);
  }
  for (const ms of ["latencyMs", "statusLagMs"] as const) {
    if (!(faults[ms] >= 0)) throw new Error(`faults.${ms} must not be negative`);
  }
  return faults;
}

export interface FaultRoll {
  /** answer 500 SERVER_ERROR (after doing the work) */
  error: boolean;
  /** hold the reply back by slowReplyMs */
  slow: boolean;
  /** answer 500 SERVER_ERROR without doing the work */
  errorBefore: boolean;
  /** drop the connection without doing the work */
  resetBefore: boolean;
  /** do the work, then drop the connection instead of answering */
  resetAfter: boolean;
  /** a status query answers 500 (only /v1/status and the key interface's lookups) */
  statusError: boolean;
}

export function createFaultDice(seed: number): (faults: SandboxFaults) => FaultRoll {
  const rng: Rng = seededRng(seed ^ 0x5eed);
  // the later faults have their own generator, so the first two keep the sequence they had
  const more: Rng = seededRng(seed ^ 0xfa17);
  return (faults) => {
    // every die is always thrown, so one rate does not shift another's sequence
    const e = rng();
    const s = rng();
    const eb = more();
    const rb = more();
    const ra = more();
    const se = more();
    return {
      error: e < faults.errorRate,
      slow: s < faults.timeoutRate,
      errorBefore: eb < faults.errorBeforeRate,
      resetBefore: rb < faults.resetBeforeRate,
      resetAfter: ra < faults.resetAfterRate,
      statusError: se < faults.statusErrorRate,
    };
  };
}

/**
 * whether a new order for an active product is refused PRODUCT_INACTIVE (productInactiveRate).
 * Its own generator, thrown once per such order, so the other faults keep their sequences.
 */
export function createProductOutDice(seed: number): (faults: SandboxFaults) => boolean {
  const rng: Rng = seededRng(seed ^ 0x0a7e);
  return (faults) => rng() < faults.productInactiveRate;
}

/**
 * one callback delivery: the final state, a stale Pending, a forged one (a bad signature
 * claiming the opposite outcome) or an expired one (the final state, correctly signed with
 * a timestamp outside the 5-minute window)
 */
export type CallbackKind = "final" | "stale" | "forged" | "expired";

export interface CallbackRoll {
  drop: boolean;
  duplicate: boolean;
  reorder: boolean;
  forge: boolean;
  expire: boolean;
}

export const NO_CALLBACK_ROLL: CallbackRoll = {
  drop: false,
  duplicate: false,
  reorder: false,
  forge: false,
  expire: false,
};

export function createCallbackDice(seed: number): (faults: SandboxFaults) => CallbackRoll {
  const rng: Rng = seededRng(seed ^ 0xcab1);
  return (faults) => {
    const [d, u, r, f, x] = [rng(), rng(), rng(), rng(), rng()];
    return {
      drop: faults.dropCallbacks || d < faults.callbackDropRate,
      duplicate: faults.duplicateCallbacks || u < faults.callbackDuplicateRate,
      reorder: faults.reorderCallbacks || r < faults.callbackReorderRate,
      forge: f < faults.callbackForgeRate,
      expire: x < faults.callbackExpireRate,
    };
  };
}

/** which payloads a settled transaction's callbacks carry, in delivery order */
export function callbackPlan(
  rule: "once" | "none" | "twice-then-stale",
  faults: SandboxFaults,
  roll: CallbackRoll = NO_CALLBACK_ROLL,
): CallbackKind[] {
  if (rule === "none" || faults.dropCallbacks || roll.drop) return [];
  let plan: CallbackKind[] = rule === "twice-then-stale" ? ["final", "final", "stale"] : ["final"];
  if (faults.duplicateCallbacks || roll.duplicate) plan = plan.flatMap((p) => [p, p]);
  if ((faults.reorderCallbacks || roll.reorder) && !plan.includes("stale")) plan.push("stale");
  // a forgery races ahead of the real callback; a replay of it comes late
  if (roll.forge) plan.unshift("forged");
  if (roll.expire) plan.push("expired");
  return plan;
}
