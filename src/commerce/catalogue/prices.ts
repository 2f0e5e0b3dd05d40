import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { jsonOf, rowsOf } from "../../db/sql-rows.ts";
import { getSetting, isNumber } from "../settings.ts";
import {
  type ChainedPrice,
  type ChainLimits,
  chainedPrice,
  DEFAULT_CHAIN_LIMITS,
  type PriceChain,
  type ResellerLevel,
} from "./chain.ts";
import {
  DEFAULT_ROUND_STEP,
  type MarkupRule,
  type PricingProduct,
  sellingPrice,
  type Tier,
} from "./pricing.ts";
import { ROUND_STEP_SETTING, storedRoundStep } from "./round-step.ts";
import { onSaleColumn, saleCostColumn } from "./sale.ts";

/** everything a price depends on besides the product: read once, apply to many */
export interface PricingContext {
  rules: MarkupRule[];
  step: number;
  /**
   * a downline's uplines and the tier at the top of their tree, whose shop price the
   * chain starts from; undefined for a buyer without an upline
   */
  chain?: PriceChain & { baseTier: Tier };
  /**
   * the buyer's own tier, read with the chain (undefined: loaded for no buyer, or a buyer
   * kios does not know)
   */
  buyerTier?: Tier;
}

export const CHAIN_LIMIT_SETTINGS = {
  maxFlat: "resellers.max_markup_flat",
  maxBp: "resellers.max_markup_bp",
} as const;

export async function chainLimits(db: Executor): Promise<ChainLimits> {
  const [maxFlat, maxBp] = await Promise.all([
    getSetting(db, CHAIN_LIMIT_SETTINGS.maxFlat, DEFAULT_CHAIN_LIMITS.maxFlat, isNumber),
    getSetting(db, CHAIN_LIMIT_SETTINGS.maxBp, DEFAULT_CHAIN_LIMITS.maxBp, isNumber),
  ]);
  return { maxFlat, maxBp };
}

/** far deeper than the depth setting allows: a guard against a cycle written by hand */
const MAX_WALK = 32;

/** what the one pricing statement answers, as json */
interface PricingRow {
  rules: MarkupRule[];
  step: unknown;
  /** the buyer (depth 0) and their uplines, the top of the tree first */
  walked: { id: number | string; tier: Tier; depth: number }[];
  /** the markups of the uplines that are resellers (design rule 19) */
  chainRules: (Omit<MarkupRule, "tier"> & { resellerId: number | string })[];
  maxFlat: unknown;
  maxBp: unknown;
}

/**
 * the shop's rules and step and the buyer's tree, as one query whose one column, `pricing`,
 * is json: a price is read on every quote, list and H2H order, and each statement is a
 * round trip (on PGlite, a wait for the one connection). The buyer is an SQL value (a
 * parameter, or a placeholder of a statement built once); parenthesised, the query is a
 * scalar subquery another statement can read it in (the H2H ref_id's claim). The rules keep
 * listMarkupRules's order: by tier, least specific first.
 */
export function pricingQuery(buyer: SQL, extra?: SQL): SQL {
  return sql`
      with recursive up(id, parent, tier, depth) as (
        select telegram_id, parent_id, tier, 0 from users where telegram_id = ${buyer}::bigint
        union all
        select u.telegram_id, u.parent_id, u.tier, up.depth + 1
          from users u join up on u.telegram_id = up.parent
         where up.depth < ${MAX_WALK}
      )
      select json_build_object(
        'rules', coalesce((select json_agg(json_build_object('id', r.id, 'scope', r.scope,
            'scopeValue', r.scope_value, 'tier', r.tier, 'percentBp', r.percent_bp, 'flat', r.flat)
            order by r.tier, case r.scope when 'all' then 0 when 'type' then 1
              when 'category' then 2 when 'brand' then 3 else 4 end, r.scope_value)
          from markup_rules r), '[]'),
        'step', (select value from settings where key = ${ROUND_STEP_SETTING}),
        'walked', coalesce((select json_agg(json_build_object('id', id, 'tier', tier, 'depth', depth)
            order by depth desc) from up), '[]'),
        'chainRules', coalesce((select json_agg(json_build_object('id', m.id,
            'resellerId', m.reseller_id, 'scope', m.scope, 'scopeValue', m.scope_value,
            'percentBp', m.percent_bp, 'flat', m.flat) order by m.id)
          from reseller_markups m
          where m.reseller_id in (select id from up where depth > 0 and tier = 'reseller')), '[]'),
        'maxFlat', (select value from settings where key = ${CHAIN_LIMIT_SETTINGS.maxFlat}),
        'maxBp', (select value from settings where key = ${CHAIN_LIMIT_SETTINGS.maxBp}),
        'extra', ${extra ?? sql`null`}
      ) as pricing`;
}

async function readPricing(db: Executor, buyer: number | null, extra?: SQL): Promise<unknown> {
  const [row] = rowsOf<{ pricing: unknown }>(await db.execute(pricingQuery(sql`${buyer}`, extra)));
  return row?.pricing;
}

/**
 * the shop's rules and step, and, for a buyer with an upline, the chain of uplines their
 * price goes down through: every price a buyer is shown is computed from this
 */
