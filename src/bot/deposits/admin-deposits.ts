import { Composer } from "grammy";
import { findUser } from "../../commerce/users.ts";
import {
  confirmDeposit,
  DepositError,
  findDeposit,
  rejectDeposit,
} from "../../commerce/wallet/deposits.ts";
import type { BotContext } from "../context.ts";
import { CB, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { kick } from "../ui/kick.ts";
import { depositAdminCard } from "./deposit-view.ts";

async function decide(ctx: BotContext, decision: "confirm" | "reject"): Promise<void> {
  const id = cbInt(parseCb(ctx.callbackQuery?.data)?.parts[0]);
  if (id === undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
    return;
  }
  const adminId = ctx.from!.id;
  let toast: string;
  try {
    const input = { id, adminId, clock: ctx.deps.clock };
    // the user's notice is queued with the decision, inside the same transaction
    if (decision === "confirm") await confirmDeposit(ctx.deps.db, input);
    else await rejectDeposit(ctx.deps.db, input);
    await kick(ctx.deps);
    toast = ctx.t(decision === "confirm" ? "deposit-admin-confirmed" : "deposit-admin-rejected");
  } catch (err) {
    if (!(err instanceof DepositError)) throw err;
    toast = ctx.t(`deposit-admin-${err.reason === "expired" ? "expired" : "already"}`);
  }
  await ctx.answerCallbackQuery({ text: toast });
  // the card shows what is stored now, whoever decided it
  const d = await findDeposit(ctx.deps.db, id);
  if (!d) return;
  const card = depositAdminCard(ctx.t, d, await findUser(ctx.deps.db, d.userId));
  await editPressed(ctx, card.text, { keyboard: card.keyboard });
}

/** Confirm / Reject on a deposit request (admins only) */
export function adminDepositButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.depositConfirm), (ctx) => decide(ctx, "confirm"));
  composer.callbackQuery(cbPattern(CB.depositReject), (ctx) => decide(ctx, "reject"));
  return composer;
}
