import { Composer, InlineKeyboard } from "grammy";
import {
  joinByCode,
  joinOffer,
  resellerByCode,
  type TreeResult,
} from "../../commerce/resellers/tree.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml } from "../ui/format.ts";

// a reseller's referral link, t.me/<bot>?start=r_<code> (docs/resellers.md#joining): it only
// asks. A plain customer is shown whose downline they would be and what that means, and joins
// on ✅ (checked again at the press); a reseller, or anyone with downlines, is told that only
// an admin moves them (design rule 19). The reseller hears of a join only once it is made.

/** the codes referralCodeOf() makes: short and callback-safe */
const CODE = /^[a-z0-9]{1,16}$/;

function refusalText(ctx: BotContext, r: Exclude<TreeResult, { ok: true }>): string | undefined {
  switch (r.reason) {
    case "in_trade":
      return ctx.t(r.why === "reseller" ? "join-in-trade-reseller" : "join-in-trade-downlines");
    case "too_deep":
      return ctx.t("join-too-deep", { depth: r.maxDepth });
    case "already_joined":
      return ctx.t("join-already");
    case "unknown_code":
      return ctx.t("join-link-gone");
    default:
      return undefined;
  }
}

/** r_<code>: the question, or why the link can't take this user; then the welcome as ever */
export async function referralLink(ctx: BotContext, rest: string): Promise<boolean> {
  const userId = ctx.from?.id;
  const code = rest.trim().toLowerCase();
  if (userId === undefined || !CODE.test(code)) return false;
  const offer = await joinOffer(ctx.deps.db, userId, code);
  if (offer.ok) {
    const upline = escapeHtml(offer.upline.firstName || String(offer.upline.telegramId));
    await ctx.reply(ctx.t("join-offer", { upline }), {
      reply_markup: new InlineKeyboard()
        .text(ctx.t("btn-join-yes"), cb(CB.referralJoin, code))
        .text(ctx.t("btn-join-no"), cb(CB.referralDecline)),
    });
  } else if (offer.reason === "in_trade" || offer.reason === "too_deep") {
    await ctx.reply(refusalText(ctx, offer)!);
  }
  // a user already in a tree, a code that is no reseller's, a self-link: the welcome only
  return false;
}

async function join(ctx: BotContext & { from: NonNullable<BotContext["from"]> }, code: string) {
  const joined = await joinByCode(ctx.deps.db, ctx.from.id, code);
  const reseller = await resellerByCode(ctx.deps.db, code);
  if (!joined.ok) {
    // a second press of a card already answered (another process's): its answer stands
    const same = joined.reason === "already_joined" && joined.uplineId === reseller?.telegramId;
    const text = same ? undefined : refusalText(ctx, joined);
    await ctx.answerCallbackQuery(text ? undefined : { text: ctx.t("stale-button") });
    if (text) await editPressed(ctx, text);
    return;
  }
  await ctx.answerCallbackQuery();
  await editPressed(ctx, ctx.t("joined-upline", { upline: escapeHtml(reseller?.firstName ?? "") }));
  if (joined.uplineId === null) return;
  const who = [ctx.from.first_name, ctx.from.username ? `@${ctx.from.username}` : ""]
    .filter(Boolean)
    .join(" ");
  // a courtesy to the upline: a blocked or gone chat changes nothing of the join
  await ctx.api
    .sendMessage(
      joined.uplineId,
      ctx.t("joined-notice", { who: escapeHtml(who || String(ctx.from.id)) }),
    )
    .catch((err) =>
      ctx.deps.logger.info({ err, userId: ctx.from.id }, "telling the upline of a join failed"),
    );
}

export function referralButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.referralJoin), async (ctx) => {
    const code = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    if (!CODE.test(code)) return void (await ctx.answerCallbackQuery(ctx.t("stale-button")));
    await join(ctx, code);
  });
  composer.callbackQuery(cbPattern(CB.referralDecline), async (ctx) => {
    await ctx.answerCallbackQuery();
    await editPressed(ctx, ctx.t("join-declined"));
  });
  return composer;
}
