import { normalisePhone } from "../../commerce/catalogue/operators.ts";
import { listBrands, productsByBrand } from "../../commerce/catalogue/queries.ts";
import type { FlowContext } from "../context.ts";
import { brandName } from "../ui/catalogue-words.ts";
import { pickBrand, pickProduct } from "../ui/flow/catalogue.ts";
import type { FlowEnv } from "../ui/flow/env.ts";
import { ask, type Convo, type FlowArgs } from "../ui/flow/kit.ts";
import { endWithCard } from "../ui/flow/offer.ts";
import { escapeHtml } from "../ui/format.ts";
import { translator } from "../ui/i18n.ts";
import { recentPhones } from "./pulsa-data.ts";

// an e-wallet account is a phone number of any operator
const parseAccount = (text: string) => normalisePhone(text) ?? undefined;

/** e-wallet top-up: provider → amount → number → card */
export function ewalletFlow(env: FlowEnv) {
  return async function ewallet(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const userId = ctx.from!.id;
    const brand = await pickBrand(conversation, ctx, t, {
      text: t("pick-ewallet"),
      load: () =>
        listBrands(env.deps.db, { category: "E-Money" }, { tier: args.tier, buyer: userId }),
    });
    if (brand === undefined) return;
    const code = await pickProduct(conversation, ctx, t, {
      text: t("pick-ewallet-amount", { brand: escapeHtml(brandName(brand)) }),
      load: (page) =>
        productsByBrand(env.deps.db, "prepaid", brand, { tier: args.tier, buyer: userId, ...page }),
      now: () => env.deps.clock.now(),
    });
    if (code === undefined) return;
    const recent = await conversation.external(() => recentPhones(env, userId));
    const phone = await ask(conversation, ctx, t, {
      text: t("ask-ewallet-number", { brand: escapeHtml(brandName(brand)) }),
      choices: recent.map((p) => ({ label: p, value: p })),
      parse: parseAccount,
      hint: t("hint-phone"),
    });
    await endWithCard(conversation, ctx, t, env, { productCode: code, destination: phone });
  };
}
