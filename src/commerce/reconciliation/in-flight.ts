import type { supplierBalanceChecks } from "../../db/schema.ts";

// what orders in flight at a reading can explain (docs/reconciliation.md). The supplier read
// its balance at some moment between the request and the answer; an order open then may
// have been refunded already or not have arrived yet, and one settled in between may fall
// on either side. Such an order makes the reading uncertain, not wrong.

type Band = Pick<
  typeof supplierBalanceChecks.$inferSelect,
  "inFlightRise" | "inFlightFall" | "tolerance"
>;

/** a difference in-flight orders and the tolerance account for: not drift */
export function withinBand(difference: number, band: Band): boolean {
  return (
    difference <= band.inFlightRise + band.tolerance &&
    difference >= -band.inFlightFall - band.tolerance
  );
}

/**
 * the part of a difference that in-flight orders may explain: carried to the next check,
 * which reports it unless those orders resolved it (the tolerance's part is forgiven)
 */
export function inFlightPart(difference: number, band: Band): number {
  return Math.min(band.inFlightRise, Math.max(-band.inFlightFall, difference));
}

/** nothing was in flight at the reading: a rise there is exactly what arrived */
export function exactReading(band: Band): boolean {
  return band.inFlightRise === 0 && band.inFlightFall === 0;
}
