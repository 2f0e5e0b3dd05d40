import type { FlowContext } from "../context.ts";
import { parseAmount, rupiah } from "../format.ts";
import { translator } from "../i18n.ts";
import { startDeposit } from "../services/deposits.ts";
import { depositCreatedText, depositRefusedText } from "../views/deposit.ts";
import type { FlowEnv } from "./env.ts";
import { ask, type Convo, type FlowArgs } from "./kit.ts";

const DEPOSIT_PRESETS = [50_000, 100_000, 200_000, 500_000];

/** top-up: amount (a preset or typed) → request with instructions; admins are told */
export function depositFlow(env: FlowEnv) {
  return async function deposit(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const userId = ctx.from!.id;
    for (;;) {
      const amount = await ask(conversation, ctx, t, {
        text: t("ask-deposit-amount"),
        choices: DEPOSIT_PRESETS.map((a) => ({ label: rupiah(a), value: a })),
        columns: 2,
        parse: parseAmount,
        hint: t("hint-amount"),
      });
      const outcome = await conversation.external(() => startDeposit(env.deps, userId, amount));
      if (outcome.ok) {
        await ctx.reply(depositCreatedText(t, outcome.deposit));
        return;
      }
      // below the minimum or above the maximum: say the limit and ask again
      await ctx.reply(depositRefusedText(t, outcome));
    }
  };
}
