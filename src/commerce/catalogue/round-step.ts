import type { Executor } from "../../db/client.ts";
import { getSetting, putSetting } from "../settings.ts";
import { PricingError } from "./errors.ts";
import { DEFAULT_ROUND_STEP } from "./pricing.ts";

export const ROUND_STEP_SETTING = "pricing.round_step";
const MAX_ROUND_STEP = 100_000;

function validStep(value: unknown): value is number {
  return (
    typeof value === "number" &&
    Number.isSafeInteger(value) &&
    value >= 1 &&
    value <= MAX_ROUND_STEP
  );
}

/** a stored step: a number, or a numeric string written by hand */
export const storedRoundStep = (v: unknown): v is number | string =>
  validStep(typeof v === "string" ? Number(v) : v);

/** the rounding step of selling prices (rupiah); a missing or broken setting means Rp100 */
export async function getRoundStep(db: Executor): Promise<number> {
  return Number(await getSetting(db, ROUND_STEP_SETTING, DEFAULT_ROUND_STEP, storedRoundStep));
}

export async function setRoundStep(db: Executor, step: number): Promise<void> {
  if (!validStep(step)) {
    throw new PricingError(
      "INVALID_STEP",
      `the rounding step must be a whole number of rupiah from 1 to ${MAX_ROUND_STEP} (got ${step})`,
      "step",
      { min: 1, max: MAX_ROUND_STEP, got: String(step) },
    );
  }
  await putSetting(db, ROUND_STEP_SETTING, step);
}
