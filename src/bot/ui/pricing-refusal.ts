import type { PricingError } from "../../commerce/catalogue/errors.ts";
import { escapeHtml, rupiah } from "./format.ts";
import type { Translate } from "./i18n.ts";

// why a markup or pricing setting was refused, in the user's language: the commerce error's
// code and params, never its English message

const PERCENT_CODES = new Set(["INVALID_PERCENT"]);
const RUPIAH_CODES = new Set(["INVALID_FLAT", "INVALID_STEP"]);

/** a PricingError as one line for the chat (HTML-escaped) */
export function pricingRefusal(t: Translate, err: PricingError): string {
  const vars: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(err.params)) {
    if (typeof value === "number" && PERCENT_CODES.has(err.code)) vars[name] = `${value / 100}`;
    else if (typeof value === "number" && RUPIAH_CODES.has(err.code)) vars[name] = rupiah(value);
    else if (name === "scope") vars[name] = t("scope-name", { scope: String(value) });
    else vars[name] = escapeHtml(String(value));
  }
  return t(`pricing-refused-${err.code.toLowerCase().replaceAll("_", "-")}`, vars);
}