export async function loadPricing(db: Executor, buyer?: number | null): Promise<PricingContext> {
  return pricingRead(await readPricing(db, buyer ?? null)).pricing;
}

/**
 * loadPricing, and with it in the same statement one more json value (`extra`, an SQL
 * expression: e.g. the product about to be priced), one round trip instead of two
 */
export async function loadPricingWith(
  db: Executor,
  buyer: number | null,
  extra: SQL,
): Promise<{ pricing: PricingContext; extra: unknown }> {
  return pricingRead(await readPricing(db, buyer, extra));
}

/** what pricingQuery's column holds, as loadPricingWith answers it */
export function pricingRead(column: unknown): { pricing: PricingContext; extra: unknown } {
  const read = jsonOf<PricingRow & { extra?: unknown }>(column);
  if (!read) throw new Error("the pricing query answered nothing");
  return { pricing: pricingFrom(read), extra: read.extra ?? null };
}

function pricingFrom(read: PricingRow): PricingContext {
  const rules = read.rules.map((r) => ({ ...r, flat: Number(r.flat) }));
  const step = storedRoundStep(read.step) ? Number(read.step) : DEFAULT_ROUND_STEP;
  const self = read.walked.find((r) => r.depth === 0);
  const tier = self?.tier;
  const up = read.walked.filter((r) => r.depth > 0);
  if (up.length === 0) return { rules, step, ...(tier ? { buyerTier: tier } : {}) };
  // only a reseller's markups apply (design rule 19): a demoted one's stop the moment their
  // tier does, so the level below pays what the level above charges and they earn nothing
  const limits: ChainLimits = {
    maxFlat: isNumber(read.maxFlat) ? read.maxFlat : DEFAULT_CHAIN_LIMITS.maxFlat,
    maxBp: isNumber(read.maxBp) ? read.maxBp : DEFAULT_CHAIN_LIMITS.maxBp,
  };
  const levels: ResellerLevel[] = up.map((r) => {
    const resellerId = Number(r.id);
    return {
      resellerId,
      rules: read.chainRules
        .filter((m) => Number(m.resellerId) === resellerId)
        .map((m) => ({ ...m, resellerId, flat: Number(m.flat) })),
    };
  });
  const chain = { levels, limits, baseTier: up[0]!.tier };
  return { rules, step, chain, ...(tier ? { buyerTier: tier } : {}) };
}

/** the tier whose shop price a buyer's price starts from: the top of their tree's */
function baseTier(tier: Tier, context: PricingContext): Tier {
  return context.chain?.baseTier ?? tier;
}

/**
 * what a buyer pays for a product, and each upline's margin in it; null when it is not
 * for sale (its shop price would fall below cost)
 */
export function buyerPrice(
  context: PricingContext,
  product: PricingProduct,
  tier: Tier,
): ChainedPrice | null {
  const shop = sellingPrice(context.rules, product, baseTier(tier, context), context.step);
  return shop === null ? null : chainedPrice(shop, context.chain, product, context.step);
}

/**
 * what `tier` pays for a product, or null when it is not for sale: unknown code, inactive
 * or unlisted (when given a code), or a price below cost. A product object is priced as
 * given (e.g. a bill's admin fee from its inquiry), whatever its catalogue state. With a
 * context loaded for a buyer, the price is that buyer's, down their tree.
 */
export async function priceFor(
  db: Executor,
  product: string | PricingProduct,
  tier: Tier,
  context?: PricingContext,
): Promise<number | null> {
  let target: PricingProduct;
  if (typeof product === "string") {
    const [row] = await db
      .select({
        code: products.code,
        type: products.type,
        category: products.category,
        brand: products.brand,
        supplierPrice: saleCostColumn,
      })
      .from(products)
      .where(and(eq(products.code, product), onSaleColumn));
    if (!row) return null;
    target = row;
  } else {
    target = product;
  }
  return buyerPrice(context ?? (await loadPricing(db)), target, tier)?.price ?? null;
}

/** the prices of many products for one tier, by code (null: not for sale) */
export async function pricesFor(
  db: Executor,
  items: readonly PricingProduct[],
  tier: Tier,
  context?: PricingContext,
): Promise<Map<string, number | null>> {
  const pricing = context ?? (await loadPricing(db));
  return new Map(items.map((p) => [p.code, buyerPrice(pricing, p, tier)?.price ?? null]));
}

/** who a list is priced for: their tier, and the buyer whose uplines' markups they pay */
export interface BuyerPricing {
  tier: Tier;
  /**
   * the buyer's telegram id, whose uplines' markups their price carries; null or left out
   * prices for the tier alone (an admin's view, a shared list). Every list a buyer sees
   * names them.
   */
  buyer?: number | null | undefined;
  /** the markup rules, step and chain; read from the database when left out */
  pricing?: PricingContext;
}

/** what pricedProducts() needs to price a list for this buyer: the one way lists get it */
export async function pricingOf(
  db: Executor,
  opts: BuyerPricing,
): Promise<{ tier: Tier; rules: MarkupRule[]; step: number; chain: PriceChain | undefined }> {
  const context = opts.pricing ?? (await loadPricing(db, opts.buyer));
  return {
    tier: baseTier(opts.tier, context),
    rules: context.rules,
    step: context.step,
    chain: context.chain,
  };
}
