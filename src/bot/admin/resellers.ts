import { Composer } from "grammy";
import { moveUser, type TreeResult } from "../../commerce/resellers/tree.ts";
import { findUser } from "../../commerce/users.ts";
import type { BotContext } from "../context.ts";
import { parseUserId, words } from "../ui/args.ts";
import { tellRoleChange } from "./role-change.ts";

// the admin's hand on the reseller tree: /upline moves a user under another (or to the top),
// /promote makes a user a reseller, under another when named (docs/resellers.md#for-the-owner)

function refusal(ctx: BotContext, r: Exclude<TreeResult, { ok: true }>): string {
  switch (r.reason) {
    case "self":
      return ctx.t("tree-self");
    case "cycle":
      return ctx.t("tree-cycle");
    case "too_deep":
      return ctx.t("tree-too-deep", { depth: r.maxDepth });
    case "unknown_upline":
      return ctx.t("tree-unknown-upline", { upline: String(r.uplineId) });
    default:
      return r.reason;
  }
}

function uplineText(ctx: BotContext, uplineId: number | null): string {
  return uplineId === null
    ? ctx.t("tree-no-upline")
    : ctx.t("tree-upline", { upline: String(uplineId) });
}

async function answer(ctx: BotContext, userId: number, result: TreeResult): Promise<void> {
  if (!result.ok) {
    await ctx.reply(ctx.t("admin-tree-refused", { reason: refusal(ctx, result) }));
    return;
  }
  await ctx.reply(
    ctx.t("admin-tree-done", {
      user: String(userId),
      upline: uplineText(ctx, result.uplineId),
    }),
  );
}

export function adminResellers(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("upline", async (ctx) => {
    const [user, upline] = words(ctx.match as string);
    const userId = parseUserId(user);
    const uplineId = upline === "-" ? null : parseUserId(upline);
    if (userId === undefined || uplineId === undefined) {
      await ctx.reply(ctx.t("admin-upline-usage"));
      return;
    }
    await answer(ctx, userId, await moveUser(ctx.deps.db, { userId, uplineId }));
  });
  composer.command("promote", async (ctx) => {
    const [user, upline, ...rest] = words(ctx.match as string);
    const userId = parseUserId(user);
    // no upline named: the user stays where they are
    const uplineId = upline === undefined ? undefined : parseUserId(upline);
    if (
      userId === undefined ||
      (upline !== undefined && uplineId === undefined) ||
      rest.length > 0
    ) {
      await ctx.reply(ctx.t("admin-promote-usage"));
      return;
    }
    const before = await findUser(ctx.deps.db, userId);
    const result = await moveUser(ctx.deps.db, { userId, uplineId, promote: true });
    if (!result.ok) return answer(ctx, userId, result);
    // it happened to the user too: told what they can do now, their menu follows
    if (before?.tier !== "reseller") await tellRoleChange(ctx, userId, "reseller");
    await ctx.reply(
      ctx.t("admin-promote-done", {
        user: String(userId),
        upline: uplineText(ctx, result.uplineId),
      }),
    );
  });
  return composer;
}
