import type { Order } from "../../commerce/orders/types.ts";
import type { BillDetails } from "../../supplier/types.ts";
import { billPeriod, rupiah, wibDateTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { plnToken } from "../ui/order-card.ts";
import type { Logo } from "../ui/pictures/logo.ts";

// what a receipt (struk) says, in the buyer's language: plain text lines the renderer lays
// out. A PLN token is grouped in fours with the customer's name, tariff/power and kWh; a
// bill lists its periods with amounts and penalties, the admin fee and the total.

export interface Receipt {
  shop: string;
  /** the shop's logo above its name (SHOP_LOGO), not on a reseller's own receipts */
  logo?: Logo | undefined;
  title: string;
  when: string;
  rows: [label: string, value: string][];
  /** a PLN token, big, grouped in fours */
  token?: string | undefined;
  /** a bill's periods: label, amount */
  periods?: [string, string][] | undefined;
  total: [label: string, value: string];
  footer: string;
}

export interface BillInquiry {
  customerName: string;
  tagihan: number;
  admin: number;
  total: number;
  details: BillDetails | null;
}

export function receiptOf(
  t: Translate,
  o: {
    order: Order;
    shop: string;
    logo?: Logo | undefined;
    /** what to print as paid (a reseller's own selling price); default the order's price */
    price?: number | undefined;
    bill?: BillInquiry | undefined;
  },
): Receipt {
  const { order } = o;
  const price = o.price ?? order.price;
  const rows: [string, string][] = [
    [t("receipt-product"), order.productName],
    [t(order.kind === "bill" ? "receipt-customer-no" : "receipt-destination"), order.destination],
  ];
  const receipt: Receipt = {
    shop: o.shop,
    logo: o.logo,
    title: t("receipt-title"),
    when: wibDateTime((order.finalAt ?? order.createdAt).getTime()),
    rows,
    total: [t("receipt-paid"), rupiah(price)],
    footer: t("receipt-footer"),
  };
  const pln = plnToken(order);
  if (pln) {
    receipt.token = pln.token;
    if (pln.name) rows.push([t("receipt-name"), pln.name]);
    if (pln.tarif || pln.daya) {
      rows.push([t("receipt-tariff"), [pln.tarif, pln.daya].filter(Boolean).join(" / ")]);
    }
    if (pln.kwh) rows.push([t("receipt-kwh"), pln.kwh]);
  } else if (order.sn) {
    rows.push([t("receipt-sn"), order.sn]);
  }
  if (o.bill) {
    rows.push([t("receipt-name"), o.bill.customerName]);
    const periods = o.bill.details?.detail ?? [];
    receipt.periods = periods.map((p, i) => {
      const amount = (p.nilaiTagihan ?? 0) + (p.denda ?? 0);
      const label = p.periode ? billPeriod(t("date-locale"), p.periode) : `${i + 1}`;
      const penalty = p.denda ? ` (${t("receipt-penalty")} ${rupiah(p.denda)})` : "";
      return [`${t("receipt-period")} ${label}${penalty}`, rupiah(amount)];
    });
    receipt.periods.push([t("receipt-admin"), rupiah(o.bill.admin)]);
  }
  rows.push([t("receipt-ref"), order.refId]);
  return receipt;
}
