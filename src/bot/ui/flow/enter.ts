import type { BotContext } from "../../context.ts";
import type { FlowArgs } from "./kit.ts";

/** the conversations the bot runs, by id */
export const FLOW_IDS = ["pulsa", "pln", "ewallet", "game", "bill", "deposit", "product"] as const;
export type FlowId = (typeof FLOW_IDS)[number];

/** starts a flow, leaving any other first (one flow per chat) */
export async function enterFlow(
  ctx: BotContext,
  id: FlowId,
  more: Omit<FlowArgs, "lang" | "tier"> = {},
): Promise<void> {
  if (Object.keys(ctx.conversation.active()).length > 0) await ctx.conversation.exitAll();
  const args: FlowArgs = { ...more, lang: ctx.lang, tier: ctx.user?.tier ?? "customer" };
  await ctx.conversation.enter(id, args);
}
