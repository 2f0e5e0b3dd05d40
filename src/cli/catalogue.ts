import {
  deleteMarkupRule,
  listMarkupRules,
  MARKUP_SCOPES,
  type MarkupRule,
  type MarkupScope,
  markupRuleMatches,
  PricingError,
  setMarkupRule,
  TIERS,
  type Tier,
} from "../commerce/catalogue/index.ts";
import type { OthersLinked } from "../commerce/catalogue/link-others.ts";
import { getRoundStep, setRoundStep } from "../commerce/catalogue/round-step.ts";
import type { SyncSummary } from "../commerce/catalogue/sync.ts";
import { syncAndLink } from "../commerce/catalogue/sync-job.ts";
import { loadConfig } from "../config.ts";
import { formatRupiah } from "../supplier/amounts.ts";
import { type CliDeps, type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";
import { cliLogger, print, withEverySupplier } from "./io.ts";

// `kios sync` and `kios markup`: the catalogue from the supplier (or the embedded sandbox
// when no SUPPLIER_* is set) and the markup rules that turn its prices into selling prices.

function describeSummary(s: SyncSummary & OthersLinked, driver: string): string {
  const rows: [string, number][] = [
    ["total", s.total],
    ["added", s.added],
    ["changed", s.changed],
    ["unchanged", s.unchanged],
    ["deactivated", s.deactivated],
    ["reactivated", s.reactivated],
    ["unlisted", s.unlisted],
    ["price changes", s.priceChanges],
  ];
  if (s.routed > 0) rows.push(["routed", s.routed]);
  if (s.skipped > 0) rows.push(["skipped", s.skipped]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = [
    `catalogue synced in ${(s.ms / 1000).toFixed(1)} s (${driver})`,
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
  ];
  for (const cmd of s.suspiciousEmpty) {
    lines.push(`  warning: the supplier listed no ${cmd} products; none were unlisted`);
  }
  for (const l of s.linked) {
    lines.push(
      `linked ${l.supplier}: ${l.linked} new routes, ${l.kept} kept, ${l.created} new products, ${l.unmatched} unmatched, ${l.ambiguous} ambiguous`,
    );
  }
  for (const f of s.failed) {
    lines.push(
      `  warning: ${f.supplier} could not be linked (${f.error}); its routes are unchanged`,
    );
  }
  return lines.join("\n");
}

export const syncCommand: Command = {
  name: "sync",
  summary: "bring the product catalogue in line with the supplier's lists",
  usage: "kios sync [--json]",
  async run(argv, deps) {
    const { values } = parseFlags(argv, { json: { type: "boolean", default: false } });
    const config = await loadConfig(deps.env);
    const logger = cliLogger(config);
    return withDatabase(deps, async (database) => {
      const summary = await withEverySupplier(config, logger, (suppliers) =>
        syncAndLink({
          db: database.db,
          supplier: suppliers.first.supplier,
          firstSupplier: suppliers.first.name,
          others: suppliers.all.slice(1).map(({ name, supplier }) => ({ name, supplier })),
          logger,
        }),
      );
      await print(
        values.json ? JSON.stringify(summary, null, 2) : describeSummary(summary, database.kind),
      );
      return 0;
    });
  },
};

// ---- markup ----

const MARKUP_USAGE = [
  "kios markup [list] [--json]",
  "       kios markup set --scope all|type|category|brand|product [--value VALUE]",
  "                       [--tier customer|reseller] --percent 2.5 [--flat 200]",
  "       kios markup delete <id>",
  "       kios markup step [<rupiah>]",
].join("\n");

/** "2.5" → 250 basis points; at most two decimals */
export function parsePercent(text: string): number {
  if (!/^[-+]?\d+(\.\d{1,2})?$/.test(text.trim())) {
    throw new UsageError(`--percent must be a number with at most two decimals, not "${text}"`);
  }
  return Math.round(Number(text) * 100);
}

function parseWhole(flag: string, text: string): number {
  if (!/^[-+]?\d+$/.test(text.trim())) {
    throw new UsageError(`${flag} must be a whole number of rupiah, not "${text}"`);
  }
  return Number(text);
}

export function describeMarkup(rule: Pick<MarkupRule, "percentBp" | "flat">): string {
  const percent = `${(rule.percentBp / 100).toString()} %`;
  if (rule.flat === 0) return percent;
  return `${percent} ${rule.flat < 0 ? "−" : "+"} ${formatRupiah(Math.abs(rule.flat))}`;
}

function ruleTable(rules: MarkupRule[], matches: Map<number, number>): string {
  const header = ["ID", "TIER", "SCOPE", "VALUE", "MARKUP", "PRODUCTS"];
  const rows = rules.map((r) => [
    String(r.id),
    r.tier,
    r.scope,
    r.scopeValue || "-",
    describeMarkup(r),
    String(matches.get(r.id) ?? 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

async function markupList(argv: string[], deps: CliDeps): Promise<number> {
  const { values } = parseFlags(argv, { json: { type: "boolean", default: false } });
  return withDatabase(deps, async ({ db }) => {
    const [rules, matches, step] = await Promise.all([
      listMarkupRules(db),
      markupRuleMatches(db),
      getRoundStep(db),
    ]);
    if (values.json) {
      await print(JSON.stringify({ step, rules }, null, 2));
      return 0;
    }
    const body =
      rules.length > 0
        ? ruleTable(rules, matches)
        : "no markup rules: products sell at the supplier's price, rounded up";
    await print(`${body}\nprices round up to ${formatRupiah(step)}`);
    return 0;
  });
}

async function markupSet(argv: string[], deps: CliDeps): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    {
      scope: { type: "string" },
      value: { type: "string" },
      tier: { type: "string", default: "customer" },
      percent: { type: "string" },
      flat: { type: "string", default: "0" },
    },
    true,
  );
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const scope = values.scope as MarkupScope | undefined;
  if (scope === undefined) throw new UsageError("--scope is required");
  if (!MARKUP_SCOPES.includes(scope)) {
    throw new UsageError(`--scope must be one of ${MARKUP_SCOPES.join(", ")}`);
  }
  const tier = values.tier as Tier;
  if (!TIERS.includes(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(", ")}`);
  if (values.percent === undefined) throw new UsageError("--percent is required (0 for none)");
  if (scope !== "all" && values.value === undefined) {
    throw new UsageError(`--value is required for a ${scope} rule`);
  }
  const input = {
    scope,
    scopeValue: values.value ?? "",
    tier,
    percentBp: parsePercent(values.percent),
    flat: parseWhole("--flat", values.flat),
  };
  return withDatabase(deps, async ({ db }) => {
    const rule = await setMarkupRule(db, input);
    const target = rule.scope === "all" ? "all products" : `${rule.scope} ${rule.scopeValue}`;
    await print(`rule ${rule.id}: ${rule.tier} pays ${describeMarkup(rule)} on ${target}`);
    return 0;
  });
}

async function markupDelete(argv: string[], deps: CliDeps): Promise<number> {
  const { positionals } = parseFlags(argv, {}, true);
  const [idText, ...extra] = positionals;
  if (idText === undefined) throw new UsageError("a rule id is required");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (!/^\d+$/.test(idText)) throw new UsageError(`a rule id is a number, not "${idText}"`);
  return withDatabase(deps, async ({ db }) => {
    const rule = await deleteMarkupRule(db, Number(idText));
    await print(`rule ${rule.id} deleted (${rule.tier} ${rule.scope} ${rule.scopeValue})`.trim());
    return 0;
  });
}

async function markupStep(argv: string[], deps: CliDeps): Promise<number> {
  const { positionals } = parseFlags(argv, {}, true);
  const [stepText, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const step = stepText === undefined ? undefined : parseWhole("the step", stepText);
  return withDatabase(deps, async ({ db }) => {
    if (step !== undefined) await setRoundStep(db, step);
    await print(`prices round up to ${formatRupiah(await getRoundStep(db))}`);
    return 0;
  });
}

export const markupCommand: Command = {
  name: "markup",
  summary: "list, set or delete markup rules, or set the rounding step of prices",
  usage: MARKUP_USAGE,
  async run(argv, deps) {
    const [sub, ...rest] = argv;
    try {
      if (sub === undefined || sub === "list" || sub.startsWith("--")) {
        return await markupList(sub === "list" ? rest : argv, deps);
      }
      if (sub === "set") return await markupSet(rest, deps);
      if (sub === "delete") return await markupDelete(rest, deps);
      if (sub === "step") return await markupStep(rest, deps);
    } catch (err) {
      // a refused rule is the admin's input at fault: say why, plainly
      if (err instanceof PricingError) {
        console.error(`kios markup: ${err.message}`);
        return 1;
      }
      throw err;
    }
    throw new UsageError(`unknown markup command "${sub}"`);
  },
};
