import { Composer } from "grammy";
import { productByCode } from "../../commerce/catalogue/queries.ts";
import { parseQuickOrder } from "../../commerce/orders/quick-order.ts";
import type { BotContext } from "../context.ts";
import { escapeHtml } from "../ui/format.ts";
import { offerQuote } from "../ui/quotes.ts";

/**
 * /test CODE.DESTINATION: an admin tries a product end to end in the supplier's testing
 * mode (the order is real in kios, marked as a test; no wallet or supplier money moves)
 */
export function adminTestOrder(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("test", async (ctx) => {
    const m = parseQuickOrder(ctx.match);
    if (!m) {
      await ctx.reply(ctx.t("admin-test-usage"));
      return;
    }
    const code = m.code.toUpperCase();
    const item = await productByCode(ctx.deps.db, code, { tier: "customer" });
    if (!item) {
      await ctx.reply(ctx.t("quick-unknown-code", { code: escapeHtml(code) }));
      return;
    }
    if (item.type === "pasca") await ctx.reply(ctx.t("bill-checking"));
    await offerQuote(ctx, {
      productCode: item.code,
      destination: m.destination,
      bill: item.type === "pasca",
      testing: true,
    });
  });
  return composer;
}
