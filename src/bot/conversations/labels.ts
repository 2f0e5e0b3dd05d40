import type { Operator } from "../../commerce/catalogue/operators.ts";
import type { CatalogueItem } from "../../commerce/catalogue/queries.ts";
import { rupiah } from "../format.ts";
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

/** a product button: its name and the buyer's price */
export function productLabel(item: Pick<CatalogueItem, "name" | "price">): string {
  return `${clip(item.name, 40)} · ${rupiah(item.price)}`;
}
