import { InlineKeyboard } from "grammy";
import type { User } from "../../commerce/users.ts";
import type { DepositError, DepositRequest } from "../../commerce/wallet/deposits.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { escapeHtml, rupiah, wibDateTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";

export interface DepositView {
  id: number;
  amount: number;
  payAmount: number;
  reference: string;
  instructions: string;
  expiresAt: number;
}

export type DepositOutcome =
  | { ok: true; deposit: DepositView }
  | { ok: false; reason: DepositError["reason"]; min: number; max: number };

/** what the user is told after asking to top up */
export function depositCreatedText(t: Translate, d: DepositView): string {
  return [
    t("deposit-created", {
      amount: rupiah(d.amount),
      pay: rupiah(d.payAmount),
      reference: escapeHtml(d.reference),
      until: wibDateTime(d.expiresAt),
    }),
    escapeHtml(d.instructions),
  ].join("\n\n");
}

/** the transfer's reference and exact amount, each copied in one tap */
export function depositCreatedKeyboard(t: Translate, d: DepositView): InlineKeyboard {
  return new InlineKeyboard()
    .copyText(t("btn-copy-reference"), d.reference)
    .copyText(t("btn-copy-amount"), String(d.payAmount));
}

export function depositRefusedText(t: Translate, r: Extract<DepositOutcome, { ok: false }>) {
  switch (r.reason) {
    case "amount_too_small":
      return t("deposit-too-small", { min: rupiah(r.min) });
    case "amount_too_large":
      return t("deposit-too-large", { max: rupiah(r.max) });
    default:
      return t("deposit-busy");
  }
}

function who(user: User | undefined, userId: number): string {
  if (!user) return String(userId);
  const name = escapeHtml(user.firstName || "-");
  return user.username
    ? `${name} (@${escapeHtml(user.username)}, ${userId})`
    : `${name} (${userId})`;
}

/** the admins' copy of a request, with Confirm / Reject while it is open */
export function depositAdminCard(
  t: Translate,
  d: DepositRequest,
  user: User | undefined,
): { text: string; keyboard: InlineKeyboard } {
  const lines = [
    t("deposit-admin-title", { id: d.id }),
    t("deposit-admin-user", { user: who(user, d.userId) }),
    t("deposit-admin-amount", { amount: rupiah(d.amount), pay: rupiah(d.payAmount) }),
    t("deposit-admin-reference", { reference: escapeHtml(d.reference) }),
    t(`deposit-status-${d.status}`),
  ];
  const kb = new InlineKeyboard();
  if (d.status === "requested") {
    kb.text(t("btn-confirm"), cb(CB.depositConfirm, d.id)).text(
      t("btn-reject"),
      cb(CB.depositReject, d.id),
    );
  }
  return { text: lines.join("\n"), keyboard: kb };
}

/** the user's notice once an admin decided (or the request expired) */
export function depositDecidedText(t: Translate, d: DepositRequest, balance: number): string {
  const vars = {
    pay: rupiah(d.payAmount),
    reference: escapeHtml(d.reference),
    balance: rupiah(balance),
  };
  switch (d.status) {
    case "confirmed":
      return t("deposit-confirmed", vars);
    case "rejected":
      return t("deposit-rejected", vars);
    case "expired":
      return t("deposit-expired", vars);
    default:
      return t("deposit-pending", vars);
  }
}
