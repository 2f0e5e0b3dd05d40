import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import { pricedProducts } from "./priced-sql.ts";
import { pricingOf } from "./prices.ts";
import {
  type CatalogueItem,
  MAX_PAGE_SIZE,
  type Page,
  type PageOptions,
  productsWhere,
  type TierOptions,
} from "./queries.ts";

// the price list (/harga): what a brand, a category, or a brand within a category sells, at
// the caller's tier, grouped by category then brand and cheapest first. What the caller
// types names the scope; a button carries it as a short key, since names don't fit
// callback data (spaces, "&", dots).

export interface PriceListScope {
  brand?: string;
  category?: string;
}

/** sellable products of one brand in one category */
export interface ScopeCount {
  brand: string;
  category: string;
  count: number;
}

/** every (brand, category) with something for sale at the tier */
export async function priceListScopes(db: Executor, opts: TierOptions): Promise<ScopeCount[]> {
  const priced = await pricingOf(db, opts);
  const rows = rowsOf(
    await db.execute(sql`
      select brand, category, count(*) as n
      from (${pricedProducts({ ...priced, where: sql`true` })}) s
      group by brand, category order by category, brand`),
  );
  return rows.map((r) => ({
    brand: String(r.brand),
    category: String(r.category),
    count: toNumber(r.n),
  }));
}

const fold = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();
const uniqueSorted = (names: string[]) => [...new Set(names)].sort((a, b) => a.localeCompare(b));

export type ScopeMatch = { scope: PriceListScope } | { suggestions: PriceListScope[] };

/**
 * what `text` names: a category, else a brand (exact, any case); else a brand and a
 * category in either order ("telkomsel data"); else the one category or brand whose name
 * holds it, or all of them to choose from. Undefined when nothing for sale matches.
 */
export function resolvePriceListScope(
  scopes: readonly ScopeCount[],
  text: string,
): ScopeMatch | undefined {
  const wanted = fold(text);
  if (wanted === "") return undefined;
  const categories = uniqueSorted(scopes.map((s) => s.category));
  const brands = uniqueSorted(scopes.map((s) => s.brand));
  const category = categories.find((c) => fold(c) === wanted);
  if (category) return { scope: { category } };
  const brand = brands.find((b) => fold(b) === wanted);
  if (brand) return { scope: { brand } };

  const words = wanted.split(" ");
  for (let cut = 1; cut < words.length; cut++) {
    const left = words.slice(0, cut).join(" ");
    const right = words.slice(cut).join(" ");
    for (const [b, c] of [
      [left, right],
      [right, left],
    ] as const) {
      const pair = scopes.find((s) => fold(s.brand) === b && fold(s.category) === c);
      if (pair) return { scope: { brand: pair.brand, category: pair.category } };
    }
  }

  const suggestions: PriceListScope[] = [
    ...categories.filter((c) => fold(c).includes(wanted)).map((c) => ({ category: c })),
    ...brands.filter((b) => fold(b).includes(wanted)).map((b) => ({ brand: b })),
  ];
  if (suggestions.length === 0) return undefined;
  return suggestions.length === 1 ? { scope: suggestions[0]! } : { suggestions };
}

/** a scope as 10 hex characters, for callback data */
export function scopeKey(scope: PriceListScope): string {
  return createHash("sha256")
    .update(`${scope.brand ?? ""}\u0000${scope.category ?? ""}`)
    .digest("hex")
    .slice(0, 10);
}

/** the scope behind a key, if it still has something for sale */
export function scopeByKey(scopes: readonly ScopeCount[], key: string): PriceListScope | undefined {
  const candidates: PriceListScope[] = [
    ...uniqueSorted(scopes.map((s) => s.category)).map((category) => ({ category })),
    ...uniqueSorted(scopes.map((s) => s.brand)).map((brand) => ({ brand })),
    ...scopes.map((s) => ({ brand: s.brand, category: s.category })),
  ];
  return candidates.find((s) => scopeKey(s) === key);
}

/** the scope's products at the tier, grouped by category then brand, cheapest first */
export function priceList(
  db: Executor,
  scope: PriceListScope,
  opts: PageOptions,
): Promise<Page<CatalogueItem>> {
  const conditions = [
    scope.brand === undefined ? undefined : sql`p.brand = ${scope.brand}`,
    scope.category === undefined ? undefined : sql`p.category = ${scope.category}`,
  ].filter((c) => c !== undefined);
  const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
  return productsWhere(db, where, opts, sql`priced.category, priced.brand`);
}

/** the first `max` of the scope's products (a picture's), read in pages the query allows */
export async function priceListUpTo(
  db: Executor,
  scope: PriceListScope,
  opts: TierOptions,
  max: number,
): Promise<Page<CatalogueItem>> {
  const items: CatalogueItem[] = [];
  let total = 0;
  while (items.length < max) {
    const page = await priceList(db, scope, {
      ...opts,
      limit: Math.min(MAX_PAGE_SIZE, max - items.length),
      offset: items.length,
    });
    total = page.total;
    items.push(...page.items);
    if (page.items.length === 0 || items.length >= total) break;
  }
  return { items, total };
}
