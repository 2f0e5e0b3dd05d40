import { asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { markupRules } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import { canonicalCategory } from "./categories.ts";
import { PricingError } from "./errors.ts";
import {
  BP,
  MARKUP_SCOPES,
  type MarkupRule,
  type MarkupScope,
  TIERS,
  type Tier,
} from "./pricing.ts";

/** -100 % … +1000 % */
const MIN_PERCENT_BP = -BP;
const MAX_PERCENT_BP = 10 * BP;
/** Rp10 juta either way: far beyond any real markup, short of a typo's extra zeros */
const MAX_FLAT = 10_000_000;

export interface MarkupRuleInput {
  scope: MarkupScope;
  /** ignored (must be empty) for scope all; matched case-insensitively against the catalogue */
  scopeValue?: string;
  tier: Tier;
  percentBp: number;
  flat?: number;
}

const SPECIFICITY = sql`case ${markupRules.scope}
  when 'all' then 0 when 'type' then 1 when 'category' then 2 when 'brand' then 3 else 4 end`;

const columns = {
  id: markupRules.id,
  scope: markupRules.scope,
  scopeValue: markupRules.scopeValue,
  tier: markupRules.tier,
  percentBp: markupRules.percentBp,
  flat: markupRules.flat,
};

/** every rule, by tier, then from least to most specific */
export async function listMarkupRules(db: Executor): Promise<MarkupRule[]> {
  return db
    .select(columns)
    .from(markupRules)
    .orderBy(asc(markupRules.tier), SPECIFICITY, asc(markupRules.scopeValue));
}

/** how many listed products each rule's scope covers (0 flags a rule the catalogue outgrew) */
export async function markupRuleMatches(db: Executor): Promise<Map<number, number>> {
  const result = await db.execute(sql`
    select r.id, (
      select count(*) from products p
      where p.listed and case r.scope
        when 'all' then true
        when 'type' then p.type = r.scope_value
        when 'category' then p.category = r.scope_value
        when 'brand' then p.brand = r.scope_value
        else p.code = r.scope_value end
    ) as matches
    from markup_rules r`);
  return new Map(rowsOf(result).map((r) => [toNumber(r.id), toNumber(r.matches)]));
}

/** creates the rule for (scope, value, tier) or replaces its numbers; returns it */
export async function setMarkupRule(db: Executor, input: MarkupRuleInput): Promise<MarkupRule> {
  const scope = input.scope;
  if (!(MARKUP_SCOPES as readonly string[]).includes(scope)) {
    throw new PricingError(
      "INVALID_SCOPE",
      `scope must be one of ${MARKUP_SCOPES.join(", ")} (got "${scope}")`,
      "scope",
      { got: String(scope) },
    );
  }
  if (!(TIERS as readonly string[]).includes(input.tier)) {
    throw new PricingError(
      "INVALID_TIER",
      `tier must be one of ${TIERS.join(", ")} (got "${input.tier}")`,
      "tier",
      { got: String(input.tier) },
    );
  }
  const { percentBp } = input;
  if (
    !Number.isSafeInteger(percentBp) ||
    percentBp < MIN_PERCENT_BP ||
    percentBp > MAX_PERCENT_BP
  ) {
    throw new PricingError(
      "INVALID_PERCENT",
      `the percentage must be between -100 % and 1000 % in steps of 0.01 % (got ${percentBp / 100} %)`,
      "percentBp",
      { min: -10_000, max: 100_000, got: percentBp },
    );
  }
  const flat = input.flat ?? 0;
  if (!Number.isSafeInteger(flat) || Math.abs(flat) > MAX_FLAT) {
    throw new PricingError(
      "INVALID_FLAT",
      `the flat amount must be whole rupiah between -${MAX_FLAT} and ${MAX_FLAT} (got ${flat})`,
      "flat",
      { min: -MAX_FLAT, max: MAX_FLAT, got: flat },
    );
  }
  const scopeValue = await resolveScopeValue(db, scope, (input.scopeValue ?? "").trim());

  const [rule] = await db
    .insert(markupRules)
    .values({ scope, scopeValue, tier: input.tier, percentBp, flat })
    .onConflictDoUpdate({
      target: [markupRules.scope, markupRules.scopeValue, markupRules.tier],
      set: { percentBp, flat, updatedAt: sql`now()` },
    })
    .returning(columns);
  return rule!;
}

/**
 * a shop's starting rules, written only into a shop with no rule at all (one statement, so
 * two starts at once seed once): rules an owner set, or changed, are never overwritten
 * @returns whether they were written
 */
export async function seedMarkupRules(
  db: Executor,
  rules: readonly Pick<MarkupRuleInput, "tier" | "percentBp">[],
): Promise<boolean> {
  if (rules.length === 0) return false;
  for (const r of rules) {
    if (!(TIERS as readonly string[]).includes(r.tier)) {
      throw new PricingError("INVALID_TIER", `unknown tier "${r.tier}"`, "tier");
    }
    if (!Number.isSafeInteger(r.percentBp) || r.percentBp < 0 || r.percentBp > MAX_PERCENT_BP) {
      throw new PricingError("INVALID_PERCENT", `bad starting markup ${r.percentBp}`, "percentBp");
    }
  }
  const values = sql.join(
    rules.map((r) => sql`('all', '', ${r.tier}, ${r.percentBp}::integer)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    insert into markup_rules (scope, scope_value, tier, percent_bp)
    select v.scope, v.scope_value, v.tier, v.percent_bp
    from (values ${values}) as v(scope, scope_value, tier, percent_bp)
    where not exists (select 1 from markup_rules)
    on conflict do nothing
    returning id`);
  return rowsOf(result).length > 0;
}

/** removes a rule and returns what it was */
export async function deleteMarkupRule(db: Executor, id: number): Promise<MarkupRule> {
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new PricingError("RULE_NOT_FOUND", `there is no markup rule ${id}`, "id", { id });
  }
  const [rule] = await db.delete(markupRules).where(eq(markupRules.id, id)).returning(columns);
  if (!rule)
    throw new PricingError("RULE_NOT_FOUND", `there is no markup rule ${id}`, "id", { id });
  return rule;
}

/** the value as the catalogue spells it, so rules match products exactly at pricing time */
export async function resolveScopeValue(
  db: Executor,
  scope: MarkupScope,
  value: string,
): Promise<string> {
  if (scope === "all") {
    if (value !== "") {
      throw new PricingError(
        "INVALID_SCOPE_VALUE",
        `a rule for all products takes no value (got "${value}")`,
        "scopeValue",
        { scope, needs: "no" },
      );
    }
    return "";
  }
  if (value === "") {
    throw new PricingError("INVALID_SCOPE_VALUE", `a ${scope} rule needs a value`, "scopeValue", {
      scope,
      needs: "yes",
    });
  }
  if (scope === "type") {
    const type = value.toLowerCase();
    if (["prepaid", "game", "pasca"].includes(type)) return type;
    throw new PricingError(
      "UNKNOWN_SCOPE_VALUE",
      `type must be prepaid, game or pasca (got "${value}")`,
      "scopeValue",
      { scope, got: value },
    );
  }
  const column = { category: "category", brand: "brand", product: "code" }[scope];
  const wanted = scope === "category" ? canonicalCategory(value) : value;
  // an exact spelling first, else the most common spelling that matches regardless of case
  const result = await db.execute(sql`
    select ${sql.identifier(column)} as value, count(*) as n from products
    where lower(${sql.identifier(column)}) = lower(${wanted})
    group by 1
    order by (${sql.identifier(column)} = ${wanted}) desc, n desc, 1
    limit 1`);
  const found = rowsOf<{ value: string }>(result)[0]?.value;
  if (found !== undefined) return found;
  const label = scope === "product" ? "product code" : scope;
  throw new PricingError(
    "UNKNOWN_SCOPE_VALUE",
    `no product in the catalogue has ${label} "${value}" (run kios sync first?)`,
    "scopeValue",
    { scope, got: value },
  );
}
