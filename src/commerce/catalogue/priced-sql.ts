import { type SQL, sql } from "drizzle-orm";
import type { PriceChain } from "./chain.ts";
import { BP, MARKUP_SCOPES, type RuleLike, type Tier } from "./pricing.ts";
import { onSaleSql, saleCostSql } from "./sale.ts";

// the SQL twin of pricing.ts's sellingPrice(), so lists can be filtered, ordered and paged
// by what the buyer pays. The rules travel as one jsonb parameter of lookups by scope value:
// each product costs a handful of hash lookups instead of joins against markup_rules, and
// the planner sees a one-table query it can serve from an index. A property test holds the
// SQL and sellingPrice() to the same answers.

type Markup = [percentBp: number, flat: number];
interface Side {
  product?: Record<string, Markup>;
  brand?: Record<string, Markup>;
  category?: Record<string, Markup>;
  type?: Record<string, Markup>;
  all?: Markup;
}

function side(rules: readonly RuleLike[], tier: Tier): Side {
  const out: Side = {};
  const ids: Record<string, number> = {};
  for (const r of rules) {
    if (r.tier !== tier) continue;
    // as pickRule(): should duplicates ever reach here, the newest rule wins
    const key = `${r.scope}\u0000${r.scopeValue}`;
    if (key in ids && (r.id ?? 0) <= ids[key]!) continue;
    ids[key] = r.id ?? 0;
    const markup: Markup = [r.percentBp, r.flat];
    if (r.scope === "all") {
      if (r.scopeValue === "") out.all = markup;
    } else {
      out[r.scope] = { ...out[r.scope], [r.scopeValue]: markup };
    }
  }
  return out;
}

/** the rules of a tier (t) and of the customer tier it falls back to (c), for the query */
function ruleLookup(rules: readonly RuleLike[], tier: Tier): { t: Side; c?: Side } {
  return tier === "customer"
    ? { t: side(rules, tier) }
    : { t: side(rules, tier), c: side(rules, "customer") };
}

const TARGET: Record<(typeof MARKUP_SCOPES)[number], SQL | null> = {
  product: sql`p.code`,
  brand: sql`p.brand`,
  category: sql`p.category`,
  type: sql`p.type`,
  all: null,
};

// most specific first, the tier's rules before the customer's: the first hit is pickRule()'s
const CHOSEN_RULE = sql.join(
  (["t", "c"] as const).flatMap((s) =>
    [...MARKUP_SCOPES].reverse().map((scope) => {
      const target = TARGET[scope];
      return target ? sql`m.r -> ${s} -> ${scope} -> ${target}` : sql`m.r -> ${s} -> ${scope}`;
    }),
  ),
  sql`, `,
);

/** the rule each level of a chain picks for product x, most specific first (as pickRule()) */
function levelRule(level: number): SQL {
  return sql.join(
    [...MARKUP_SCOPES].reverse().map((scope) => {
      const target = TARGET_X[scope];
      return target
        ? sql`ch.r -> ${level}::int -> ${scope} -> ${target}`
        : sql`ch.r -> ${level}::int -> ${scope}`;
    }),
    sql`, `,
  );
}

const TARGET_X: Record<(typeof MARKUP_SCOPES)[number], SQL | null> = {
  product: sql`x.code`,
  brand: sql`x.brand`,
  category: sql`x.category`,
  type: sql`x.type`,
  all: null,
};

/**
 * chain.ts's chainedPrice() over `shop` (the shop's price of the top of the tree): a lateral
 * per level, each adding its upline's markup held by the limits. Returns the joins and the
 * final price's expression.
 */
