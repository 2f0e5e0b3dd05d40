import { canonicalCategory } from "./categories.ts";
import { operatorOfBrand } from "./operators.ts";
import { escapeRegex } from "./search.ts";

// how two suppliers' names for one product are found to be the same (docs/suppliers.md#linking):
// Digiflazz's "Telkomsel 10.000" (brand TELKOMSEL, category Pulsa) and another supplier's
// "TSEL 10K" (brand Tsel, category PULSA) are one product. The key is the kind (a bill or
// not), the brand under one name, the category under one name, and what the name says once
// the brand, the category and filler words are taken out and nominals are written one way
// (10.000, 10000, 10K, 10rb → 10000; 1 GB → 1gb). Whatever else the name says stays in the
// key, so "Telkomsel Transfer 10K" is not "Telkomsel 10.000": the key errs towards no match
// (a product of its own, or an admin) rather than a wrong one.

/** spellings of one brand, compared lowercase with everything but letters and digits removed */
const BRAND_ALIASES: ReadonlyMap<string, string> = new Map(
  (
    [
      ["pln", ["pln", "plnprabayar", "tokenpln", "tokenlistrik", "listrikpln"]],
      ["dana", ["dana"]],
      ["ovo", ["ovo"]],
      ["gopay", ["gopay", "gopaycustomer", "gojek"]],
      ["shopeepay", ["shopeepay", "shopee"]],
      ["linkaja", ["linkaja"]],
      ["mobilelegends", ["mobilelegends", "mobilelegend", "mlbb", "ml"]],
      ["freefire", ["freefire", "ff", "garenafreefire"]],
      ["pubgmobile", ["pubgmobile", "pubg", "pubgm"]],
      ["genshinimpact", ["genshinimpact", "genshin"]],
    ] as const
  ).flatMap(([brand, aliases]) => aliases.map((a) => [a, brand] as const)),
);

/** the words a name may spell a brand with, beyond its brand field's own (longest first) */
const BRAND_WORDS: Readonly<Record<string, readonly string[]>> = {
  telkomsel: ["kartu as", "telkomsel", "simpati", "tsel"],
  indosat: ["indosat ooredoo", "indosat", "ooredoo", "isat", "im3", "mentari"],
  xl: ["xl axiata", "xl"],
  axis: ["axis"],
  tri: ["three", "tri", "3"],
  smartfren: ["smartfren", "smart"],
  byu: ["by.u", "by u", "byu"],
  pln: ["token listrik", "listrik", "token", "pln"],
  dana: ["dana"],
  ovo: ["ovo"],
  gopay: ["go pay", "gopay", "gojek"],
  shopeepay: ["shopee pay", "shopeepay", "shopee"],
  linkaja: ["link aja", "linkaja"],
  mobilelegends: ["mobile legends", "mobile legend", "mlbb", "ml"],
  freefire: ["garena free fire", "free fire", "freefire", "ff"],
  pubgmobile: ["pubg mobile", "pubgm", "pubg"],
  genshinimpact: ["genshin impact", "genshin"],
};

/** words that say nothing about which product it is */
const FILLER = new Set(["rp", "idr", "saldo", "topup", "top", "up", "isi", "ulang", "reguler"]);

/** units a number is joined to, under one spelling */
const UNITS: ReadonlyMap<string, string> = new Map([
  ["gb", "gb"],
  ["mb", "mb"],
  ["hari", "hari"],
  ["hr", "hari"],
  ["days", "hari"],
  ["day", "hari"],
  ["diamonds", "dm"],
  ["diamond", "dm"],
  ["dm", "dm"],
  ["uc", "uc"],
  ["menit", "menit"],
  ["sms", "sms"],
]);

const compact = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** one name per brand: "TSEL", "Telkomsel" → telkomsel; "GO PAY" → gopay; "MLBB" → mobilelegends */
export function brandKey(brand: string): string {
  const key = compact(brand);
  return operatorOfBrand(brand) ?? BRAND_ALIASES.get(key) ?? key;
}

/** one name per category: "PULSA" → pulsa, "E-Wallet" → e-money */
function categoryKey(category: string): string {
  const c = canonicalCategory(category).toLowerCase();
  return ["e-wallet", "ewallet", "emoney", "dompet digital"].includes(c) ? "e-money" : c;
}

