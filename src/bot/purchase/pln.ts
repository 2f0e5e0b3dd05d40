import { looksLikePhone, normaliseMeterNumber } from "../../commerce/catalogue/operators.ts";
import { productsByCategory } from "../../commerce/catalogue/queries.ts";
import { recentDestinations } from "../../commerce/orders/queries.ts";
import type { FlowContext } from "../context.ts";
import { pickProduct } from "../ui/flow/catalogue.ts";
import type { FlowEnv } from "../ui/flow/env.ts";
import { ask, type Convo, type FlowArgs } from "../ui/flow/kit.ts";
import { endWithCard } from "../ui/flow/offer.ts";
import { translator } from "../ui/i18n.ts";

const parseMeter = (text: string) => normaliseMeterNumber(text) ?? undefined;

/** PLN token: meter number → amount → card */
export function plnFlow(env: FlowEnv) {
  return async function pln(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const userId = ctx.from!.id;
    const recent = await conversation.external(async () => {
      const all = await recentDestinations(
        env.deps.db,
        userId,
        { kinds: ["prepaid"], categories: ["PLN"] },
        10,
      );
      return all.filter((d) => parseMeter(d) !== undefined).slice(0, 3);
    });
    const meter = await ask(conversation, ctx, t, {
      text: t("ask-meter"),
      choices: recent.map((m) => ({ label: m, value: m })),
      parse: parseMeter,
      hint: t("hint-meter"),
      // a phone number has a meter's length: say why it is refused
      reason: (text) => (looksLikePhone(text) ? t("hint-meter-phone") : undefined),
    });
    const code = await pickProduct(conversation, ctx, t, {
      text: t("pick-pln", { meter }),
      load: (page) =>
        productsByCategory(env.deps.db, "PLN", { tier: args.tier, buyer: userId, ...page }),
      now: () => env.deps.clock.now(),
    });
    if (code === undefined) return;
    await endWithCard(conversation, ctx, t, env, { productCode: code, destination: meter });
  };
}
