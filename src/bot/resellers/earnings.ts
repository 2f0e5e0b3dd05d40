import { Composer } from "grammy";
import { earningsOf } from "../../commerce/resellers/earnings.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";

// /komisi [days]: what the reseller earned from their downlines' orders, by day (WIB) and
// by downline (docs/resellers.md#for-a-reseller)

const DEFAULT_DAYS = 7;
const WIB_OFFSET_MS = 7 * 3600_000;

/** the start, in WIB, of the day `days - 1` days before today */
function since(now: number, days: number): Date {
  const wib = new Date(now + WIB_OFFSET_MS);
  const today = Date.UTC(wib.getUTCFullYear(), wib.getUTCMonth(), wib.getUTCDate());
  return new Date(today - (days - 1) * 86_400_000 - WIB_OFFSET_MS);
}

export function earningsFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(["komisi", "commission"], async (ctx) => {
    if (ctx.user?.tier !== "reseller") {
      await ctx.reply(ctx.t("resellers-only"));
      return;
    }
    const [arg] = words(ctx.match as string);
    const days = arg === undefined ? DEFAULT_DAYS : Number(arg);
    if (!Number.isSafeInteger(days) || days < 1 || days > 90) {
      await ctx.reply(ctx.t("earnings-usage"));
      return;
    }
    const e = await earningsOf(ctx.deps.db, ctx.from!.id, {
      since: since(ctx.deps.clock.now(), days),
    });
    const lines = [ctx.t("earnings-title", { days, total: rupiah(e.total), orders: e.orders })];
    if (e.orders === 0) {
      lines.push(ctx.t("earnings-none"));
    } else {
      lines.push("", ctx.t("earnings-by-day"));
      for (const d of e.byDay) {
        lines.push(
          ctx.t("earnings-row", { label: d.day, amount: rupiah(d.amount), orders: d.orders }),
        );
      }
      lines.push("", ctx.t("earnings-by-downline"));
      for (const d of e.byDownline.slice(0, 20)) {
        lines.push(
          ctx.t("earnings-row", {
            label: escapeHtml(d.firstName || String(d.telegramId)),
            amount: rupiah(d.amount),
            orders: d.orders,
          }),
        );
      }
    }
    await ctx.reply(lines.join("\n"));
  });
  return composer;
}
