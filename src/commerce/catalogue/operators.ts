// indonesian mobile numbers and operators: the bot asks for the number first, then offers
// only the products of that number's operator.

export const OPERATORS = ["telkomsel", "indosat", "xl", "axis", "tri", "smartfren", "byu"] as const;
export type Operator = (typeof OPERATORS)[number];

/** the four-digit prefixes ("08xx") of each network; by.U rides on telkomsel's numbers */
export const OPERATOR_PREFIXES: Readonly<Record<Exclude<Operator, "byu">, readonly string[]>> = {
  telkomsel: ["0811", "0812", "0813", "0821", "0822", "0823", "0851", "0852", "0853"],
  indosat: ["0814", "0815", "0816", "0855", "0856", "0857", "0858"],
  xl: ["0817", "0818", "0819", "0859", "0877", "0878"],
  axis: ["0831", "0832", "0833", "0838"],
  tri: ["0895", "0896", "0897", "0898", "0899"],
  smartfren: ["0881", "0882", "0883", "0884", "0885", "0886", "0887", "0888", "0889"],
};

/** by.U numbers are issued from telkomsel's 0851 range and can't be told apart from them */
const BYU_PREFIXES: readonly string[] = ["0851"];

const PREFIX_TO_OPERATOR: ReadonlyMap<string, Operator> = new Map(
  Object.entries(OPERATOR_PREFIXES).flatMap(([op, prefixes]) =>
    prefixes.map((p) => [p, op as Operator] as const),
  ),
);

// separators people type inside numbers: spaces, dashes, dots, parentheses
const SEPARATORS = /[\s\-.()]/g;

/**
 * a phone number in its canonical "08…" form (10–13 digits), or null.
 * accepts 08…, 628…, +628…, "+62 812-3456 7890", "(0812) 3456.7890", "+62 (0) 812…".
 */
export function normalisePhone(input: string): string | null {
  let s = input.trim().replace(SEPARATORS, "");
  if (s.startsWith("+")) {
    if (!s.startsWith("+62")) return null;
    s = s.slice(1);
  }
  if (!/^\d+$/.test(s)) return null;
  // "+62 (0) 812…" leaves "620812…": the trunk zero after the country code is dropped
  if (s.startsWith("620")) s = `0${s.slice(3)}`;
  else if (s.startsWith("62")) s = `0${s.slice(2)}`;
  return /^08\d{8,11}$/.test(s) ? s : null;
}

/** the network a number belongs to (by.U numbers report "telkomsel"), or null */
export function detectOperator(phone: string): Operator | null {
  const normal = normalisePhone(phone);
  if (!normal) return null;
  return PREFIX_TO_OPERATOR.get(normal.slice(0, 4)) ?? null;
}

/**
 * the operators whose products a number may buy: its network, plus by.U for telkomsel's
 * 0851 range (the number may be a by.U card; the product names say which is which).
 */
export function offeredOperators(phone: string): Operator[] {
  const normal = normalisePhone(phone);
  const operator = normal ? detectOperator(normal) : null;
  if (!normal || !operator) return [];
  if (operator === "telkomsel" && BYU_PREFIXES.includes(normal.slice(0, 4))) {
    return ["telkomsel", "byu"];
  }
  return [operator];
}

// supplier brand spellings, compared lowercase with everything but letters and digits removed
const BRAND_ALIASES: ReadonlyMap<string, Operator> = new Map([
  ["telkomsel", "telkomsel"],
  ["tsel", "telkomsel"],
  ["simpati", "telkomsel"],
  ["kartuas", "telkomsel"],
  ["indosat", "indosat"],
  ["indosatooredoo", "indosat"],
  ["indosatooredoohutchison", "indosat"],
  ["ooredoo", "indosat"],
  ["isat", "indosat"],
  ["im3", "indosat"],
  ["im3ooredoo", "indosat"],
  ["mentari", "indosat"],
  ["xl", "xl"],
  ["xlaxiata", "xl"],
  ["axis", "axis"],
  ["tri", "tri"],
  ["three", "tri"],
  ["3", "tri"],
  ["smartfren", "smartfren"],
  ["smart", "smartfren"],
  ["byu", "byu"],
]);

/** the operator key of a supplier brand ("TELKOMSEL", "Indosat Ooredoo", "BY.U", …), or null */
export function operatorOfBrand(brand: string): Operator | null {
  const key = brand.toLowerCase().replace(/[^a-z0-9]/g, "");
  return BRAND_ALIASES.get(key) ?? null;
}

/** a PLN meter or customer id: 11 or 12 digits after removing separators, or null */
export function normaliseMeterNumber(input: string): string | null {
  const s = input.trim().replace(SEPARATORS, "");
  if (looksLikePhone(s)) return null;
  return /^\d{11,12}$/.test(s) ? s : null;
}

/**
 * "08…" or "+628…": a mobile number, which has a meter's length but is never one (a PLN id
 * starts with its unit's digits; a bare "62…" may be either, so it is left alone)
 */
export function looksLikePhone(input: string): boolean {
  return /^(\+62|0)8\d{7,12}$/.test(input.trim().replace(SEPARATORS, ""));
}
