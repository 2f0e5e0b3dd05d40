import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { resellerMarkups } from "../../db/schema.ts";
import type { ChainLimits } from "../catalogue/chain.ts";
import { PricingError } from "../catalogue/errors.ts";
import { resolveScopeValue } from "../catalogue/markup-rules.ts";
import { CHAIN_LIMIT_SETTINGS, chainLimits } from "../catalogue/prices.ts";
import { MARKUP_SCOPES, type MarkupScope } from "../catalogue/pricing.ts";
import { putSetting } from "../settings.ts";

// a reseller's markups over their own price, paid by their downlines: the shop's rules
// (one rule applies, the most specific; rounded up to the shop's step), never negative, and
// within the owner's limits per level (docs/resellers.md#prices-down-the-tree)

export interface ResellerMarkup {
  id: number;
  scope: MarkupScope;
  scopeValue: string;
  percentBp: number;
  flat: number;
}

const columns = {
  id: resellerMarkups.id,
  scope: resellerMarkups.scope,
  scopeValue: resellerMarkups.scopeValue,
  percentBp: resellerMarkups.percentBp,
  flat: resellerMarkups.flat,
};

const SPECIFICITY = sql`case ${resellerMarkups.scope}
  when 'all' then 0 when 'type' then 1 when 'category' then 2 when 'brand' then 3 else 4 end`;

export async function listResellerMarkups(
  db: Executor,
  resellerId: number,
): Promise<ResellerMarkup[]> {
  return db
    .select(columns)
    .from(resellerMarkups)
    .where(eq(resellerMarkups.resellerId, resellerId))
    .orderBy(SPECIFICITY, asc(resellerMarkups.scopeValue));
}

/** creates or replaces a reseller's rule for a scope; refused beyond the owner's limits */
export async function setResellerMarkup(
  db: Executor,
  resellerId: number,
  input: { scope: MarkupScope; scopeValue?: string; percentBp: number; flat?: number },
): Promise<ResellerMarkup> {
  if (!(MARKUP_SCOPES as readonly string[]).includes(input.scope)) {
    throw new PricingError("INVALID_SCOPE", `unknown scope ${input.scope}`, "scope", {
      got: input.scope,
    });
  }
  const limits = await chainLimits(db);
  const flat = input.flat ?? 0;
  if (
    !Number.isSafeInteger(input.percentBp) ||
    input.percentBp < 0 ||
    input.percentBp > limits.maxBp
  ) {
    throw new PricingError(
      "INVALID_PERCENT",
      `the percentage must be from 0 to ${limits.maxBp / 100} % (got ${input.percentBp / 100} %)`,
      "percentBp",
      { min: 0, max: limits.maxBp, got: input.percentBp },
    );
  }
  if (!Number.isSafeInteger(flat) || flat < 0 || flat > limits.maxFlat) {
    throw new PricingError(
      "INVALID_FLAT",
      `the amount must be whole rupiah from 0 to ${limits.maxFlat} (got ${flat})`,
      "flat",
      { min: 0, max: limits.maxFlat, got: flat },
    );
  }
  const scopeValue = await resolveScopeValue(db, input.scope, (input.scopeValue ?? "").trim());
  const [rule] = await db
    .insert(resellerMarkups)
    .values({ resellerId, scope: input.scope, scopeValue, percentBp: input.percentBp, flat })
    .onConflictDoUpdate({
      target: [resellerMarkups.resellerId, resellerMarkups.scope, resellerMarkups.scopeValue],
      set: { percentBp: input.percentBp, flat, updatedAt: sql`now()` },
    })
    .returning(columns);
  return rule!;
}

/** removes one of the reseller's own rules; false when they have none of that id */
export async function deleteResellerMarkup(
  db: Executor,
  resellerId: number,
  id: number,
): Promise<boolean> {
  const gone = await db
    .delete(resellerMarkups)
    .where(and(eq(resellerMarkups.id, id), eq(resellerMarkups.resellerId, resellerId)))
    .returning({ id: resellerMarkups.id });
  return gone.length > 0;
}

/** the owner's limits per level; rules above new limits are held to them when priced */
export async function setChainLimits(db: Executor, limits: Partial<ChainLimits>): Promise<void> {
  if (limits.maxFlat !== undefined) {
    if (!Number.isSafeInteger(limits.maxFlat) || limits.maxFlat < 0 || limits.maxFlat > 1_000_000) {
      throw new PricingError("INVALID_FLAT", "the limit must be Rp0 to Rp1.000.000", "maxFlat", {
        min: 0,
        max: 1_000_000,
        got: limits.maxFlat,
      });
    }
    await putSetting(db, CHAIN_LIMIT_SETTINGS.maxFlat, limits.maxFlat);
  }
  if (limits.maxBp !== undefined) {
    if (!Number.isSafeInteger(limits.maxBp) || limits.maxBp < 0 || limits.maxBp > 10_000) {
      throw new PricingError("INVALID_PERCENT", "the limit must be 0 to 100 %", "maxBp", {
        min: 0,
        max: 10_000,
        got: limits.maxBp,
      });
    }
    await putSetting(db, CHAIN_LIMIT_SETTINGS.maxBp, limits.maxBp);
  }
}
