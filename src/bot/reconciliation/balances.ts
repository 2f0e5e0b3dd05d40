import { latestBalanceCheck } from "../../commerce/reconciliation/balance-check.ts";
import { supplierAccounts } from "../../commerce/reconciliation/every-supplier.ts";
import type { BotContext } from "../context.ts";
import { escapeHtml, rupiah, wibDateTime, wibTime } from "../ui/format.ts";
import { supplierProblem } from "../ui/supplier-problem.ts";

// /balance: every supplier's balance as it answers now, with its last reconciliation check
// (docs/reconciliation.md#several-suppliers). One supplier that can't be reached leaves
// the others' lines.

export async function supplierBalances(ctx: BotContext): Promise<void> {
  const accounts = supplierAccounts(ctx.deps.orders);
  const several = accounts.length > 1;
  const lines: string[] = [];
  for (const { book, supplier } of accounts) {
    const name = escapeHtml(book.name);
    try {
      const b = await supplier.balance();
      // where the figure comes from: the supplier's own answer, read now (a reconciliation
      // check, or none yet, is the next line)
      const at = wibTime(ctx.deps.clock.now());
      lines.push(
        several
          ? ctx.t("admin-balance-at", { supplier: name, balance: rupiah(b.balance), at })
          : ctx.t("admin-balance", { balance: rupiah(b.balance), at }),
      );
      // the supplier's deprecation warnings, so the owner hears of an API change in time
      for (const n of supplier.notices?.() ?? []) {
        lines.push(ctx.t("admin-supplier-notice", { notice: escapeHtml(n) }));
      }
    } catch (err) {
      ctx.deps.logger.warn({ err, supplier: book.name }, "supplier balance failed");
      const code = supplierProblem(err);
      lines.push(
        several
          ? ctx.t("admin-supplier-error-at", { supplier: name, code })
          : ctx.t("admin-supplier-error", { code }),
      );
    }
    const last = await latestBalanceCheck(ctx.deps.db, book);
    if (last) {
      const figures = {
        id: last.id,
        balance: rupiah(last.balance),
        at: wibDateTime(last.readAt.getTime()),
        verdict:
          last.status === "drift"
            ? ctx.t("report-recon-drift", { drift: rupiah(last.drift ?? 0) })
            : ctx.t(`report-recon-${last.status}`),
      };
      // a reading an order's answer carried (Digiflazz's buyer_last_saldo) says which order
      lines.push(
        last.source === "answer"
          ? ctx.t("admin-balance-last-answer", {
              ...figures,
              ref: escapeHtml(last.refId ?? ""),
            })
          : ctx.t("admin-balance-last", figures),
      );
    } else if (several) lines.push(ctx.t("admin-balance-never"));
  }
  await ctx.reply(lines.join("\n"));
}
