import { closureOf } from "../../../commerce/catalogue/availability.ts";
import type { Operator } from "../../../commerce/catalogue/operators.ts";
import type { CatalogueItem } from "../../../commerce/catalogue/queries.ts";
import { rupiah, wibTime } from "../format.ts";
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
