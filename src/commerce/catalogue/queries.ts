import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { jsonOf, rowsOf, toNumber } from "../../db/sql-rows.ts";
import type { ProductType } from "../../supplier/types.ts";
import { canonicalCategory } from "./categories.ts";
import type { ChainedPrice } from "./chain.ts";
import type { Operator } from "./operators.ts";
import { pricedProducts } from "./priced-sql.ts";
import {
  type BuyerPricing,
  buyerPrice,
  loadPricingWith,
  type PricingContext,
  pricingOf,
} from "./prices.ts";
import type { Tier } from "./pricing.ts";
import { onSaleSql, saleCostSql } from "./sale.ts";

// what the bot lists: only sellable products (on sale through a route, priced at or above cost),
// each with the buyer's price, cheapest first.

export interface CatalogueItem {
  code: string;
  name: string;
  category: string;
  brand: string;
  type: ProductType;
  operator: Operator | null;
  description: string;
  startCutOff: string | null;
  endCutOff: string | null;
  /** kios closed it until then (availability.ts) */
  pausedUntil: Date | null;
  /** what the route kios tries first charges (sale.ts; for pasca: the supplier's admin fee) */
  supplierPrice: number;
  /** what this tier pays (for pasca: the admin fee the buyer pays on top of the bill) */
  price: number;
}

export interface Page<T> {
  items: T[];
  /** matches across all pages */
  total: number;
}

/** the buyer a list is priced for (prices.ts's BuyerPricing: their tier and their uplines) */
export type TierOptions = BuyerPricing;

export interface PageOptions extends TierOptions {
  /** default 10, at most 100 */
  limit?: number;
  offset?: number;
}

const DEFAULT_PAGE_SIZE = 10;
/** the most rows one query returns */
export const MAX_PAGE_SIZE = 100;

function toItem(row: Record<string, unknown>): CatalogueItem {
  return {
    code: String(row.code),
    name: String(row.name),
    category: String(row.category),
    brand: String(row.brand),
    type: row.type as ProductType,
    operator: (row.operator ?? null) as Operator | null,
    description: String(row.description ?? ""),
    startCutOff: (row.start_cut_off ?? null) as string | null,
    endCutOff: (row.end_cut_off ?? null) as string | null,
    pausedUntil: row.paused_until ? new Date(row.paused_until as string | Date) : null,
    supplierPrice: toNumber(row.supplier_price),
    price: toNumber(row.price),
  };
}

