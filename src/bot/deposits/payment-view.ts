import { InlineKeyboard } from "grammy";
import type { Payment } from "../../commerce/payments/payments.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { rupiah, wibTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";

// the message under a QR: what to pay and until when, then what became of it. It is a
// photo, so this is its caption, edited in place as the payment moves.

export function paymentCaption(t: Translate, p: Payment, balance?: number): string {
  const amount = rupiah(p.amount);
  switch (p.status) {
    case "created":
    case "pending": {
      const lines = [
        t("qr-title", { amount }),
        t("qr-until", { until: wibTime(p.expiresAt.getTime()) }),
        t("qr-how"),
      ];
      if (p.purpose === "buy") lines.push(t("qr-then-buy"));
      return lines.join("\n");
    }
    case "paid": {
      const lines = [t("qr-paid", { amount })];
      // a "deposit and buy" paid for the card above: its own message says what became of it
      if (p.purpose === "buy") lines.push(t("qr-paid-buy"));
      else if (balance !== undefined) lines.push(t("balance", { balance: rupiah(balance) }));
      return lines.join("\n");
    }
    case "expired":
      return t("qr-expired", { amount });
    case "cancelled":
      return t("qr-cancelled", { amount });
    case "mismatch":
      return t("qr-mismatch", { amount, paid: rupiah(p.paidAmount ?? 0) });
    case "denied":
    case "failed":
      return t("qr-failed", { amount });
  }
}

/** Cancel while it can be paid; in the playground, the sandbox's page that pays it */
export function paymentKeyboard(
  t: Translate,
  p: Payment,
  payPageUrl?: (gatewayOrderId: string) => string,
): InlineKeyboard | undefined {
  if (p.status !== "created" && p.status !== "pending") return undefined;
  const kb = new InlineKeyboard();
  if (payPageUrl) kb.url(t("btn-qr-sandbox-pay"), payPageUrl(p.gatewayOrderId));
  kb.text(t("btn-cancel"), cb(CB.paymentCancel, p.id));
  return kb;
}
