import { InlineKeyboard } from "grammy";
import type { AttemptLine } from "../../commerce/orders/queries.ts";
import type { Order } from "../../commerce/orders/types.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { escapeHtml, rupiah, wibDateTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { statusIcon } from "../ui/order-card.ts";

// how an order looks to the admins: in /pending, and in the notices about flagged orders

/** one open order as the admins see it, with its attempts when it has been re-routed */
export function openOrderLine(o: Order, attempts: readonly AttemptLine[] = []): string {
  const flag = o.flaggedAt ? "⚠️ " : "";
  const line = `${flag}${statusIcon(o)} <code>${escapeHtml(o.refId)}</code> ${o.status} · ${escapeHtml(o.productName)} · ${escapeHtml(o.destination)} · ${rupiah(o.price)} · ${wibDateTime(o.createdAt.getTime())}`;
  return attempts.length > 1 || (attempts[0] && o.supplier !== null)
    ? `${line}\n   ↳ ${attemptsLine(attempts)}`
    : line;
}

/** "main ✗ PRODUCT_INACTIVE → backup …": where an order went, for admins only */
export function attemptsLine(attempts: readonly AttemptLine[]): string {
  const mark = { open: "…", rejected: "✗", failed: "✗", success: "✓" } as const;
  return attempts
    .map((a) => {
      // a failure's reason says more than its code (ORDER_FAILED)
      const why = a.status === "success" ? null : (a.reason ?? a.answerCode);
      return `${escapeHtml(a.supplier)} ${mark[a.status]}${why ? ` ${escapeHtml(why)}` : ""}`;
    })
    .join(" → ");
}

export function recheckButton(t: Translate, o: Order): InlineKeyboard {
  return new InlineKeyboard().text(
    t("btn-recheck", { ref: o.refId.slice(-8) }),
    cb(CB.recheck, o.id),
  );
}

/** refund or keep waiting, for an order the supplier has no record of (key interface) */
export function decisionButtons(t: Translate, o: Order): InlineKeyboard {
  return new InlineKeyboard()
    .text(t("btn-decide-refund"), cb(CB.decide, o.id, "refund"))
    .text(t("btn-decide-wait"), cb(CB.decide, o.id, "wait"));
}
