import { findBalanceCheck } from "../../commerce/reconciliation/balance-check.ts";
import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";
import { describeCheck } from "./checks.ts";

/** a balance check found money moved that kios's records don't explain */
export async function renderSupplierDrift(n: NotificationOf<"supplier_drift">, env: RenderEnv) {
  const check = await findBalanceCheck(env.db, n.payload.checkId);
  if (!check || !env.forAdmins(n)) return;
  // an alert names its supplier (its name travels with it; an older one is the first's)
  const supplier = n.payload.supplier;
  const shown = await describeCheck(env.db, await env.languageOf(n.chatId), check, {
    first: supplier ?? "main",
    several: supplier !== undefined,
  });
  await env.api.sendMessage(n.chatId, shown.text, { reply_markup: shown.keyboard });
}

/** the supplier balance (as last read, less what was sent since) runs low */
export async function renderSupplierLowBalance(
  n: NotificationOf<"supplier_low_balance">,
  env: RenderEnv,
) {
  if (!env.forAdmins(n)) return;
  const t = await env.languageOf(n.chatId);
  const known = rupiah(n.payload.known);
  const { supplier } = n.payload;
  const text = [
    t("recon-low-title"),
    supplier === undefined
      ? t("recon-low-body", { known })
      : t("recon-low-body-at", { known, supplier: escapeHtml(supplier) }),
  ];
  await env.api.sendMessage(n.chatId, text.join("\n"));
}

/** the daily re-check of settled orders, when the supplier tells some otherwise */
export async function renderOrdersRechecked(n: NotificationOf<"orders_rechecked">, env: RenderEnv) {
  if (!env.forAdmins(n)) return;
  const p = n.payload;
  const t = await env.languageOf(n.chatId);
  const lines = [t("recheck-title", { checked: p.checked })];
  if (p.disagreeing.length > 0) lines.push(t("recheck-disagree"));
  for (const d of p.disagreeing) {
    lines.push(`• <code>${escapeHtml(d.refId)}</code> ${d.kios} → ${d.supplier}`);
  }
  if (p.more > 0) lines.push(t("recheck-more", { more: p.more }));
  if (p.unanswered > 0) lines.push(t("recheck-unanswered", { unanswered: p.unanswered }));
  await env.api.sendMessage(n.chatId, lines.join("\n"));
}
