import { Composer } from "grammy";
import { catalogueReady, productByCode } from "../../commerce/catalogue/queries.ts";
import { normaliseDestination } from "../../commerce/orders/destination.ts";
import { QUICK_ORDER } from "../../commerce/orders/quick-order.ts";
import { boughtToday } from "../../commerce/orders/repeat.ts";
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
      // the repeat rule: a second one today needs CODE.2.DESTINATION, typed on purpose
      const normalised = normaliseDestination(item, destination);
      if (item.type !== "pasca" && normalised && count === undefined) {
        const at = await boughtToday(ctx.deps.db, {
          userId: ctx.from!.id,
          productCode: item.code,
          destination: normalised,
          now: ctx.deps.clock.now(),
        });
        if (at) {
          await ctx.reply(
            ctx.t("quick-repeat", {
              time: wibTime(at.getTime()),
              again: escapeHtml(`${item.code}.2.${destination}`),
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
      });
    });
  return composer;
}
