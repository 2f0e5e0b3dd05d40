import type { Operator } from "../../commerce/catalogue/operators.ts";
import { productByCode } from "../../commerce/catalogue/queries.ts";
import { normaliseDestination } from "../../commerce/orders/destination.ts";
import type { FlowContext } from "../context.ts";
import { brandName } from "../ui/catalogue-words.ts";
import type { FlowEnv } from "../ui/flow/env.ts";
import { ask, type Convo, type FlowArgs } from "../ui/flow/kit.ts";
import { billNumberQuestion } from "../ui/flow/labels.ts";
import { endWithCard, offerCard, sayRefusal } from "../ui/flow/offer.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import { translator } from "../ui/i18n.ts";
import { needsZone, parseGameId, parseZone } from "./games.ts";
import { recentPhones } from "./pulsa-data.ts";

/** a bill number without a bill, or no number at all: asked again this many times */
const MAX_ATTEMPTS = 5;

/** what the flow keeps of the product: plain JSON (a replay gets it back from the log) */
interface LinkedProduct {
  code: string;
  name: string;
  brand: string;
  type: "prepaid" | "game" | "pasca";
  category: string;
  operator: Operator | null;
  price: number;
}

/**
 * a product a link named (t.me/<bot>?start=p_<code>, from a price list or an inline result):
 * only its destination is asked, then the card. The destination is checked as the engine
 * checks it (normaliseDestination), so a wrong one gets the hint and the question again.
 */
export function productFlow(env: FlowEnv) {
  return async function product(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const code = args.productCode ?? "";
    const item = await conversation.external(async (): Promise<LinkedProduct | null> => {
      const found = await productByCode(env.deps.db, code, {
        tier: args.tier,
        buyer: ctx.from!.id,
      });
      return (
        found && {
          code: found.code,
          name: found.name,
          brand: found.brand,
          type: found.type,
          category: found.category,
          operator: found.operator,
          price: found.price,
        }
      );
    });
    if (!item) {
      await ctx.reply(t("quote-unavailable"));
      return;
    }
    const head = t("link-product", { product: escapeHtml(item.name), price: rupiah(item.price) });
    if (item.type === "game") {
      const game = escapeHtml(brandName(item.brand));
      const accountId = await ask(conversation, ctx, t, {
        text: `${head}\n${t("ask-game-id", { game })}`,
        parse: parseGameId,
        hint: t("hint-game-id"),
      });
      let destination = accountId;
      if (needsZone(item.brand)) {
        const zone = await ask(conversation, ctx, t, {
          text: t("ask-game-zone", { game }),
          parse: parseZone,
          hint: t("hint-game-zone"),
        });
        destination = `${accountId}(${zone})`;
      }
      await endWithCard(conversation, ctx, t, env, { productCode: item.code, destination });
      return;
    }
    const userId = ctx.from!.id;
    const meter = item.type === "prepaid" && item.category.toLowerCase() === "pln";
    const phone = item.type === "prepaid" && !meter;
    const recent = phone ? await conversation.external(() => recentPhones(env, userId)) : [];
    const question = meter ? t("ask-meter") : phone ? t("ask-phone") : billNumberQuestion(t, item);
    const bill = item.type === "pasca";
    for (let attempt = 1; ; attempt++) {
      const destination = await ask(conversation, ctx, t, {
        text: `${head}\n${question}`,
        choices: recent.map((p) => ({ label: p, value: p })),
        parse: (text) => normaliseDestination(item, text) ?? undefined,
        hint: t("hint-link-destination", { product: escapeHtml(item.name) }),
      });
      const checking = bill ? await ctx.reply(t("bill-checking")) : undefined;
      const outcome = await offerCard(conversation, ctx, t, env, {
        productCode: item.code,
        destination,
        bill,
      });
      // the bill (or why there is none) is on screen: the "checking" bubble has said its part
      if (checking)
        await ctx.api.deleteMessage(checking.chat.id, checking.message_id).catch(() => {});
      if (outcome.ok) return;
      await sayRefusal(ctx, t, outcome);
      const retry = outcome.reason === "no_bill" || outcome.reason === "invalid_destination";
      if (!retry || attempt >= MAX_ATTEMPTS) return;
    }
  };
}
