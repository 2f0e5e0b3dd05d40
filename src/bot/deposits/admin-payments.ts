import { Composer } from "grammy";
import { findPayment } from "../../commerce/payments/payments.ts";
import { resolvePayment } from "../../commerce/payments/resolve.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { escapeHtml, rupiah, wibDateTime } from "../ui/format.ts";

/** /payment <number|gateway order id>: a gateway deposit as stored, asked about again first */
export function adminPayments(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("payment", async (ctx) => {
    const [ref] = words(ctx.match as string);
    const payments = ctx.deps.payments;
    if (!payments) {
      await ctx.reply(ctx.t("admin-payment-none"));
      return;
    }
    const found = ref ? await findPayment(ctx.deps.db, ref) : undefined;
    if (!found) {
      await ctx.reply(ctx.t("admin-payment-usage"));
      return;
    }
    // an open one is asked about now, so the admin sees the gateway's word
    const p = (await resolvePayment(payments.engine, found.id)) ?? found;
    const lines = [
      ctx.t("admin-payment-title", { id: String(p.id) }),
      ctx.t("admin-payment-body", {
        order: escapeHtml(p.gatewayOrderId),
        user: String(p.userId),
        amount: rupiah(p.amount),
        status: p.status,
        created: wibDateTime(p.createdAt.getTime()),
      }),
    ];
    if (p.paidAmount !== null && p.paidAmount !== p.amount) {
      lines.push(ctx.t("admin-payment-paid", { paid: rupiah(p.paidAmount) }));
    }
    if (p.purpose === "buy")
      lines.push(ctx.t("admin-payment-buy", { purchase: p.purchase ?? "-" }));
    await ctx.reply(lines.join("\n"));
  });
  return composer;
}
