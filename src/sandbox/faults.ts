import { type Rng, seededRng } from "./rng.ts";
import type { SandboxFaults } from "./types.ts";

// injected trouble, decided per request with the seeded generator.

export const NO_FAULTS: SandboxFaults = {
  latencyMs: 0,
  timeoutRate: 0,
  errorRate: 0,
  dropCallbacks: false,
  duplicateCallbacks: false,
  reorderCallbacks: false,
};

export function faultsFrom(partial: Partial<SandboxFaults> = {}): SandboxFaults {
  const faults = { ...NO_FAULTS, ...partial };
  for (const rate of ["timeoutRate", "errorRate"] as const) {
    const v = faults[rate];
    if (!(v >= 0 && v <= 1)) throw new Error(`faults.${rate} must be between 0 and 1`);
  }
  if (!(faults.latencyMs >= 0)) throw new Error("faults.latencyMs must not be negative");
  return faults;
}

export interface FaultRoll {
  /** answer 500 SERVER_ERROR (after doing the work) */
  error: boolean;
  /** hold the reply back by slowReplyMs */
  slow: boolean;
}

export function createFaultDice(seed: number): (faults: SandboxFaults) => FaultRoll {
  const rng: Rng = seededRng(seed ^ 0x5eed);
  return (faults) => {
    // both dice are always thrown, so one rate does not shift the other's sequence
    const e = rng();
    const s = rng();
    return { error: e < faults.errorRate, slow: s < faults.timeoutRate };
  };
}

/** which payloads a settled transaction's callbacks carry, in delivery order */
export function callbackPlan(
  rule: "once" | "none" | "twice-then-stale",
  faults: SandboxFaults,
): ("final" | "stale")[] {
  if (rule === "none" || faults.dropCallbacks) return [];
  let plan: ("final" | "stale")[] =
    rule === "twice-then-stale" ? ["final", "final", "stale"] : ["final"];
  if (faults.duplicateCallbacks) plan = plan.flatMap((p) => [p, p]);
  if (faults.reorderCallbacks && !plan.includes("stale")) plan.push("stale");
  return plan;
}
