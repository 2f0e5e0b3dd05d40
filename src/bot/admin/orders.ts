import { Composer, InlineKeyboard } from "grammy";
import { decideOrder } from "../../commerce/orders/decide.ts";
import { attemptsOfOrders, getOrder, openOrders } from "../../commerce/orders/queries.ts";
import { resolveOrder } from "../../commerce/orders/resolve.ts";
import type { Order } from "../../commerce/orders/types.ts";
import type { BotContext } from "../context.ts";
import { attemptDetails } from "../ui/attempt-lines.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editMessage } from "../ui/edit.ts";
import { openOrderLine } from "./order-lines.ts";

const PENDING_LIMIT = 10;

export function adminOrders(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("pending", async (ctx) => {
    const open = await openOrders(ctx.deps.db, { limit: PENDING_LIMIT });
    if (open.length === 0) {
      await ctx.reply(ctx.t("admin-pending-none"));
      return;
    }
    const kb = new InlineKeyboard();
    for (const o of open)
      kb.text(ctx.t("btn-recheck", { ref: o.refId.slice(-8) }), cb(CB.recheck, o.id)).row();
    const attempts = await attemptsOfOrders(
      ctx.deps.db,
      open.map((o) => o.id),
    );
    await ctx.reply(
      [
        ctx.t("admin-pending-title", { count: open.length }),
        ...open.flatMap((o) => {
          const tried = attempts.get(o.id) ?? [];
          return [openOrderLine(o, tried), ...attemptDetails(tried)];
        }),
      ].join("\n"),
      {
        reply_markup: kb,
      },
    );
  });

  return composer;
}

/** the re-check buttons (on /pending and on flagged-order notices) */
export function adminOrderButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.recheck), async (ctx) => {
    const orderId = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    const order = orderId === undefined ? undefined : await getOrder(ctx.deps.db, orderId);
    if (!order) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    let now: Order = order;
    try {
      now = (await resolveOrder(ctx.deps.orders, order.id)) ?? order;
    } catch (err) {
      ctx.deps.logger.warn({ err, orderId: order.id }, "re-check from the bot failed");
      await ctx.answerCallbackQuery({ text: ctx.t("admin-recheck-failed") });
      return;
    }
    await ctx.answerCallbackQuery({
      text: ctx.t("admin-recheck-done", { ref: now.refId, status: now.status }),
    });
    await ctx.reply(openOrderLine(now));
  });
  composer.callbackQuery(cbPattern(CB.decide), async (ctx) => {
    const [id, choice] = parseCb(ctx.callbackQuery.data)?.parts ?? [];
    const orderId = cbInt(id);
    if (orderId === undefined || (choice !== "refund" && choice !== "wait")) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    const result = await decideOrder(ctx.deps.orders, {
      orderId,
      adminId: ctx.from.id,
      decision: choice,
    });
    if (!result.ok) {
      await ctx.answerCallbackQuery({ text: ctx.t(`decide-${result.reason}`) });
      if (result.order) await ctx.reply(openOrderLine(result.order));
      return;
    }
    await ctx.answerCallbackQuery({ text: ctx.t(`decided-${choice}`) });
    const message = ctx.callbackQuery.message;
    if (message) {
      await editMessage(ctx.api, {
        chatId: message.chat.id,
        messageId: message.message_id,
        text: `${ctx.t(`decided-${choice}`)}\n${openOrderLine(result.order)}`,
        shown: message,
      });
    }
  });
  return composer;
}
