import { catalogueReady, productByCode } from "../../commerce/catalogue/queries.ts";
import type { BotContext } from "../context.ts";
import { purchaseReadings } from "../ui/deep-links.ts";
import { enterFlow } from "../ui/flow/enter.ts";
import { offerQuote } from "../ui/quotes.ts";
import { referralLink } from "./referral.ts";

// what a link to the bot opens (t.me/<bot>?start=<prefix>_<rest>), by its prefix. A link of
// a kind nobody reads here is a plain /start: the welcome. Each kind answers and returns
// true, or returns false to leave it to the welcome.

type StartLink = (ctx: BotContext, rest: string) => Promise<boolean>;

/**
 * p_<code>_<destination>: that product's card for that destination, ready for Pay (a bill's
 * after its inquiry); p_<code>: the product, asking only for the destination
 */
const purchaseLink: StartLink = async (ctx, rest) => {
  if (!(await catalogueReady(ctx.deps.db))) {
    await ctx.reply(ctx.t("catalogue-loading"));
    return true;
  }
  const tier = ctx.user?.tier ?? "customer";
  for (const reading of purchaseReadings(rest)) {
    const item = await productByCode(ctx.deps.db, reading.code, {
      tier,
      buyer: ctx.from?.id ?? null,
    });
    if (!item) continue;
    if (reading.destination) {
      await offerQuote(ctx, {
        productCode: item.code,
        destination: reading.destination,
        bill: item.type === "pasca",
      });
    } else {
      await enterFlow(ctx, "product", { productCode: item.code });
    }
    return true;
  }
  await ctx.reply(ctx.t("quote-unavailable"));
  return true;
};

const START_LINKS: Readonly<Record<string, StartLink>> = {
  p: purchaseLink,
  r: referralLink,
};

/** opens what a start parameter names; false when it names nothing this bot reads */
export async function followStartLink(ctx: BotContext, parameter: string): Promise<boolean> {
  const m = /^([a-z]+)_(.+)$/.exec(parameter.trim());
  const open = m ? START_LINKS[m[1]!] : undefined;
  return open ? open(ctx, m![2]!) : false;
}