// the words taken out of a name, by brand and category: built once per pair (a sync links
// thousands of products of a few dozen brands)
const PATTERNS = new Map<string, RegExp[]>();
const word = (w: string) => new RegExp(`(?<=[^a-z0-9])${escapeRegex(w)}(?=[^a-z0-9])`, "g");

function patternsOf(brand: string, category: string): RegExp[] {
  const cacheKey = `${brand}\u0000${category}`;
  const cached = PATTERNS.get(cacheKey);
  if (cached) return cached;
  const words = [...(BRAND_WORDS[brandKey(brand)] ?? []), brand.toLowerCase().trim()]
    .filter((w) => w.length > 0)
    .sort((a, b) => b.length - a.length);
  const patterns = [
    // a brand spelt as a number ("3" for Tri) only where a name starts
    ...words.map((w) => (/^\d+$/.test(w) ? new RegExp(`^ ${escapeRegex(w)}(?= )`) : word(w))),
    ...categoryKey(category)
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0)
      .map(word),
  ];
  if (PATTERNS.size > 10_000) PATTERNS.clear();
  PATTERNS.set(cacheKey, patterns);
  return patterns;
}

/**
 * what a name says of its product, the brand and category words taken out and nominals
 * written one way, its words sorted: "TSEL 10K" and "Pulsa Telkomsel Rp 10.000" both give
 * "10000". Empty when nothing is left (productKey then takes the whole name)
 */
function nameKey(name: string, brand: string, category: string): string {
  let s = ` ${name.toLowerCase().replace(/\s+/g, " ")} `;
  // thousands separators: "10.000", "1,000,000" → "10000", "1000000"; a decimal comma → dot
  s = s.replace(/(\d)[.,](?=\d{3}(?!\d))/g, "$1").replace(/(\d),(\d)/g, "$1.$2");
  // "Rp10.000", "Rp. 10000": the currency apart from its number
  s = s.replace(/(?<=[^a-z])rp\.? ?(?=\d)/g, " ");
  // "10K", "10 rb", "10ribu", "1jt" → the rupiah they mean
  s = s.replace(/(\d+(?:\.\d+)?) ?(k|rb|ribu|jt|juta)(?![a-z])/g, (_, n: string, unit: string) =>
    String(Math.round(Number(n) * (unit === "jt" || unit === "juta" ? 1_000_000 : 1000))),
  );
  for (const pattern of patternsOf(brand, category)) s = s.replace(pattern, " ");
  const tokens = s.split(/[^a-z0-9.]+/).filter((t) => t && t !== "." && !FILLER.has(t));
  // a number and its unit as one word: "1 GB" and "1GB" → "1gb"
  const joined: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const glued = /^(\d+(?:\.\d+)?)([a-z]+)$/.exec(t);
    if (glued && UNITS.has(glued[2]!)) {
      joined.push(`${glued[1]}${UNITS.get(glued[2]!)}`);
      continue;
    }
    const next = tokens[i + 1];
    if (/^\d+(\.\d+)?$/.test(t) && next !== undefined && UNITS.has(next)) {
      joined.push(`${t}${UNITS.get(next)}`);
      i += 1;
      continue;
    }
    joined.push(t.replace(/^\.+|\.+$/g, ""));
  }
  return joined
    .filter((t) => t.length > 0)
    .sort()
    .join(" ");
}

/**
 * what links two suppliers' products. A name that says nothing once its brand and category
 * are out ("Pulsa TSEL") is matched only by the whole name, case and spaces aside; null
 * for no name at all
 */
export function productKey(p: {
  type: string;
  brand: string;
  category: string;
  name: string;
}): string | null {
  const whole = p.name.toLowerCase().replace(/\s+/g, " ").trim();
  const said = nameKey(p.name, p.brand, p.category);
  const name = said ? said : whole ? `=${whole}` : "";
  if (!name) return null;
  // a game is its own list at one supplier and a prepaid item at another (Digiflazz)
  const kind = p.type === "pasca" ? "bill" : "item";
  return [kind, brandKey(p.brand), categoryKey(p.category), name].join("|");
}
