import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import type { ProductType } from "../../supplier/types.ts";
import { canonicalCategory } from "./categories.ts";
import type { Operator } from "./operators.ts";
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

// the catalogue search of the Mini App and inline mode: a few letters typed find a product
// across 5,000. Every word typed must appear in the product's search text (code, brand,
// category, name, operator; a generated column, schema.ts) and "contains" is answered by a
// trigram index where pg_trgm exists (drizzle/0014). Products whose words start with what
// was typed come first ("tsel 10" finds Telkomsel 10.000 before Telkomsel 1.000), then the
// cheapest.

/** the most words a query is read for */
const MAX_TERMS = 8;
/** a word longer than this matches nothing a product holds */
const MAX_TERM_LENGTH = 40;

const THOUSANDS = /^(\d{1,3}(?:[.,]\d{3})+)$/;
const SHORTHAND = /^(\d+)(k|rb|ribu|jt|juta)$/;

/**
 * a typed word as the search text holds it: lowercase, "10.000" → "10000", "10rb" and "10k"
 * → "10000", "1jt" → "1000000", a leading "Rp" dropped
 */
function normaliseTerm(word: string): string {
  let w = word.toLowerCase().replace(/^rp\.?/, "");
  if (THOUSANDS.test(w)) w = w.replace(/[.,]/g, "");
  const short = SHORTHAND.exec(w);
  if (short) w = `${short[1]}${short[2] === "jt" || short[2] === "juta" ? "000000" : "000"}`;
  return w;
}

/** the words of a query, normalised; none for a blank one */
export function searchTerms(text: string): string[] {
  return [
    ...new Set(
      text
        .trim()
        .split(/\s+/)
        .map(normaliseTerm)
        .filter((w) => w.length > 0 && w.length <= MAX_TERM_LENGTH),
    ),
  ].slice(0, MAX_TERMS);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** a text matched literally inside a regular expression */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * the term at the start of a word of the search text: a number only as a whole number, a
 * nominal in thousands or with its unit ("10" is 10, 10000 or 10gb, never 1000)
 */
function wordStart(term: string): string {
  const t = escapeRegex(term);
  return /^\d+$/.test(term) ? `\\m${t}(000)?[a-z]*\\M` : `\\m${t}`;
}

export interface CatalogueSearch extends PageOptions {
  /** the words typed; blank: every product the filters leave */
  text?: string | undefined;
  type?: ProductType | undefined;
  category?: string | undefined;
  brand?: string | undefined;
  /**
   * a phone number's operators: products of another operator are left out; products
   * without one (games, PLN, bills) stay
   */
  operators?: readonly Operator[] | undefined;
}

/**
 * merges the rows a sync wrote into the search's trigram index. GIN keeps new rows in a
 * pending list that autovacuum merges on a server, but PGlite has no autovacuum, and while
 * the list is long the planner scans the table instead (20,000 products: 0.1 s here,
 * against 16 s more for a sync that wrote the index row by row). Nothing without the index.
 */
export async function mergeSearchIndex(db: Executor): Promise<void> {
  await db.execute(sql`
    select gin_clean_pending_list(c.oid) from pg_class c
    where c.relname = 'products_search_trgm' and c.relkind = 'i'`);
}

/** sellable products matching every word and filter, at the tier's price, best first */
export function searchCatalogue(db: Executor, s: CatalogueSearch): Promise<Page<CatalogueItem>> {
  const terms = searchTerms(s.text ?? "");
  const conditions: SQL[] = terms.map(
    (term) => sql`p.search_text like ${`%${escapeLike(term)}%`} escape '\\'`,
  );
  if (s.type) conditions.push(sql`p.type = ${s.type}`);
  if (s.category) conditions.push(sql`p.category = ${canonicalCategory(s.category)}`);
  if (s.brand) conditions.push(sql`p.brand = ${s.brand}`);
  if (s.operators) {
    const list = s.operators.map((o) => sql`${o}`);
    conditions.push(
      list.length > 0
        ? sql`(p.operator is null or p.operator in (${sql.join(list, sql`, `)}))`
        : sql`p.operator is null`,
    );
  }
  const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
  if (terms.length === 0) return productsWhere(db, where, s);
  const rank = sql.join(
    terms.map((term) => sql`(priced.search_text ~ ${wordStart(term)})::int`),
    sql` + `,
  );
  return productsWhere(
    db,
    where,
    s,
    sql`(lower(priced.code) = lower(${s.text?.trim() ?? ""})) desc, (${rank}) desc`,
  );
}

/** one brand of one category, with what the tier can buy of it */
export interface OutlineEntry {
  type: ProductType;
  category: string;
  brand: string;
  /** sellable products */
  count: number;
  /** the cheapest of them for the tier */
  minPrice: number;
}

/** every category and brand with something to sell, for browsing, in one read */
export async function catalogueOutline(db: Executor, opts: TierOptions): Promise<OutlineEntry[]> {
  const priced = await pricingOf(db, opts);
  const rows = rowsOf(
    await db.execute(sql`
      select type, category, brand, count(*) as n, min(price) as min_price
      from (${pricedProducts({ ...priced, where: sql`true` })}) s
      group by type, category, brand order by type, category, brand`),
  );
  return rows.map((r) => ({
    type: r.type as ProductType,
    category: String(r.category),
    brand: String(r.brand),
    count: toNumber(r.n),
    minPrice: toNumber(r.min_price),
  }));
}

/**
 * the products this user bought most recently (among their last 200 orders, read through
 * orders_user_created) that can be bought now, newest first
 */
export async function recentProducts(
  db: Executor,
  userId: number,
  opts: TierOptions & { limit: number },
): Promise<CatalogueItem[]> {
  const recent = rowsOf(
    await db.execute(sql`
      select product_code from (
        select product_code, created_at from orders
        where user_id = ${userId} and kind <> 'bill'
        order by created_at desc limit 200
      ) o
      group by product_code order by max(created_at) desc limit ${opts.limit}`),
  ).map((r) => String(r.product_code));
  return productsByCodes(db, recent, opts);
}

/** these products, as far as they can be bought, in the order of the codes given */
export async function productsByCodes(
  db: Executor,
  codes: readonly string[],
  opts: TierOptions,
): Promise<CatalogueItem[]> {
  if (codes.length === 0) return [];
  const list = sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  );
  const page = await productsWhere(db, sql`p.code in (${list})`, {
    ...opts,
    limit: Math.min(codes.length, MAX_PAGE_SIZE),
  });
  const byCode = new Map(page.items.map((i) => [i.code, i]));
  return codes.map((c) => byCode.get(c)).filter((i): i is CatalogueItem => i !== undefined);
}
