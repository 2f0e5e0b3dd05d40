import { Composer } from "grammy";
import { MAX_MIN_MARGIN, minMarginOf, setMinMargin } from "../../commerce/orders/min-margin.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { rupiah } from "../ui/format.ts";

// /minmargin [rupiah | reset]: the least a route must leave over its cost for kios to try it
// (docs/suppliers.md#routes); MIN_MARGIN is where it starts, and reset goes back to it.

/** "500", "Rp500", "1.000": whole rupiah; undefined for anything else */
function rupiahArg(text: string): number | undefined {
  const digits = text.replace(/^rp/i, "").replace(/\./g, "");
  return /^\d{1,7}$/.test(digits) ? Number(digits) : undefined;
}

export function adminMinMargin(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("minmargin", async (ctx) => {
    const [arg, extra] = words(ctx.match as string);
    const db = ctx.deps.db;
    if (arg === undefined) {
      const now = await minMarginOf(db, ctx.deps.orders);
      await ctx.reply(ctx.t("admin-minmargin-now", { amount: rupiah(now) }));
      return;
    }
    const amount = arg.toLowerCase() === "reset" ? null : rupiahArg(arg);
    if (extra !== undefined || amount === undefined || (amount ?? 0) > MAX_MIN_MARGIN) {
      await ctx.reply(ctx.t("admin-minmargin-usage", { max: rupiah(MAX_MIN_MARGIN) }));
      return;
    }
    await setMinMargin(db, amount);
    const now = await minMarginOf(db, ctx.deps.orders);
    ctx.deps.logger
      .child({ component: "admin" })
      .info({ adminId: ctx.from?.id, minMargin: now }, "minimum margin changed");
    await ctx.reply(ctx.t("admin-minmargin-set", { amount: rupiah(now) }));
  });
  return composer;
}
