// supplier categories are stored in one spelling per known category, so a case change in
// the supplier's feed ("PULSA" vs "Pulsa") neither splits a list nor defeats the indexes.

/** the postpaid categories, one per bill kind, as the catalogue spells them */
export const BILL_KINDS = [
  "PLN PASCABAYAR",
  "BPJS KESEHATAN",
  "BPJS KETENAGAKERJAAN",
  "PDAM",
  "TELKOM",
  "PBB",
  "MULTIFINANCE",
  "HP PASCABAYAR",
  "INTERNET PASCABAYAR",
  "GAS NEGARA",
] as const;

const KNOWN_CATEGORIES = [
  // prepaid and game
  "Pulsa",
  "Data",
  "PLN",
  "E-Money",
  "Games",
  "Voucher",
  "Paket SMS & Telpon",
  "Masa Aktif",
  "Streaming",
  // pasca
  ...BILL_KINDS,
] as const;

/** the categories whose destination is a phone number: their recent numbers are offered to each other */
export const PHONE_CATEGORIES: readonly string[] = [
  "Pulsa",
  "Data",
  "E-Money",
  "Paket SMS & Telpon",
  "Masa Aktif",
];

const fold = (s: string) => s.trim().replace(/\s+/g, " ").toLowerCase();

const CANONICAL: ReadonlyMap<string, string> = new Map(KNOWN_CATEGORIES.map((c) => [fold(c), c]));

/**
 * the stored spelling of a category: a known one in its canonical form whatever its case,
 * anything else trimmed and with single spaces, as the supplier wrote it.
 */
export function canonicalCategory(category: string): string {
  return CANONICAL.get(fold(category)) ?? category.trim().replace(/\s+/g, " ");
}
