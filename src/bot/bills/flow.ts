import {
  listCategories,
  productByCode,
  productsByCategory,
} from "../../commerce/catalogue/queries.ts";
import { recentDestinations } from "../../commerce/orders/queries.ts";
import type { FlowContext } from "../context.ts";
import { categoryName } from "../ui/catalogue-words.ts";
import { PRODUCT_PAGE_SIZE, pageOf } from "../ui/flow/catalogue.ts";
import type { FlowEnv } from "../ui/flow/env.ts";
import { ask, type Convo, type FlowArgs, pickPaged } from "../ui/flow/kit.ts";
import { billNumberQuestion } from "../ui/flow/labels.ts";
import { offerCard, sayRefusal } from "../ui/flow/offer.ts";
import { escapeHtml } from "../ui/format.ts";
import { translator } from "../ui/i18n.ts";

/** a customer number: digits (separators allowed), 6 to 20 of them */
export function parseCustomerNo(text: string): string | undefined {
  const s = text.trim().replace(/[\s\-.]/g, "");
  return /^\+?\d{6,20}$/.test(s) ? s : undefined;
}

/** how many attempts at a number before the flow gives up (each runs a supplier inquiry) */
const MAX_INQUIRIES = 5;

/** bills: kind → product (when the kind has several) → customer number → inquiry → card */
export function billFlow(env: FlowEnv) {
  return async function bill(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const category = await pickPaged(conversation, ctx, t, {
      text: t("pick-bill-kind"),
      hint: t("hint-buttons"),
      empty: t("no-products"),
      pageSize: PRODUCT_PAGE_SIZE,
      load: async (offset, limit) => {
        const kinds = await listCategories(env.deps.db, "pasca", {
          tier: args.tier,
          buyer: ctx.from!.id,
        });
        return pageOf(kinds, offset, limit, (k) => ({
          label: categoryName(t, k.category),
          value: k.category,
        }));
      },
    });
    if (category === undefined) return;
    const loadProducts = async (offset: number, limit: number) => {
      const page = await productsByCategory(env.deps.db, category, {
        tier: args.tier,
        buyer: ctx.from!.id,
        limit,
        offset,
      });
      return {
        total: page.total,
        items: page.items.map((i) => ({ label: i.name, value: i.code })),
      };
    };
    const first = await conversation.external(() => loadProducts(0, 2));
    const code =
      first.total === 1
        ? first.items[0]!.value
        : await pickPaged(conversation, ctx, t, {
            text: t("pick-bill-product", { kind: escapeHtml(categoryName(t, category)) }),
            hint: t("hint-buttons"),
            empty: t("no-products"),
            pageSize: PRODUCT_PAGE_SIZE,
            load: loadProducts,
          });
    if (code === undefined) return;
    const userId = ctx.from!.id;
    const { item, recent } = await conversation.external(async () => ({
      item: await productByCode(env.deps.db, code, { tier: args.tier, buyer: userId }),
      // this bill kind's own numbers, never a phone bought for or a meter
      recent: await recentDestinations(
        env.deps.db,
        userId,
        { kinds: ["bill"], categories: [category] },
        3,
      ),
    }));
    const question = item
      ? billNumberQuestion(t, item)
      : t("ask-customer-no", { kind: escapeHtml(categoryName(t, category)) });
    for (let attempt = 1; ; attempt++) {
      const customerNo = await ask(conversation, ctx, t, {
        text: question,
        choices: recent.map((n) => ({ label: n, value: n })),
        parse: parseCustomerNo,
        hint: t("hint-customer-no"),
      });
      const checking = await ctx.reply(t("bill-checking"));
      const outcome = await offerCard(conversation, ctx, t, env, {
        productCode: code,
        destination: customerNo,
        bill: true,
      });
      // the bill (or why there is none) is on screen: the "checking" bubble has said its part
      await ctx.api.deleteMessage(checking.chat.id, checking.message_id).catch(() => {});
      if (outcome.ok) return;
      await sayRefusal(ctx, t, outcome);
      // a number without a bill, or not one at all: ask again, a few times
      const retry = outcome.reason === "no_bill" || outcome.reason === "invalid_destination";
      if (!retry || attempt >= MAX_INQUIRIES) return;
    }
  };
}
