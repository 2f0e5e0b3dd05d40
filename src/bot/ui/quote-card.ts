import { InlineKeyboard } from "grammy";
import type { BillQuote, Quote } from "../../commerce/orders/types.ts";
import { CB, cb } from "./callback-data.ts";
import { billDate, billPeriod, escapeHtml, rupiah, wibTime } from "./format.ts";
import type { Translate } from "./i18n.ts";

/**
 * a quote as the bot keeps it: plain JSON (conversations store what they handle, and a
 * Date would come back from a replay as a string), expiry as epoch milliseconds.
 */
export interface QuoteView {
  id: string;
  kind: Quote["kind"];
  productCode: string;
  productName: string;
  destination: string;
  price: number;
  testing: boolean;
  expiresAt: number;
  balance: number;
  balanceAfter: number;
  bill?: BillQuote | undefined;
  /** bought today already (the same-day repeat rule): the card asks before it is bought again */
  sameDay?: { count: number; last: number } | undefined;
  /**
   * the buyer typed which purchase of the day this is (CODE.n.DEST): that was the one
   * confirmation, so the card does not ask again (its Pay still allows only n - 1 before it)
   */
  countTyped?: boolean | undefined;
}

export function quoteView(q: Quote, opts: { countTyped?: boolean } = {}): QuoteView {
  return {
    id: q.id,
    kind: q.kind,
    productCode: q.productCode,
    productName: q.productName,
    destination: q.destination,
    price: q.price,
    testing: q.testing,
    expiresAt: q.expiresAt.getTime(),
    balance: q.balance,
    balanceAfter: q.balanceAfter,
    bill: q.bill ? JSON.parse(JSON.stringify(q.bill)) : undefined,
    sameDay: q.sameDay ? { count: q.sameDay.count, last: q.sameDay.last.getTime() } : undefined,
    countTyped: opts.countTyped || undefined,
  };
}

export interface Card {
  text: string;
  keyboard: InlineKeyboard;
}

function lines(...parts: Array<string | false | undefined>): string {
  return parts.filter((p): p is string => typeof p === "string").join("\n");
}

function billLines(t: Translate, q: QuoteView, bill: BillQuote): string[] {
  const d = bill.details;
  const out: string[] = [];
  if (bill.customerName) out.push(t("card-name", { name: escapeHtml(bill.customerName) }));
  out.push(t("card-customer-no", { number: escapeHtml(q.destination) }));
  // a power rating is PLN's alone: a water or phone bill's tariff stands by itself
  if (d?.daya) {
    out.push(t("card-tariff", { tarif: escapeHtml(d.tarif ?? "-"), daya: `${d.daya} VA` }));
  } else if (d?.tarif) {
    out.push(t("card-tariff-only", { tarif: escapeHtml(d.tarif) }));
  }
  if (d?.jumlahPeserta) out.push(t("card-members", { count: escapeHtml(d.jumlahPeserta) }));
  if (d?.alamat) out.push(t("card-address", { address: escapeHtml(d.alamat) }));
  if (d?.itemName) out.push(t("card-item", { item: escapeHtml(d.itemName) }));
  if (d?.noPol) out.push(t("card-plate", { plate: escapeHtml(d.noPol) }));
  if (d?.tenor) out.push(t("card-tenor", { tenor: escapeHtml(d.tenor) }));
  const locale = t("date-locale");
  if (d?.jatuhTempo) {
    out.push(t("card-due", { date: escapeHtml(billDate(locale, d.jatuhTempo)) }));
  }
  const periods = d?.detail ?? [];
  if (periods.length > 0) {
    out.push(t("card-periods", { count: d?.lembarTagihan ?? periods.length }));
    for (const p of periods) {
      out.push(
        t("card-period", {
          period: escapeHtml(p.periode ? billPeriod(locale, p.periode) : "-"),
          amount: rupiah(p.nilaiTagihan ?? 0),
          penalty: rupiah(p.denda ?? 0),
        }),
      );
    }
  }
  out.push(t("card-bill-amount", { amount: rupiah(bill.tagihan) }));
  out.push(t("card-admin", { amount: rupiah(bill.admin) }));
  return out;
}

/** the confirmation card: product, destination, price, balance before and after; Pay / Cancel */
export function quoteCard(t: Translate, q: QuoteView): Card {
  const short = q.balanceAfter < 0 && !q.testing;
  const text = lines(
    // the same-day repeat rule: the card is the question, its Pay the yes (Pay checks it);
    // a count typed on purpose (CODE.2.DEST) already answered it
    q.sameDay && !q.countTyped && `${t("repeat-warning", { time: wibTime(q.sameDay.last) })}\n`,
    q.bill ? t("card-bill-title", { product: escapeHtml(q.productName) }) : t("card-title"),
    !q.bill && t("card-product", { product: escapeHtml(q.productName) }),
    !q.bill && t("card-destination", { destination: escapeHtml(q.destination) }),
    ...(q.bill ? billLines(t, q, q.bill) : []),
    q.bill
      ? t("card-total", { price: rupiah(q.price) })
      : t("card-price", { price: rupiah(q.price) }),
    // a balance can't end below zero: a buyer who is short sees what they have and the gap
    short
      ? t("card-balance-now", { balance: rupiah(q.balance) })
      : t("card-balance", { before: rupiah(q.balance), after: rupiah(q.balanceAfter) }),
    q.testing && t("card-testing"),
    q.bill && t("card-deadline", { time: wibTime(q.expiresAt) }),
    short && t("card-short", { missing: rupiah(-q.balanceAfter) }),
  );
  const kb = new InlineKeyboard()
    .text(t("btn-pay"), cb(CB.pay, q.id))
    .text(t("btn-cancel"), cb(CB.cancelQuote, q.id));
  if (short) kb.row().text(t("btn-top-up"), cb(CB.deposit));
  return { text, keyboard: kb };
}
