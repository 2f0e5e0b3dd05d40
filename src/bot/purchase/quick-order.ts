import { Composer } from "grammy";
import { catalogueReady, productByCode } from "../../commerce/catalogue/queries.ts";
import { normaliseDestination } from "../../commerce/orders/destination.ts";
import { QUICK_ORDER } from "../../commerce/orders/quick-order.ts";
import { sameDayPurchases } from "../../commerce/orders/repeat.ts";
import type { BotContext } from "../context.ts";
import { escapeHtml, wibTime } from "../ui/format.ts";
import { offerQuote } from "../ui/quotes.ts";

/** resellers type CODE.DESTINATION and get the confirmation card at once */
export function quickOrderFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .filter((ctx) => ctx.user?.tier === "reseller")
    .hears(QUICK_ORDER, async (ctx) => {
      const code = ctx.match[1]!.toUpperCase();
      const count = ctx.match[2];
      const destination = ctx.match[3]!;
      const item = await productByCode(ctx.deps.db, code, {
        tier: "reseller",
        buyer: ctx.from!.id,
      });
      if (!item) {
        const loading = !(await catalogueReady(ctx.deps.db));
        await ctx.reply(
          loading
            ? ctx.t("catalogue-loading")
            : ctx.t("quick-unknown-code", { code: escapeHtml(code) }),
        );
        return;
      }
      // the repeat rule: another one today needs CODE.<n>.DESTINATION, typed on purpose, with
      // n the purchase of the day it is (its card's Pay then allows n - 1 before it)
      const nth = count === undefined ? undefined : Math.max(1, Number(count));
      const normalised = normaliseDestination(item, destination);
      if (item.type !== "pasca" && normalised) {
        const bought = await sameDayPurchases(ctx.deps.db, {
          userId: ctx.from!.id,
          productCode: item.code,
          destination: normalised,
          now: ctx.deps.clock.now(),
        });
        if (bought && bought.count >= (nth ?? 1)) {
          await ctx.reply(
            ctx.t("quick-repeat", {
              time: wibTime(bought.last.getTime()),
              again: escapeHtml(`${item.code}.${bought.count + 1}.${destination}`),
            }),
          );
          return;
        }
      }
      if (item.type === "pasca") await ctx.reply(ctx.t("bill-checking"));
      await offerQuote(ctx, {
        productCode: item.code,
        destination,
        bill: item.type === "pasca",
        nth,
      });
    });
  return composer;
}
