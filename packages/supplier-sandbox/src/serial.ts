import { plnCustomerName, plnTariff } from "./bill-data.ts";
import type { CatalogueEntry } from "./catalogue.ts";
import { digitsOf, hexOf } from "./rng.ts";

// serial numbers are derived from the ref_id, so a repeat or a status query always shows
// the same one.

/** "<20-digit token>/<NAME>/<TARIF>/<DAYA>/<KWH>", as PLN prepaid answers */
function plnToken(refId: string, meter: string, denomination: number): string {
  const { tarif, daya, rate } = plnTariff(meter);
  // the buyer pays tax and stamp duty out of the face value; roughly 8% of it
  const kwh = ((denomination * 0.92) / rate).toFixed(1);
  return `${digitsOf(`token:${refId}`, 20)}/${plnCustomerName(meter)}/${tarif}/${daya}/${kwh}`;
}

export function serialFor(entry: CatalogueEntry, refId: string, customerNo: string): string {
  switch (entry.family) {
    case "pln":
      return plnToken(refId, customerNo, entry.denomination ?? 0);
    case "pulsa":
    case "data":
      return digitsOf(`sn:${refId}`, 20);
    case "emoney":
      return `REF${digitsOf(`sn:${refId}`, 16)}`;
    case "game": {
      const hex = hexOf(`sn:${refId}`, 16);
      return `${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8, 12)}-${hex.slice(12)}`;
    }
    case "bill":
      return hexOf(`bill:${refId}`, 32);
  }
}
