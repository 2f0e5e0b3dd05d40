import { InlineKeyboard } from "grammy";
import type { BalanceCheck, WindowOrder } from "../../commerce/reconciliation/balance-check.ts";
import { exactReading } from "../../commerce/reconciliation/in-flight.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { escapeHtml, rupiah, wibDateTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";

// a supplier balance check as admins read it, in /recon and in the drift alert

/** +Rp1.000 / -Rp1.000: a change shows its sign */
function change(amount: number): string {
  return amount > 0 ? `+${rupiah(amount)}` : rupiah(amount);
}

export function reconCheckText(
  t: Translate,
  check: BalanceCheck,
  previousBalance: number | undefined,
  orders: readonly WindowOrder[],
  /** the supplier's name, shown when the shop has several */
  supplier?: string,
): string {
  const title = t("recon-title", { id: check.id, at: wibDateTime(check.readAt.getTime()) });
  const lines = [supplier ? `${title} · <b>${escapeHtml(supplier)}</b>` : title];
  if (check.status === "baseline" || previousBalance === undefined) {
    lines.push(t("recon-baseline", { balance: rupiah(check.balance) }));
    return lines.join("\n");
  }
  lines.push(
    t("recon-moved", {
      balance: rupiah(check.balance),
      previous: rupiah(previousBalance),
      actual: change(check.actualChange ?? 0),
    }),
    t("recon-expected", {
      expected: change(check.expectedChange ?? 0),
      topups: rupiah(check.topups),
      successes: check.successCount,
      costs: rupiah(check.successCost),
      open: check.openCount,
      held: rupiah(check.openCost),
    }),
  );
  // what the check before carried in (orders in flight at its reading), when any
  const carriedIn = (check.drift ?? 0) - ((check.actualChange ?? 0) - (check.expectedChange ?? 0));
  if (carriedIn !== 0) lines.push(t("recon-carried-in", { amount: change(carriedIn) }));
  if (!exactReading(check)) {
    lines.push(
      t("recon-in-flight", {
        rise: rupiah(check.inFlightRise),
        fall: rupiah(check.inFlightFall),
      }),
    );
  }
  if (check.status === "ok") {
    lines.push(
      check.carried === 0
        ? t("recon-ok")
        : t("recon-ok-carried", { carried: change(check.carried) }),
    );
  } else if (check.status === "explained") lines.push(t("recon-explained"));
  else {
    lines.push(t("recon-drift", { drift: change(check.drift ?? 0) }));
    if ((check.drift ?? 0) > 0) {
      lines.push(exactReading(check) ? t("recon-rise") : t("recon-rise-uncertain"));
    }
  }
  if (check.status === "drift" && orders.length > 0) {
    lines.push("", t("recon-orders"));
    for (const o of orders) {
      lines.push(
        `• <code>${escapeHtml(o.refId)}</code> ${escapeHtml(o.productCode)} ${rupiah(o.cost)} (${o.status})`,
      );
    }
  }
  return lines.join("\n");
}

/**
 * the "it was a top-up" button, for a check whose balance rose unexplained and had nothing
 * in flight at its reading: then the rise is exactly what arrived
 */
export function reconCheckKeyboard(t: Translate, check: BalanceCheck): InlineKeyboard | undefined {
  if (check.status !== "drift" || (check.drift ?? 0) <= 0 || !exactReading(check)) {
    return undefined;
  }
  return new InlineKeyboard().text(
    t("btn-recon-topup", { amount: rupiah(check.drift ?? 0) }),
    cb(CB.reconTopup, String(check.id)),
  );
}
