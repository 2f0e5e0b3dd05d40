import { Composer } from "grammy";
import { listUserOrders } from "../../commerce/orders/queries.ts";
import { downlineCount } from "../../commerce/resellers/tree.ts";
import { findUser, setTier } from "../../commerce/users.ts";
import {
  creditWallet,
  debitWallet,
  InsufficientFundsError,
  MAX_OPERATION_AMOUNT,
  walletBalance,
} from "../../commerce/wallet/ledger.ts";
import type { BotContext } from "../context.ts";
import { parseUserId, words } from "../ui/args.ts";
import { escapeHtml, parseAmount, rupiah, wibDateTime } from "../ui/format.ts";
import { statusIcon } from "../ui/order-card.ts";
import { tellRoleChange } from "./role-change.ts";

/** tells a user about an adjustment to their wallet; a blocked bot is no reason to fail */
async function tellUser(
  ctx: BotContext,
  userId: number,
  key: string,
  vars: Record<string, string>,
) {
  const user = await findUser(ctx.deps.db, userId);
  const t = ctx.translatorFor(user?.language ?? "id");
  try {
    await ctx.api.sendMessage(userId, t(key, vars));
  } catch (err) {
    ctx.deps.logger.info({ err, userId }, "could not tell the user about a wallet change");
  }
}

/** /credit and /debit <telegram_user_id> <amount> [note]: a ledger transfer, once per message */
async function adjust(ctx: BotContext, direction: "credit" | "debit"): Promise<void> {
  const [idText, amountText, ...note] = words(ctx.match as string);
  const userId = parseUserId(idText);
  const amount = amountText ? parseAmount(amountText) : undefined;
  if (userId === undefined || amount === undefined) {
    await ctx.reply(ctx.t(`admin-${direction}-usage`));
    return;
  }
  const max = ctx.deps.config.maxAmount ?? MAX_OPERATION_AMOUNT;
  if (amount > max) {
    await ctx.reply(ctx.t("admin-amount-too-large", { max: rupiah(max) }));
    return;
  }
  const memo = note.join(" ").slice(0, 200);
  // one admin message moves money once, however often the update is delivered
  const key = `admin:${ctx.chat!.id}:${ctx.msg!.message_id}:${direction}`;
  const transfer = { userId, amount, key, memo, actorId: ctx.from!.id, max };
  let applied: boolean;
  try {
    const result =
      direction === "credit"
        ? await creditWallet(ctx.deps.db, { ...transfer, kind: "credit" })
        : await debitWallet(ctx.deps.db, transfer);
    applied = result.applied;
  } catch (err) {
    if (!(err instanceof InsufficientFundsError)) throw err;
    const balance = await walletBalance(ctx.deps.db, userId);
    await ctx.reply(ctx.t("admin-debit-insufficient", { balance: rupiah(balance) }));
    return;
  }
  if (!applied) {
    // the same update delivered again: it moved money the first time, not now
    await ctx.reply(ctx.t("admin-adjust-repeated"));
    return;
  }
  const balance = await walletBalance(ctx.deps.db, userId);
  await ctx.reply(
    ctx.t(`admin-${direction}-done`, {
      user: String(userId),
      amount: rupiah(amount),
      balance: rupiah(balance),
    }),
  );
  await tellUser(ctx, userId, `wallet-${direction}ed`, {
    amount: rupiah(amount),
    balance: rupiah(balance),
    note: memo ? escapeHtml(memo) : "-",
  });
}

export function adminWallet(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("credit", (ctx) => adjust(ctx, "credit"));
  composer.command("debit", (ctx) => adjust(ctx, "debit"));

  composer.command("role", async (ctx) => {
    const [idText, tier] = words(ctx.match);
    const userId = parseUserId(idText);
    if (userId === undefined || (tier !== "customer" && tier !== "reseller")) {
      await ctx.reply(ctx.t("admin-role-usage"));
      return;
    }
    const before = await findUser(ctx.deps.db, userId);
    await setTier(ctx.deps.db, userId, tier);
    // a role change happened to the user too: told, in their language; their menu follows
    if (before && before.tier !== tier) await tellRoleChange(ctx, userId, tier);
    // the tier in the admin's words ("pelanggan"), as the user is told it, not its stored name
    const done = ctx.t("admin-role-done", { user: String(userId), tier: ctx.t(`tier-${tier}`) });
    // a demoted reseller leaves the trade (design rule 19): the admin is told what that does
    const downlines = tier === "customer" ? await downlineCount(ctx.deps.db, userId) : 0;
    await ctx.reply(
      downlines > 0
        ? `${done}\n${ctx.t("admin-role-demoted", { count: String(downlines) })}`
        : done,
    );
  });

  composer.command("user", async (ctx) => {
    const userId = parseUserId(words(ctx.match)[0]);
    if (userId === undefined) {
      await ctx.reply(ctx.t("admin-user-usage"));
      return;
    }
    const user = await findUser(ctx.deps.db, userId);
    if (!user) {
      await ctx.reply(ctx.t("admin-user-not-found", { user: String(userId) }));
      return;
    }
    const [balance, recent] = await Promise.all([
      walletBalance(ctx.deps.db, userId),
      listUserOrders(ctx.deps.db, userId, { limit: 5, offset: 0 }),
    ]);
    const lines = [
      ctx.t("admin-user", {
        user: String(userId),
        name: escapeHtml(user.firstName || "-"),
        username: user.username ? `@${escapeHtml(user.username)}` : "-",
        tier: ctx.t(`tier-${user.tier}`),
        language: user.language,
        balance: rupiah(balance),
        orders: recent.total,
        since: wibDateTime(user.createdAt.getTime()),
      }),
    ];
    if (user.blockedAt) lines.push(ctx.t("admin-user-blocked"));
    for (const o of recent.items) {
      lines.push(
        `${statusIcon(o)} <code>${escapeHtml(o.refId)}</code> ${escapeHtml(o.productName)} · ${escapeHtml(o.destination)} · ${rupiah(o.price)}`,
      );
    }
    await ctx.reply(lines.join("\n"));
  });

  return composer;
}
