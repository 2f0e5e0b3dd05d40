import type { UplineMargin } from "../../db/schema.ts";
import { BP, markedUp, type PricingProduct, pickRule, type RuleLike } from "./pricing.ts";

// prices down a reseller tree (docs/resellers.md#prices-down-the-tree): the top reseller
// pays the shop's price of their tier; each level below pays the level above's price plus
// that upline's markup, picked and rounded as the shop's own (pricing.ts), and held by the
// owner's limits per level. The SQL twin is in priced-sql.ts; a property test holds them
// to the same answers.

/** one upline's markup rules over their own price (scope values as the catalogue spells them) */
export interface ResellerLevel {
  resellerId: number;
  rules: readonly Pick<RuleLike, "scope" | "scopeValue" | "percentBp" | "flat" | "id">[];
}

/** the most one level may add: both bounds hold */
export interface ChainLimits {
  /** rupiah */
  maxFlat: number;
  /** basis points of the level above's price */
  maxBp: number;
}

export const DEFAULT_CHAIN_LIMITS: ChainLimits = { maxFlat: 5_000, maxBp: 1_000 };

/** the uplines above a buyer, top of the tree first */
export interface PriceChain {
  levels: readonly ResellerLevel[];
  limits: ChainLimits;
}

/** the most a level may add on top of `above`, a whole number of steps */
export function levelCap(above: number, limits: ChainLimits, step: number): number {
  const byPercent = Number((BigInt(above) * BigInt(limits.maxBp)) / BigInt(BP));
  const cap = Math.max(0, Math.min(limits.maxFlat, byPercent));
  return cap - (cap % step);
}

/** what one upline adds on top of their own price: their rule, rounded, held by the limits */
function levelIncrement(
  above: number,
  level: ResellerLevel,
  product: PricingProduct,
  step: number,
  limits: ChainLimits,
): number {
  const rules = level.rules.map((r) => ({ ...r, tier: "customer" as const }));
  const rule = pickRule(rules, product, "customer");
  if (!rule) return 0;
  const wanted = markedUp(above, rule.percentBp, rule.flat, step) - above;
  return Math.max(0, Math.min(wanted, levelCap(above, limits, step)));
}

export interface ChainedPrice {
  /** what the buyer pays */
  price: number;
  /** what the top of the tree pays: the shop's price */
  shopPrice: number;
  /** each upline's margin (none of them zero), top first: shopPrice + their sum = price */
  margins: UplineMargin[];
}

/** the buyer's price from the shop's price down through every level above them */
export function chainedPrice(
  shopPrice: number,
  chain: PriceChain | undefined,
  product: PricingProduct,
  step: number,
): ChainedPrice {
  let price = shopPrice;
  const margins: UplineMargin[] = [];
  for (const level of chain?.levels ?? []) {
    const add = levelIncrement(price, level, product, step, chain!.limits);
    if (add > 0) margins.push({ userId: level.resellerId, amount: add });
    price += add;
  }
  return { price, shopPrice, margins };
}
