import type { Translate } from "./i18n.ts";

// a bill kind is stored as the supplier's category in its canonical spelling ("BPJS
// KESEHATAN", commerce/catalogue/categories.ts); the chat names it in the shop's words

const KIND_KEYS: Readonly<Record<string, string>> = {
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

/** a bill kind (a pasca category) as the buyer reads it; one kios does not know, as given */
export function billKindName(t: Translate, category: string): string {
  const key = KIND_KEYS[category];
  return key ? t(key) : category;
}