/** sellable products matching a condition on products aliased p, paged (see PricedQuery) */
export async function productsWhere(
  db: Executor,
  where: SQL,
  opts: PageOptions,
  orderBy?: SQL,
): Promise<Page<CatalogueItem>> {
  const whole = (n: number | undefined, fallback: number) =>
    n !== undefined && Number.isFinite(n) ? Math.trunc(n) : fallback;
  const limit = Math.min(Math.max(1, whole(opts.limit, DEFAULT_PAGE_SIZE)), MAX_PAGE_SIZE);
  const offset = Math.max(0, whole(opts.offset, 0));
  const priced = await pricingOf(db, opts);
  const query = {
    ...priced,
    where,
    limit,
    offset,
    orderBy,
  };
  const rows = rowsOf(await db.execute(pricedProducts(query)));
  if (rows.length === 0 && offset > 0) {
    // past the last page: the window count saw no rows, so count without paging
    const all = rowsOf(await db.execute(pricedProducts({ ...query, limit: 1, offset: 0 })));
    return { items: [], total: toNumber(all[0]?.total) };
  }
  return { items: rows.map(toItem), total: toNumber(rows[0]?.total) };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const searchWords = (text: string) => text.trim().split(/\s+/).filter(Boolean).slice(0, 8);

/** the conditions behind each list, on products aliased p (exported for EXPLAIN checks) */
export const catalogueFilters = {
  byOperator(operators: readonly Operator[], category: string): SQL {
    const list = sql.join(
      operators.map((o) => sql`${o}`),
      sql`, `,
    );
    return sql`p.operator in (${list}) and p.category = ${canonicalCategory(category)}`;
  },
  byBrand(type: ProductType, brand: string): SQL {
    return sql`p.type = ${type} and p.brand = ${brand}`;
  },
  byCategory(category: string): SQL {
    return sql`p.category = ${canonicalCategory(category)}`;
  },
  byCode(code: string): SQL {
    return byCodeOf(codeParams(code));
  },
  byText(text: string): SQL {
    const conditions = searchWords(text).map((w) => {
      const pattern = `%${escapeLike(w)}%`;
      return sql`(lower(p.name) like lower(${pattern}) escape '\\' or lower(p.code) like lower(${pattern}) escape '\\')`;
    });
    return conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`false`;
  },
};

/** a code's three forms as SQL values: parameters, or a statement's placeholders */
export interface CodeForms {
  asTyped: SQL;
  upper: SQL;
  lower: SQL;
}

/** the placeholders of a statement built once that reads a product by code (codeValues) */
export const CODE_PLACEHOLDERS: CodeForms = {
  asTyped: sql`${sql.placeholder("codeAsTyped")}`,
  upper: sql`${sql.placeholder("codeUpper")}`,
  lower: sql`${sql.placeholder("codeLower")}`,
};

/** the values of CODE_PLACEHOLDERS for a code as the buyer sent it */
export const codeValues = (code: string) => {
  const c = code.trim();
  return { codeAsTyped: c, codeUpper: c.toUpperCase(), codeLower: c.toLowerCase() };
};

/** a code's three forms as parameters of a statement built per call */
function codeParams(code: string): CodeForms {
  const v = codeValues(code);
  return { asTyped: sql`${v.codeAsTyped}`, upper: sql`${v.codeUpper}`, lower: sql`${v.codeLower}` };
}

function byCodeOf(c: CodeForms): SQL {
  // a code in any case (Digiflazz's are lower case, resellers type upper case), the code
  // exactly as typed first: each candidate is an index lookup
  return sql`p.code = (select q.code from products q
      where q.code in (${c.asTyped}, ${c.upper}, ${c.lower})
      order by (q.code = ${c.asTyped}) desc, q.code limit 1)`;
}

/** pulsa or data for one operator (or several: a 0851 number also sees by.U) */
export function productsByOperator(
  db: Executor,
  operator: Operator | readonly Operator[],
  category: string,
  opts: PageOptions,
): Promise<Page<CatalogueItem>> {
  const ops = typeof operator === "string" ? [operator] : [...operator];
  if (ops.length === 0) return Promise.resolve({ items: [], total: 0 });
  return productsWhere(db, catalogueFilters.byOperator(ops, category), opts);
}

/** one brand's products of a type (a game, an e-wallet, a bill kind) */
export function productsByBrand(
  db: Executor,
  type: ProductType,
  brand: string,
  opts: PageOptions,
): Promise<Page<CatalogueItem>> {
  return productsWhere(db, catalogueFilters.byBrand(type, brand), opts);
}

export function productsByCategory(
  db: Executor,
  category: string,
  opts: PageOptions,
): Promise<Page<CatalogueItem>> {
  return productsWhere(db, catalogueFilters.byCategory(category), opts);
}

/** a sellable product with the tier's price, or null */
export async function productByCode(
  db: Executor,
  code: string,
  opts: TierOptions,
): Promise<CatalogueItem | null> {
  if (!opts.pricing) return (await productForBuyer(db, code, opts.buyer ?? null, opts.tier)).item;
  const found = await productsWhere(db, catalogueFilters.byCode(code), { ...opts, limit: 1 });
  return found.items[0] ?? null;
}

/** the columns toItem() reads, of the products row aliased p, as one json object */
const ITEM_JSON = sql`json_build_object('code', p.code, 'name', p.name,
  'category', p.category, 'brand', p.brand, 'type', p.type, 'operator', p.operator,
  'description', p.description, 'start_cut_off', p.start_cut_off,
  'end_cut_off', p.end_cut_off, 'paused_until', p.paused_until,
  'supplier_price', ${saleCostSql("p")})`;

/** a product read for a buyer, with what it was priced from (productForBuyer's answer) */
export interface BuyerProduct {
  item: CatalogueItem | null;
  pricing: PricingContext;
  tier: Tier;
  chained: ChainedPrice | null;
}

/** the product of a code on sale, as one json value of the pricing query (its `extra`) */
export const productOnSaleJson = (code: CodeForms): SQL =>
  sql`(select ${ITEM_JSON} from products p
      where ${onSaleSql("p")} and (${byCodeOf(code)}) limit 1)`;

/**
 * a product on sale priced for a buyer, read with the pricing it is priced from in one
 * statement and priced here (prices.ts's buyerPrice, the twin of the lists' SQL, held to
 * the same answers by a property test): the item when it is for sale, the pricing and the
 * buyer's price with each upline's margin in it. The tier is the buyer's own unless given
 */
export async function productForBuyer(
  db: Executor,
  code: string,
  buyer: number | null,
  tier?: Tier,
): Promise<BuyerProduct> {
  const read = await loadPricingWith(db, buyer, productOnSaleJson(codeParams(code)));
  return pricedForBuyer(read, tier);
}

/**
 * productForBuyer's answer from what the pricing query read with productOnSaleJson as its
 * extra, in a statement of the caller's (the H2H ref_id's claim reads it)
 */
export function pricedForBuyer(
  { pricing, extra }: { pricing: PricingContext; extra: unknown },
  tier?: Tier,
): BuyerProduct {
  const as = tier ?? pricing.buyerTier ?? "customer";
  const read =
    extra === null ? null : toItem({ ...(jsonOf<Record<string, unknown>>(extra) ?? {}), price: 0 });
  const chained = read && buyerPrice(pricing, read, as);
  // not for sale (no row, or no price for this buyer): no item, the pricing still told
  const item = read && chained ? { ...read, price: chained.price } : null;
  return { item, pricing, tier: as, chained: chained ?? null };
}

/**
 * every word of `text` must appear in the name or the code, regardless of case; an exact
 * code comes first. A scan, not an index lookup: contains-matching can't use a b-tree.
 */
export function searchProducts(
  db: Executor,
  text: string,
  opts: PageOptions,
): Promise<Page<CatalogueItem>> {
  if (searchWords(text).length === 0) return Promise.resolve({ items: [], total: 0 });
  return productsWhere(
    db,
    catalogueFilters.byText(text),
    opts,
    sql`(lower(priced.code) = lower(${text.trim()})) desc`,
  );
}

export interface BrandCount {
  brand: string;
  /** sellable products of the brand */
  count: number;
  /** the cheapest of them for the tier */
  minPrice: number;
}

export interface CategoryCount {
  category: string;
  count: number;
  minPrice: number;
}

/** brands with something to sell: of a type (games, bill kinds) or a category (e-wallets) */
export async function listBrands(
  db: Executor,
  scope: { type: ProductType } | { category: string },
  opts: TierOptions = { tier: "customer" },
): Promise<BrandCount[]> {
  const where =
    "type" in scope ? sql`p.type = ${scope.type}` : catalogueFilters.byCategory(scope.category);
  const priced = await pricingOf(db, opts);
  const rows = rowsOf(
    await db.execute(sql`
      select brand, count(*) as n, min(price) as min_price
      from (${pricedProducts({ ...priced, where })}) s
      group by brand order by brand`),
  );
  return rows.map((r) => ({
    brand: String(r.brand),
    count: toNumber(r.n),
    minPrice: toNumber(r.min_price),
  }));
}

/** categories with something to sell, of one type (e.g. pasca: the bill kinds) */
export async function listCategories(
  db: Executor,
  type: ProductType,
  opts: TierOptions = { tier: "customer" },
): Promise<CategoryCount[]> {
  const priced = await pricingOf(db, opts);
  const where = sql`p.type = ${type}`;
  const rows = rowsOf(
    await db.execute(sql`
      select category, count(*) as n, min(price) as min_price
      from (${pricedProducts({ ...priced, where })}) s
      group by category order by category`),
  );
  return rows.map((r) => ({
    category: String(r.category),
    count: toNumber(r.n),
    minPrice: toNumber(r.min_price),
  }));
}

/**
 * whether the shop has a catalogue yet: a new shop syncs its first one in the background,
 * and its buyers are told it is loading rather than that nothing is for sale
 */
export async function catalogueReady(exec: Executor): Promise<boolean> {
  const rows = await exec.select({ one: sql`1` }).from(products).limit(1);
  return rows.length > 0;
}
