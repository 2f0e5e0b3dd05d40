import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { settings } from "../../db/schema.ts";
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

/** the rounding step of selling prices (rupiah); a missing or broken setting means Rp100 */
export async function getRoundStep(db: Executor): Promise<number> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, ROUND_STEP_SETTING));
  const value = typeof row?.value === "string" ? Number(row.value) : row?.value;
  return validStep(value) ? value : DEFAULT_ROUND_STEP;
}

export async function setRoundStep(db: Executor, step: number): Promise<void> {
  if (!validStep(step)) {
    throw new PricingError(
      "INVALID_STEP",
      `the rounding step must be a whole number of rupiah from 1 to ${MAX_ROUND_STEP} (got ${step})`,
      "step",
    );
  }
  await db
    .insert(settings)
    .values({ key: ROUND_STEP_SETTING, value: step })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: step, updatedAt: sql`now()` },
    });
}
