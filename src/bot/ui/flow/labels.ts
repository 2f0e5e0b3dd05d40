import { closureOf } from "../../../commerce/catalogue/availability.ts";
import type { Operator } from "../../../commerce/catalogue/operators.ts";
import type { CatalogueItem } from "../../../commerce/catalogue/queries.ts";
import { escapeHtml, rupiah, wibTime } from "../format.ts";
import type { Translate } from "../i18n.ts";
import { clip } from "./kit.ts";

const OPERATOR_NAMES: Record<Operator, string> = {
  telkomsel: "Telkomsel",
  indosat: "Indosat",
  xl: "XL",
  axis: "Axis",
  tri: "Tri",
  smartfren: "Smartfren",
  byu: "by.U",
};

export function operatorName(operator: Operator): string {
  return OPERATOR_NAMES[operator];
}

/** a product button: its name and the buyer's price, or when it opens again if closed */
export function productLabel(
  t: Translate,
  item: Pick<CatalogueItem, "name" | "price" | "startCutOff" | "endCutOff" | "pausedUntil">,
  now: number,
): string {
  const closed = closureOf(item, now);
  if (closed) {
    return `⛔ ${clip(item.name, 40)} · ${t("product-closed-label", { until: wibTime(closed.until) })}`;
  }
  return `${clip(item.name, 40)} · ${rupiah(item.price)}`;
}

// a postpaid mobile line is paid by its phone number (Telkomsel Halo, XL Prioritas…)
const MOBILE_BILL_BRANDS = /^(telkomsel|xl|axis|indosat|im3|tri|three|smartfren|by\.?u)\b/i;

/** the question for a bill's number, in the product's own words: "nomor HP Telkomsel Halo" */
export function billNumberQuestion(
  t: Translate,
  item: { name: string; brand: string; category: string },
): string {
  const mobile = item.category === "HP PASCABAYAR" || MOBILE_BILL_BRANDS.test(item.brand);
  return t(mobile ? "ask-bill-phone" : "ask-customer-no", { kind: escapeHtml(item.name) });
}
