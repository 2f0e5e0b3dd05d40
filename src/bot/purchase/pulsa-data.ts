import { PHONE_CATEGORIES } from "../../commerce/catalogue/categories.ts";
import {
  detectOperator,
  normalisePhone,
  offeredOperators,
} from "../../commerce/catalogue/operators.ts";
import { productsByOperator } from "../../commerce/catalogue/queries.ts";
import { recentDestinations } from "../../commerce/orders/queries.ts";
import type { FlowContext } from "../context.ts";
import { pickProduct } from "../ui/flow/catalogue.ts";
import type { FlowEnv } from "../ui/flow/env.ts";
import { ask, type Convo, type FlowArgs } from "../ui/flow/kit.ts";
import { operatorName } from "../ui/flow/labels.ts";
import { endWithCard } from "../ui/flow/offer.ts";
import { escapeHtml } from "../ui/format.ts";
import { translator } from "../ui/i18n.ts";

/** a mobile number of a known operator, in its 08… form */
export function parsePhone(text: string): string | undefined {
  const phone = normalisePhone(text);
  return phone && detectOperator(phone) ? phone : undefined;
}

/** the last phone numbers bought for, newest first */
export async function recentPhones(env: FlowEnv, userId: number): Promise<string[]> {
  const recent = await recentDestinations(
    env.deps.db,
    userId,
    { kinds: ["prepaid"], categories: PHONE_CATEGORIES },
    10,
  );
  return [...new Set(recent.map(parsePhone).filter((p): p is string => p !== undefined))].slice(
    0,
    3,
  );
}

/** pulsa & data: number → operator → pulsa or data → product (paged) → card */
export function pulsaFlow(env: FlowEnv) {
  return async function pulsa(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const userId = ctx.from!.id;
    const recent = await conversation.external(() => recentPhones(env, userId));
    const phone = await ask(conversation, ctx, t, {
      text: recent.length > 0 ? t("ask-phone-recent") : t("ask-phone"),
      choices: recent.map((p) => ({ label: p, value: p })),
      parse: parsePhone,
      hint: t("hint-phone"),
    });
    const operators = offeredOperators(phone);
    const name = operatorName(operators[0]!);
    const category = await ask(conversation, ctx, t, {
      text: t("ask-pulsa-or-data", { phone, operator: name }),
      choices: [
        { label: t("btn-pulsa"), value: "Pulsa" },
        { label: t("btn-data"), value: "Data" },
      ],
      columns: 2,
      hint: t("hint-buttons"),
    });
    const code = await pickProduct(conversation, ctx, t, {
      text: t(category === "Pulsa" ? "pick-pulsa" : "pick-data", {
        operator: escapeHtml(name),
        phone,
      }),
      load: (page) =>
        productsByOperator(env.deps.db, operators, category, {
          tier: args.tier,
          buyer: userId,
          ...page,
        }),
      now: () => env.deps.clock.now(),
    });
    if (code === undefined) return;
    await endWithCard(conversation, ctx, t, env, { productCode: code, destination: phone });
  };
}
