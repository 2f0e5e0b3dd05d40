import { normalisePhone } from "../../commerce/catalogue/operators.ts";
import { listBrands, productsByBrand } from "../../commerce/catalogue/queries.ts";
import type { FlowContext } from "../context.ts";
import { escapeHtml } from "../format.ts";
import { translator } from "../i18n.ts";
import type { FlowEnv } from "./env.ts";
import { ask, type Convo, type FlowArgs, pickPaged } from "./kit.ts";
import { productLabel } from "./labels.ts";
import { offerCard, sayRefusal } from "./offer.ts";
import { PRODUCT_PAGE_SIZE, recentPhones } from "./pulsa-data.ts";

// an e-wallet account is a phone number of any operator
const parseAccount = (text: string) => normalisePhone(text) ?? undefined;

export const BRAND_PAGE_SIZE = 10;

/** e-wallet top-up: provider → amount → number → card */
export function ewalletFlow(env: FlowEnv) {
  return async function ewallet(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const userId = ctx.from!.id;
    const brand = await pickPaged(conversation, ctx, t, {
      text: t("pick-ewallet"),
      hint: t("hint-buttons"),
      empty: t("no-products"),
      pageSize: BRAND_PAGE_SIZE,
      columns: 2,
      load: async (offset, limit) => {
        const brands = await listBrands(env.deps.db, { category: "E-Money" }, { tier: args.tier });
        return {
          total: brands.length,
          items: brands
            .slice(offset, offset + limit)
            .map((b) => ({ label: b.brand, value: b.brand })),
        };
      },
    });
    if (brand === undefined) return;
    const code = await pickPaged(conversation, ctx, t, {
      text: t("pick-ewallet-amount", { brand: escapeHtml(brand) }),
      hint: t("hint-buttons"),
      empty: t("no-products"),
      pageSize: PRODUCT_PAGE_SIZE,
      load: async (offset, limit) => {
        const page = await productsByBrand(env.deps.db, "prepaid", brand, {
          tier: args.tier,
          limit,
          offset,
        });
        return {
          total: page.total,
          items: page.items.map((i) => ({ label: productLabel(i), value: i.code })),
        };
      },
    });
    if (code === undefined) return;
    const recent = await conversation.external(() => recentPhones(env, userId));
    const phone = await ask(conversation, ctx, t, {
      text: t("ask-ewallet-number", { brand: escapeHtml(brand) }),
      choices: recent.map((p) => ({ label: p, value: p })),
      parse: parseAccount,
      hint: t("hint-phone"),
    });
    const outcome = await offerCard(conversation, ctx, t, env, {
      productCode: code,
      destination: phone,
      bill: false,
    });
    if (!outcome.ok) await sayRefusal(ctx, t, outcome);
  };
}
