import { catalogueReady, productByCode } from "../../commerce/catalogue/queries.ts";
import { joinByCode, resellerByCode } from "../../commerce/resellers/tree.ts";
import type { BotContext } from "../context.ts";
import { purchaseReadings } from "../ui/deep-links.ts";
import { enterFlow } from "../ui/flow/enter.ts";
import { escapeHtml } from "../ui/format.ts";
import { offerQuote } from "../ui/quotes.ts";

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

/**
 * r_<code>: a reseller's referral link. A user without an upline becomes that reseller's
 * downline (once; docs/resellers.md#joining), then sees the welcome as after any /start
 */
const referralLink: StartLink = async (ctx, rest) => {
  const userId = ctx.from?.id;
  if (userId === undefined) return false;
  const joined = await joinByCode(ctx.deps.db, userId, rest);
  if (joined.ok && joined.uplineId !== null) {
    const upline = await resellerByCode(ctx.deps.db, rest);
    await ctx.reply(ctx.t("joined-upline", { upline: escapeHtml(upline?.firstName ?? "") }));
    const name = [ctx.from?.first_name, ctx.from?.username ? `@${ctx.from.username}` : ""]
      .filter(Boolean)
      .join(" ");
    // a courtesy to the upline: a blocked or gone chat changes nothing of the join
    await ctx.api
      .sendMessage(
        joined.uplineId,
        ctx.t("joined-notice", { who: escapeHtml(name || String(userId)) }),
      )
      .catch((err) => ctx.deps.logger.info({ err, userId }, "telling the upline of a join failed"));
  } else if (!joined.ok && joined.reason === "too_deep") {
    await ctx.reply(ctx.t("join-too-deep", { depth: joined.maxDepth }));
  }
  return false;
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
