import { Composer } from "grammy";
import { findH2h } from "../../commerce/h2h/orders.ts";
import { supplierNoteOf } from "../../commerce/orders/failure.ts";
import {
  attemptsOfOrders,
  findOrderByAnyRef,
  findUserOrder,
} from "../../commerce/orders/queries.ts";
import type { BotContext } from "../context.ts";
import { attemptDetails } from "../ui/attempt-lines.ts";
import { escapeHtml } from "../ui/format.ts";
import { orderCopyKeyboard, orderDetails } from "../ui/order-card.ts";

/**
 * /status <ref_id>: one of the sender's own orders, by kios's ref or, for an order their
 * server placed over H2H, by their own ref_id; anyone else's is "not found"
 */
export function statusFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("status", async (ctx) => {
    const ref = ctx.match.trim();
    if (!/^[A-Za-z0-9._/-]{1,64}$/.test(ref)) {
      await ctx.reply(ctx.t("status-usage"));
      return;
    }
    const order =
      (await findUserOrder(ctx.deps.db, ctx.from!.id, ref)) ??
      (await findH2h(ctx.deps.db, ctx.from!.id, ref))?.order ??
      // an admin finds any order, by any of its attempts' ref_ids
      (ctx.isAdmin ? await findOrderByAnyRef(ctx.deps.db, ref) : undefined);
    if (!order) {
      await ctx.reply(ctx.t("status-not-found", { ref: escapeHtml(ref) }));
      return;
    }
    let text = orderDetails(ctx.t, order);
    if (ctx.isAdmin) {
      // where it went, for admins only: the buyer never sees routing
      const attempts = (await attemptsOfOrders(ctx.deps.db, [order.id])).get(order.id) ?? [];
      // the supplier's own words, which the buyer's card leaves out
      const note = order.status === "failed" ? supplierNoteOf(order) : undefined;
      text = [
        text,
        ...(note ? [ctx.t("admin-status-supplier-note", { note: escapeHtml(note) })] : []),
        ctx.t("admin-status-attempts"),
        ...attemptDetails(attempts),
      ].join("\n");
    }
    await ctx.reply(text, { reply_markup: orderCopyKeyboard(ctx.t, order) });
  });
  return composer;
}
