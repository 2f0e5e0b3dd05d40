import { Composer } from "grammy";
import { PricingError } from "../../commerce/catalogue/errors.ts";
import { chainLimits } from "../../commerce/catalogue/prices.ts";
import type { MarkupScope } from "../../commerce/catalogue/pricing.ts";
import {
  deleteResellerMarkup,
  listResellerMarkups,
  type ResellerMarkup,
  setResellerMarkup,
} from "../../commerce/resellers/markups.ts";
import type { BotContext } from "../context.ts";
import { parsePercentBp, parseSignedRupiah, parseUserId, words } from "../ui/args.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { pricingRefusal } from "../ui/pricing-refusal.ts";

// /markup for a reseller (an admin's /markup is the shop's): what their downlines pay over
// the reseller's own price, for everything, a category, a brand or one product

/** the words a reseller may type for a scope, in both languages */
const SCOPE_WORDS: Readonly<Record<string, MarkupScope>> = {
  semua: "all",
  all: "all",
  kategori: "category",
  category: "category",
  brand: "brand",
  merek: "brand",
  produk: "product",
  product: "product",
};

function markupText(r: Pick<ResellerMarkup, "percentBp" | "flat">): string {
  const parts = [];
  if (r.percentBp !== 0 || r.flat === 0) parts.push(`${r.percentBp / 100}%`);
  if (r.flat !== 0) parts.push(`+${rupiah(r.flat)}`);
  return parts.join(" ");
}

function scopeText(t: Translate, r: Pick<ResellerMarkup, "scope" | "scopeValue">): string {
  return r.scope === "all"
    ? t("scope-all")
    : `${t("scope-name", { scope: r.scope })} ${escapeHtml(r.scopeValue)}`;
}

/** "2%", "500", "1% 200" after the scope: a percentage and/or a flat amount */
function parseAmounts(args: string[]): { percentBp: number; flat: number } | undefined {
  let percentBp = 0;
  let flat = 0;
  if (args.length === 0 || args.length > 2) return undefined;
  for (const a of args) {
    if (a.endsWith("%")) {
      const bp = parsePercentBp(a);
      if (bp === undefined) return undefined;
      percentBp = bp;
    } else {
      const n = parseSignedRupiah(a);
      if (n === undefined) return undefined;
      flat = n;
    }
  }
  return { percentBp, flat };
}

async function show(ctx: BotContext): Promise<void> {
  const rules = await listResellerMarkups(ctx.deps.db, ctx.from!.id);
  const limits = await chainLimits(ctx.deps.db);
  const lines = [
    ctx.t("reseller-markup-title", {
      maxflat: rupiah(limits.maxFlat),
      maxpercent: String(limits.maxBp / 100),
    }),
  ];
  if (rules.length === 0) lines.push(ctx.t("reseller-markup-none"));
  for (const r of rules) {
    lines.push(
      ctx.t("reseller-markup-row", { id: r.id, scope: scopeText(ctx.t, r), markup: markupText(r) }),
    );
  }
  lines.push("", ctx.t("reseller-markup-usage"));
  await ctx.reply(lines.join("\n"));
}

async function resellerMarkup(ctx: BotContext): Promise<void> {
  const args = words(ctx.match as string);
  const first = args[0]?.toLowerCase();
  if (first === undefined) return show(ctx);
  const db = ctx.deps.db;
  if (first === "hapus" || first === "delete" || first === "del") {
    const id = parseUserId(args[1]);
    const gone = id !== undefined && (await deleteResellerMarkup(db, ctx.from!.id, id));
    await ctx.reply(
      gone
        ? ctx.t("reseller-markup-deleted", { id: id! })
        : ctx.t("reseller-markup-not-found", { id: escapeHtml(args[1] ?? "") }),
    );
    return;
  }
  const scope = SCOPE_WORDS[first];
  // the amounts are the last one or two words; the scope's value (a brand may hold spaces)
  // is what lies between
  const amountWords = args.slice(1).filter((a) => /^-?[\d.,]+%?$/.test(a));
  const value = args.slice(1, args.length - amountWords.length).join(" ");
  const amounts = parseAmounts(amountWords);
  if (!scope || !amounts || (scope === "all") !== (value === "")) {
    await ctx.reply(ctx.t("reseller-markup-usage"));
    return;
  }
  try {
    const rule = await setResellerMarkup(db, ctx.from!.id, {
      scope,
      scopeValue: value,
      ...amounts,
    });
    await ctx.reply(
      ctx.t("reseller-markup-set", {
        id: rule.id,
        scope: scopeText(ctx.t, rule),
        markup: markupText(rule),
      }),
    );
  } catch (err) {
    if (!(err instanceof PricingError)) throw err;
    await ctx.reply(ctx.t("reseller-markup-refused", { reason: pricingRefusal(ctx.t, err) }));
  }
}

/**
 * for resellers who are not admins (an admin's /markup is the shop's, in admin/); anyone
 * else gets the unknown-command answer, as for every admin command
 */
export function resellerMarkupFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.filter((ctx) => ctx.user?.tier === "reseller").command("markup", resellerMarkup);
  return composer;
}
