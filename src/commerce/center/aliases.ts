import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { centerAliases, products } from "../../db/schema.ts";
import { KEYWORDS, type Keyword } from "./commands.ts";

// the owner's own words for the center's keywords (`kios center alias SAL SALDO`), so the
// habits of the center resellers come from keep working. Stored in the database: every
// process reads the same list.

const ALIAS = /^[A-Z][A-Z0-9_-]{0,15}$/;

export type AliasRefusal = "unknown_keyword" | "bad_alias" | "is_keyword" | "is_product";

function isKeyword(word: string): word is Keyword {
  return (KEYWORDS as readonly string[]).includes(word);
}

export async function loadAliases(db: Executor): Promise<Map<string, Keyword>> {
  const rows = await db.select().from(centerAliases);
  const out = new Map<string, Keyword>();
  for (const r of rows) if (isKeyword(r.keyword)) out.set(r.alias, r.keyword);
  return out;
}

/** makes `alias` mean `keyword` (a second alias call replaces what it meant) */
export async function setAlias(
  db: Executor,
  keyword: string,
  alias: string,
): Promise<{ ok: true; keyword: Keyword; alias: string } | { ok: false; reason: AliasRefusal }> {
  const k = keyword.toUpperCase();
  const a = alias.toUpperCase();
  if (!isKeyword(k)) return { ok: false, reason: "unknown_keyword" };
  if (!ALIAS.test(a)) return { ok: false, reason: "bad_alias" };
  if (isKeyword(a)) return { ok: false, reason: "is_keyword" };
  // keywords come before product codes (docs/center.md): an alias that is a product's code, in
  // any case as codes are found, would take that product's text orders away from its buyers
  const [product] = await db
    .select({ code: products.code })
    .from(products)
    .where(sql`lower(${products.code}) = lower(${a})`)
    .limit(1);
  if (product) return { ok: false, reason: "is_product" };
  await db
    .insert(centerAliases)
    .values({ alias: a, keyword: k })
    .onConflictDoUpdate({ target: centerAliases.alias, set: { keyword: k } });
  return { ok: true, keyword: k, alias: a };
}

export async function removeAlias(db: Executor, alias: string): Promise<boolean> {
  const gone = await db
    .delete(centerAliases)
    .where(eq(centerAliases.alias, alias.toUpperCase()))
    .returning({ alias: centerAliases.alias });
  return gone.length > 0;
}