function chainJoins(chain: PriceChain, step: number): { joins: SQL; price: SQL } {
  const lookups = chain.levels.map((l) =>
    side(
      l.rules.map((r) => ({ ...r, tier: "customer" as const })),
      "customer",
    ),
  );
  const parts: SQL[] = [sql`cross join (select ${JSON.stringify(lookups)}::jsonb as r) ch`];
  const unit = sql`${step * BP}::bigint`;
  chain.levels.forEach((_, i) => {
    const above = sql.raw(`l${i}.v`);
    const rule = sql.raw(`r${i + 1}.rule`);
    // the rule's marked-up price (never below: rules are not negative), less what is above
    const n = sql`(${above} * (${BP}::bigint + (${rule} ->> 0)::bigint) + (${rule} ->> 1)::bigint * ${BP}::bigint)`;
    const wanted = sql`((${n} + ${unit} - 1) / ${unit} * ${step}::bigint - ${above})`;
    const capped = sql`least(${chain.limits.maxFlat}::bigint, ${above} * ${chain.limits.maxBp}::bigint / ${BP}::bigint)`;
    const cap = sql`(greatest(0::bigint, ${capped}) / ${step}::bigint * ${step}::bigint)`;
    parts.push(
      sql`cross join lateral (select coalesce(${levelRule(i)}, '[0, 0]'::jsonb) as rule) ${sql.raw(`r${i + 1}`)}`,
      sql`cross join lateral (select ${above} + greatest(0::bigint, least(${wanted}, ${cap})) as v) ${sql.raw(`l${i + 1}`)}`,
    );
  });
  return { joins: sql.join(parts, sql` `), price: sql.raw(`l${chain.levels.length}.v`) };
}

export interface PricedQuery {
  /** the tier whose shop price the buyer's price starts from (the top of a chain's) */
  tier: Tier;
  /** a downline's uplines: each level's markup over the shop price (chain.ts) */
  chain?: PriceChain | undefined;
  rules: readonly RuleLike[];
  step: number;
  /** a condition on products aliased p (the sellable filter is added) */
  where: SQL;
  /** extra leading sort keys on the output (aliased priced); price and code always follow */
  orderBy?: SQL;
  limit?: number;
  offset?: number;
}

/**
 * sellable products (on sale through some route: sale.ts) that match `where`, with `price`
 * (what the tier pays) and `total` (matches before paging); products whose price would fall
 * below cost are left out. Columns: product columns in snake_case (`supplier_price` is the
 * cost of the route tried first), price, total.
 */
export function pricedProducts(q: PricedQuery): SQL {
  // ceil(n / unit) in exact bigint arithmetic: division truncates toward zero, which is
  // already the ceiling for n <= 0
  const n = sql`(x.sale_cost * (${BP}::bigint + x.percent_bp) + x.flat * ${BP}::bigint)`;
  const unit = sql`${q.step * BP}::bigint`;
  const price = sql`(case when ${n} > 0 then (${n} + ${unit} - 1) / ${unit} else ${n} / ${unit} end)
    * ${q.step}::bigint`;
  const paging = sql.join(
    [
      q.limit !== undefined ? sql`limit ${q.limit}` : undefined,
      q.offset ? sql`offset ${q.offset}` : undefined,
    ].filter((s): s is SQL => s !== undefined),
    sql` `,
  );
  const chain =
    q.chain && q.chain.levels.length > 0
      ? chainJoins(q.chain, q.step)
      : { joins: sql``, price: sql`l0.v` };
  return sql`
    select priced.*, count(*) over () as total from (
      select x.code, x.name, x.category, x.brand, x.type, x.operator,
        x.sale_cost as supplier_price,
        x.description, x.start_cut_off, x.end_cut_off, x.paused_until, x.search_text,
        l0.v as shop_price, ${chain.price} as price
      from (
        select p.*, ${saleCostSql("p")} as sale_cost,
          (rule ->> 0)::bigint as percent_bp, (rule ->> 1)::bigint as flat
        from products p
        cross join (select ${JSON.stringify(ruleLookup(q.rules, q.tier))}::jsonb as r) m
        cross join lateral (select coalesce(${CHOSEN_RULE}, '[0, 0]'::jsonb) as rule) chosen
        where ${onSaleSql("p")} and (${q.where})
      ) x
      cross join lateral (select ${price} as v) l0
      ${chain.joins}
    ) priced
    where priced.shop_price >= priced.supplier_price
    order by ${q.orderBy ? sql`${q.orderBy}, ` : sql``}priced.price, priced.code
    ${paging}`;
}
