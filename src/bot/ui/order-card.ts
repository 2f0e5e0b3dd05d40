import { InlineKeyboard } from "grammy";
import { failureOf } from "../../commerce/orders/failure.ts";
import { isFinal, type Order } from "../../commerce/orders/types.ts";
import { CB, cb } from "./callback-data.ts";
import { type Card, STAGE } from "./cards.ts";
import { billPeriod, escapeHtml, parsePlnToken, rupiah, wibDateTime } from "./format.ts";
import type { Translate } from "./i18n.ts";

// one rendering of an order for every place that shows it: the message that moves
// ⏳ → ✅/❌ (edited by the Pay handler and later by the notifier, which must produce the
// same text so a repeated edit is a no-op), history, /status.

/** a bill payment the supplier refused because the inquiry's window had closed */
const WINDOW_CLOSED = new Set(["INQUIRY_EXPIRED", "INQUIRY_NOT_FOUND", "INQUIRY_MISMATCH"]);

function billWindowClosed(order: Order): boolean {
  return (
    order.kind === "bill" &&
    order.status === "failed" &&
    WINDOW_CLOSED.has(order.supplierCode ?? "")
  );
}

/** the order's card in its chat: text, buttons and how far along it is */
export function orderCard(t: Translate, order: Order): Omit<Card, "chatId" | "messageId"> {
  const stage = isFinal(order.status) ? STAGE.final : STAGE.open;
  if (billWindowClosed(order)) {
    // nothing was charged: not a failure to report, but a bill to check again
    return {
      quoteId: order.confirmKey,
      stage,
      text: t("bill-expired-nothing-charged"),
      keyboard: new InlineKeyboard().text(t("btn-reinquire"), cb(CB.requote, order.confirmKey)),
    };
  }
  // a successful purchase: its SN or token to copy in one tap, and a receipt to forward (a
  // test order has none)
  const copy = orderCopy(t, order);
  const receipt = order.status === "success" && !order.testing;
  let keyboard: InlineKeyboard | undefined;
  if (copy || receipt) {
    keyboard = new InlineKeyboard();
    if (copy) keyboard.copyText(copy.label, copy.text);
    if (copy && receipt) keyboard.row();
    if (receipt) keyboard.text(t("btn-receipt"), cb(CB.receipt, order.id));
  }
  return { quoteId: order.confirmKey, stage, text: orderMessage(t, order), keyboard };
}

/** Telegram copies at most this much (copy_text) */
const MAX_COPY = 256;

/**
 * what a successful order's result lets the buyer copy: a PLN token's 20 digits (typed into
 * the meter as they are), else the SN (a voucher code, a serial)
 */
function orderCopy(t: Translate, order: Order): { label: string; text: string } | undefined {
  if (order.status !== "success" || !order.sn) return undefined;
  const token = plnToken(order);
  const text = token ? token.token.replaceAll(" ", "") : order.sn.trim();
  if (text.length === 0 || text.length > MAX_COPY) return undefined;
  return { label: t(token ? "btn-copy-token" : "btn-copy-sn"), text };
}

/** a keyboard with the order's copy button, or undefined when there is nothing to copy */
export function orderCopyKeyboard(t: Translate, order: Order): InlineKeyboard | undefined {
  const copy = orderCopy(t, order);
  return copy ? new InlineKeyboard().copyText(copy.label, copy.text) : undefined;
}

/** what the order's own message says; the same input always gives the same text */
export function orderMessage(t: Translate, order: Order): string {
  const head =
    order.status === "success"
      ? t("order-success")
      : order.status === "failed"
        ? t("order-failed")
        : t("order-processing");
  const out = [
    head,
    t("order-product", { product: escapeHtml(order.productName) }),
    t("order-destination", { destination: escapeHtml(order.destination) }),
    ...billLines(t, order),
    t("order-price", { price: rupiah(order.price) }),
    t("order-ref", { ref: escapeHtml(order.refId) }),
  ];
  if (order.status === "success") out.push(...serialLines(t, order));
  if (order.status === "failed") {
    out.push(t("order-reason", { reason: escapeHtml(failureText(t, order)) }));
    out.push(
      order.testing ? t("order-testing") : t("order-refunded", { amount: rupiah(order.price) }),
    );
  }
  if (order.status !== "success" && order.status !== "failed") out.push(t("order-wait"));
  else if (order.testing && order.status === "success") out.push(t("order-testing"));
  return out.join("\n");
}

/** a bill's payment says whose bill and which months, as its card did before Pay */
function billLines(t: Translate, order: Order): string[] {
  if (order.kind !== "bill" || !order.bill) return [];
  const out: string[] = [];
  if (order.bill.customerName) {
    out.push(t("order-bill-name", { name: escapeHtml(order.bill.customerName) }));
  }
  if (order.bill.periods.length > 0) {
    const locale = t("date-locale");
    const periods = order.bill.periods.map((p) => billPeriod(locale, p)).join(", ");
    out.push(t("order-bill-periods", { periods: escapeHtml(periods) }));
  }
  return out;
}

/** kios's reason in the buyer's language; the supplier's own words are for admins only */
function failureText(t: Translate, order: Order): string {
  return t(`order-reason-${failureOf(order).kind}`);
}

/** the SN, or for PLN tokens the token in groups of four with the meter's details */
function serialLines(t: Translate, order: Order): string[] {
  if (!order.sn) return [t("order-sn-missing")];
  const token = plnToken(order);
  if (!token) return [t("order-sn", { sn: escapeHtml(order.sn) })];
  const out = [t("order-token", { token: token.token })];
  if (token.name) out.push(t("order-token-name", { name: escapeHtml(token.name) }));
  if (token.tarif || token.daya) {
    out.push(
      t("order-token-tariff", {
        tarif: escapeHtml(token.tarif ?? "-"),
        daya: escapeHtml(token.daya ?? "-"),
      }),
    );
  }
  if (token.kwh) out.push(t("order-token-kwh", { kwh: escapeHtml(token.kwh) }));
  return out;
}

/** a PLN prepaid token (a pulsa SN may be 20 digits too: only PLN products are read so) */
export function plnToken(order: Order) {
  if (!order.sn || order.kind !== "prepaid") return undefined;
  const looksPln = order.sn.includes("/") || /\bPLN\b/i.test(order.productName);
  return looksPln ? parsePlnToken(order.sn) : undefined;
}

/** the short push sent when a result arrives after the buyer left the chat */
export function orderPush(t: Translate, order: Order): string {
  const key = order.status === "success" ? "push-success" : "push-failed";
  const vars = {
    product: escapeHtml(order.productName),
    destination: escapeHtml(order.destination),
    amount: rupiah(order.price),
  };
  if (order.status !== "success") return t(key, vars);
  const token = plnToken(order);
  return `${t(key, vars)}\n${token ? t("order-token", { token: token.token }) : t("order-sn", { sn: escapeHtml(order.sn ?? "-") })}`;
}

export function statusIcon(order: Order): string {
  return order.status === "success" ? "✅" : order.status === "failed" ? "❌" : "⏳";
}

/** an order in the history or /status: the message plus its date */
export function orderDetails(t: Translate, order: Order): string {
  return `${orderMessage(t, order)}\n${t("order-date", { date: wibDateTime(order.createdAt.getTime()) })}`;
}
