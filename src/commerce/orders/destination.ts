import { normaliseMeterNumber, normalisePhone, offeredOperators } from "../catalogue/operators.ts";
import type { CatalogueItem } from "../catalogue/queries.ts";

const SEPARATORS = /[\s\-.]/g;

/**
 * the destination in the form the supplier expects for this product, or null when it can
 * not be one: a phone number of the product's own operator for pulsa and data, a meter
 * number for PLN, a phone number for e-wallets, a game account id (with its zone in
 * parentheses) for games, a customer number for bills.
 */
export function normaliseDestination(
  item: Pick<CatalogueItem, "type" | "category" | "operator">,
  input: string,
): string | null {
  const raw = input.trim();
  if (raw.length === 0 || raw.length > 64) return null;
  const category = item.category.toLowerCase();

  if (item.type === "prepaid") {
    if (category === "pln") return normaliseMeterNumber(raw);
    const phone = normalisePhone(raw);
    if (!phone) return null;
    if (item.operator && !offeredOperators(phone).includes(item.operator)) return null;
    return phone;
  }
  if (item.type === "game") {
    // "123456789", "123456789 (2001)", "123456789|2001" → "123456789(2001)"
    const m = /^(\d{4,20})(?:\s*[(|:/\s]\s*(\d{1,10})\s*\)?)?$/.exec(raw);
    if (m) return m[2] ? `${m[1]}(${m[2]})` : m[1]!;
    // some games use alphanumeric ids
    return /^[A-Za-z0-9_#-]{4,40}$/.test(raw) ? raw : null;
  }
  // bills: customer numbers are digits; a "+62…" phone (mobile postpaid) becomes "08…".
  // a bare "62…" stays as typed: many PLN and PDAM numbers start with those digits
  const digits = raw.replace(SEPARATORS, "");
  if (digits.startsWith("+62")) return normalisePhone(digits);
  return /^\d{6,20}$/.test(digits) ? digits : null;
}
