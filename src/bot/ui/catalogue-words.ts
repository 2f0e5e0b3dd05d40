import type { Translate } from "./i18n.ts";

// the catalogue's categories and brands in the shop's words. A category is stored as the
// supplier wrote it in its canonical spelling (commerce/catalogue/categories.ts: "Pulsa",
// "E-Money", "BPJS KESEHATAN" whatever the feed's case), a brand as the supplier wrote it
// ("TELKOMSEL", "GO PAY"); the chat's menus, /harga, inline mode and the Mini App (through
// its port, src/bot/mini-app/words.ts) all name them here, so they read alike everywhere.

const CATEGORY_KEYS: Readonly<Record<string, string>> = {
  // prepaid and games: the chat menu's own words
  Pulsa: "btn-pulsa",
  Data: "btn-data",
  "E-Money": "category-emoney",
  PLN: "category-pln",
  Games: "category-games",
  Voucher: "category-voucher",
  "Paket SMS & Telpon": "category-sms-call",
  "Masa Aktif": "category-validity",
  Streaming: "category-streaming",
  // the bill kinds (BILL_KINDS)
  "PLN PASCABAYAR": "bill-kind-pln-postpaid",
  "BPJS KESEHATAN": "bill-kind-bpjs-kesehatan",
  "BPJS KETENAGAKERJAAN": "bill-kind-bpjs-ketenagakerjaan",
  PDAM: "bill-kind-pdam",
  TELKOM: "bill-kind-telkom",
  PBB: "bill-kind-pbb",
  MULTIFINANCE: "bill-kind-multifinance",
  "HP PASCABAYAR": "bill-kind-hp-postpaid",
  "INTERNET PASCABAYAR": "bill-kind-internet-postpaid",
  "GAS NEGARA": "bill-kind-gas",
};

/** a category (a bill kind too) as the buyer reads it; one kios does not know, as given */
export function categoryName(t: Translate, category: string): string {
  const key = CATEGORY_KEYS[category];
  return key ? t(key) : category;
}

/** the brands as their owners write them, by their letters and digits in lower case */
const BRAND_NAMES: ReadonlyMap<string, string> = new Map([
  ["telkomsel", "Telkomsel"],
  ["indosat", "Indosat"],
  ["xl", "XL"],
  ["axis", "Axis"],
  ["tri", "Tri"],
  ["three", "Tri"],
  ["smartfren", "Smartfren"],
  ["byu", "by.U"],
  ["pln", "PLN"],
  ["dana", "DANA"],
  ["ovo", "OVO"],
  ["gopay", "GoPay"],
  ["shopeepay", "ShopeePay"],
  ["linkaja", "LinkAja"],
  ["mobilelegends", "Mobile Legends"],
  ["freefire", "Free Fire"],
  ["pubgmobile", "PUBG Mobile"],
  ["genshinimpact", "Genshin Impact"],
  ["googleplay", "Google Play"],
  ["indihome", "IndiHome"],
]);

/**
 * a brand as the buyer reads it: a known one as its owner writes it ("TELKOMSEL" →
 * "Telkomsel", "GO PAY" → "GoPay"); another written all in capitals with its words of five
 * letters or more capitalised ("STEAM WALLET" → "Steam Wallet", "PUBG" and "BPJS" stay);
 * anything else as the supplier wrote it
 */
export function brandName(brand: string): string {
  const known = BRAND_NAMES.get(brand.toLowerCase().replace(/[^a-z0-9]/g, ""));
  if (known) return known;
  if (brand !== brand.toUpperCase()) return brand;
  return brand.replace(/\p{Lu}{5,}/gu, (w) => w[0] + w.slice(1).toLowerCase());
}
