import type { FlowContext } from "../../context.ts";
import { escapeHtml } from "../format.ts";
import type { Translate } from "../i18n.ts";
import { quoteCard } from "../quote-card.ts";
import { type QuoteOutcome, refusalText, requestQuote } from "../quotes.ts";
import type { FlowEnv } from "./env.ts";
import type { Convo } from "./kit.ts";

/**
 * the last step of every purchase flow: price it and show the confirmation card. The card's
 * buttons are handled outside the flow (features/checkout.ts), so the flow ends here.
 * A refusal is returned to the caller, which may ask again (bills) or say why and end.
 */
export async function offerCard(
  conversation: Convo,
  ctx: FlowContext,
  t: Translate,
  env: FlowEnv,
  r: { productCode: string; destination: string; bill: boolean },
): Promise<QuoteOutcome> {
  const userId = ctx.from!.id;
  const chatId = ctx.chatId!;
  const outcome = await conversation.external(() =>
    requestQuote(env.deps.orders, { userId, chatId, ...r }),
  );
  if (outcome.ok) {
    const card = quoteCard(t, outcome.quote);
    await ctx.reply(card.text, { reply_markup: card.keyboard });
  }
  return outcome;
}

/** the last step of the flows that quote once (all but bills): the card, or why not */
export async function endWithCard(
  conversation: Convo,
  ctx: FlowContext,
  t: Translate,
  env: FlowEnv,
  r: { productCode: string; destination: string },
): Promise<void> {
  const outcome = await offerCard(conversation, ctx, t, env, { ...r, bill: false });
  if (!outcome.ok) await sayRefusal(ctx, t, outcome);
}

/** says why no card could be shown */
export async function sayRefusal(
  ctx: FlowContext,
  t: Translate,
  outcome: Exclude<QuoteOutcome, { ok: true }>,
): Promise<void> {
  // the supplier's words only for "no bill" (e.g. already paid); its errors stay in the logs
  const detail = outcome.reason === "no_bill" ? `\n${escapeHtml(outcome.message)}` : "";
  await ctx.reply(refusalText(t, outcome) + detail);
}
