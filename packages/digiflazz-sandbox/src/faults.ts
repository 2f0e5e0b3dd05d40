import { type Rng, seededRng } from "@kios/kit";
import type { Outcome } from "./outcomes.ts";

// fault injection (README.md, "Faults"): seeded, all off by default, mutable at run time. Each
// fault is thrown only where Digiflazz could plausibly do it: a refusal only for a ref_id it
// does not hold (nothing is formed), a product's or destination's failure only for a number
// whose own outcome is a plain success, a lost answer only after the work.

export interface DigiflazzFaults {
  /** a /transaction answered HTTP 500 before any work (nothing formed, nothing recorded but the call) */
  errorBeforeRate: number;
  /** a new transaction formed, then its answer replaced by HTTP 500 (the buyer does not learn of it) */
  errorAfterRate: number;
  /** a new transaction formed, then its answer held slowReplyMs (past the buyer's timeout) */
  timeoutRate: number;
  /** a whole price list served (its 5-minute window opened), then its answer held slowReplyMs */
  priceListSlowRate: number;
  /** a new ref_id refused with nothing formed, its rc drawn from refusalRcs */
  refuseRate: number;
  /** the rc codes refuseRate draws from (default 44 balance short, 43 SKU down, 62 seller down, 68 out of stock, 69 price above max_price) */
  refusalRcs: readonly string[];
  /** formed and failed for the product's sake: at once (55) or pending then failed (71) */
  productFailRate: number;
  /** formed and failed for the destination's sake: at once (54) or pending then failed (51) */
  destinationFailRate: number;
  /** formed pending, then success by webhook (instead of success at once) */
  pendingRate: number;
  /** a settlement's webhook never posted */
  webhookDropRate: number;
  /** a settlement's webhook posted twice */
  webhookDuplicateRate: number;
  /** a webhook with a wrong X-Hub-Signature claiming the opposite outcome, before the real one */
  webhookForgeRate: number;
}

export const NO_DIGIFLAZZ_FAULTS: DigiflazzFaults = {
  errorBeforeRate: 0,
  errorAfterRate: 0,
  timeoutRate: 0,
  priceListSlowRate: 0,
  refuseRate: 0,
  refusalRcs: ["44", "43", "62", "68", "69"],
  productFailRate: 0,
  destinationFailRate: 0,
  pendingRate: 0,
  webhookDropRate: 0,
  webhookDuplicateRate: 0,
  webhookForgeRate: 0,
};

export interface FaultDice {
  /** what happens to the call before any work */
  before(): "error" | undefined;
  /** a refusal's rc for a new ref_id, or undefined */
  refusal(): string | undefined;
  /** a plain success's outcome, perhaps turned into a failure or a pending one */
  outcome(plain: Outcome): Outcome;
  /** what happens to the answer of a call that formed a transaction */
  after(): "error" | "slow" | undefined;
  /** whether a whole price list's answer, once served, is held past the buyer's timeout */
  slowList(): boolean;
  /** the webhook of one settlement: dropped, sent once or twice, preceded by a forgery */
  webhook(): { drop: boolean; duplicate: boolean; forge: boolean };
}

const failedNow = (rc: string): Outcome => ({
  initial: "failed",
  final: "failed",
  rc,
  finalRc: rc,
});
const pendingThen = (final: "success" | "failed", finalRc: string): Outcome => ({
  initial: "pending",
  final,
  rc: "03",
  finalRc,
});

export function createFaultDice(faults: () => DigiflazzFaults, seed: number): FaultDice {
  const rng: Rng = seededRng(seed);
  const hit = (rate: number) => rate > 0 && rng() < rate;
  return {
    before: () => (hit(faults().errorBeforeRate) ? "error" : undefined),
    refusal() {
      const f = faults();
      if (!hit(f.refuseRate) || f.refusalRcs.length === 0) return undefined;
      return f.refusalRcs[Math.floor(rng() * f.refusalRcs.length)];
    },
    outcome(plain) {
      const f = faults();
      if (plain.initial !== "success") return plain;
      if (hit(f.productFailRate))
        return rng() < 0.5 ? failedNow("55") : pendingThen("failed", "71");
      if (hit(f.destinationFailRate))
        return rng() < 0.5 ? failedNow("54") : pendingThen("failed", "51");
      if (hit(f.pendingRate)) return pendingThen("success", "00");
      return plain;
    },
    after() {
      const f = faults();
      if (hit(f.errorAfterRate)) return "error";
      if (hit(f.timeoutRate)) return "slow";
      return undefined;
    },
    slowList: () => hit(faults().priceListSlowRate),
    webhook() {
      const f = faults();
      return {
        drop: hit(f.webhookDropRate),
        duplicate: hit(f.webhookDuplicateRate),
        forge: hit(f.webhookForgeRate),
      };
    },
  };
}
