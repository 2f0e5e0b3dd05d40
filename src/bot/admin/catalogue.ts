import { Composer } from "grammy";
import {
  deleteMarkupRule,
  listMarkupRules,
  MARKUP_SCOPES,
  type MarkupScope,
  PricingError,
  setMarkupRule,
  syncAndLink,
  TIERS,
  type Tier,
} from "../../commerce/catalogue/index.ts";
import type { MarkupRule } from "../../commerce/catalogue/pricing.ts";
import type { BotContext } from "../context.ts";

import { parsePercentBp, parseSignedRupiah, parseUserId, words } from "../ui/args.ts";
import { editMessage } from "../ui/edit.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import { pricingRefusal } from "../ui/pricing-refusal.ts";
import { supplierProblem } from "../ui/supplier-problem.ts";

function ruleLine(r: MarkupRule): string {
  const percent = `${(r.percentBp / 100).toString()}%`;
  const flat = r.flat === 0 ? "" : ` ${r.flat > 0 ? "+" : ""}${rupiah(r.flat)}`;
  const value = r.scopeValue ? ` ${escapeHtml(r.scopeValue)}` : "";
  return `#${r.id} ${r.tier} · ${r.scope}${value} · ${percent}${flat}`;
}

async function markup(ctx: BotContext): Promise<void> {
  const args = words(ctx.match as string);
  const sub = args[0]?.toLowerCase();
  try {
    if (sub === undefined || sub === "list") {
      const rules = await listMarkupRules(ctx.deps.db);
      const lines = [ctx.t("admin-markup-title")];
      lines.push(...(rules.length > 0 ? rules.map(ruleLine) : [ctx.t("admin-markup-none")]));
      lines.push("", ctx.t("admin-markup-usage"));
      await ctx.reply(lines.join("\n"));
      return;
    }
    if (sub === "set") {
      // set <scope> [value …] <tier> <percent> [flat]: the value may hold spaces (brands)
      const scope = args[1]?.toLowerCase() as MarkupScope | undefined;
      const tierAt = args.findIndex((a, i) => i > 1 && (TIERS as readonly string[]).includes(a));
      const percentBp = tierAt > 0 ? parsePercentBp(args[tierAt + 1]) : undefined;
      const flat =
        tierAt > 0 && args[tierAt + 2] !== undefined ? parseSignedRupiah(args[tierAt + 2]) : 0;
      if (
        !scope ||
        !(MARKUP_SCOPES as readonly string[]).includes(scope) ||
        tierAt < 0 ||
        percentBp === undefined ||
        flat === undefined ||
        args.length > tierAt + 3
      ) {
        await ctx.reply(ctx.t("admin-markup-usage"));
        return;
      }
      const rule = await setMarkupRule(ctx.deps.db, {
        scope,
        scopeValue: args.slice(2, tierAt).join(" "),
        tier: args[tierAt] as Tier,
        percentBp,
        flat,
      });
      await ctx.reply(ctx.t("admin-markup-set", { rule: ruleLine(rule) }));
      return;
    }
    if (sub === "del" || sub === "delete") {
      const id = parseUserId(args[1]);
      if (id === undefined) {
        await ctx.reply(ctx.t("admin-markup-usage"));
        return;
      }
      const rule = await deleteMarkupRule(ctx.deps.db, id);
      await ctx.reply(ctx.t("admin-markup-deleted", { rule: ruleLine(rule) }));
      return;
    }
    await ctx.reply(ctx.t("admin-markup-usage"));
  } catch (err) {
    if (!(err instanceof PricingError)) throw err;
    await ctx.reply(ctx.t("admin-markup-refused", { reason: pricingRefusal(ctx.t, err) }));
  }
}

export function adminCatalogue(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("sync", async (ctx) => {
    const progress = await ctx.reply(ctx.t("admin-sync-started"));
    let text: string;
    try {
      const { orders } = ctx.deps;
      const s = await syncAndLink({
        db: ctx.deps.db,
        supplier: orders.supplier,
        firstSupplier: orders.firstSupplier,
        others: [...(orders.suppliers ?? [])].map(([name, supplier]) => ({ name, supplier })),
        clock: ctx.deps.clock,
        logger: ctx.deps.logger,
      });
      text = ctx.t("admin-sync-done", {
        total: s.total,
        added: s.added,
        changed: s.changed,
        deactivated: s.deactivated,
        reactivated: s.reactivated,
        unlisted: s.unlisted,
        prices: s.priceChanges,
        seconds: (s.ms / 1000).toFixed(1),
      });
      if (s.suspiciousEmpty.length > 0) {
        text += `\n${ctx.t("admin-sync-suspicious", { lists: s.suspiciousEmpty.join(", ") })}`;
      }
    } catch (err) {
      ctx.deps.logger.warn({ err }, "catalogue sync from the bot failed");
      text = ctx.t("admin-sync-failed", { code: supplierProblem(err) });
    }
    await editMessage(ctx.api, { chatId: progress.chat.id, messageId: progress.message_id, text });
  });

  composer.command("markup", markup);

  return composer;
}
