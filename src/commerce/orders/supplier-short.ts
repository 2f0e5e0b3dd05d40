import type { KnownSupplierBalance } from "../supplier-balance/known-balance.ts";
import { alertLowBalance } from "../supplier-balance/low-balance.ts";
import type { OrderEngine } from "./engine.ts";

// what a Pay and a re-route share when the supplier balance guard stands in their way:
// the admins' notice of a short supplier, and how often (and after what pause) one whose
// reservation was overtaken by others' tries again.

/** how many times a Pay or a re-route is run again after being overtaken before it gives up */
export const OVERTAKEN_RETRIES = 8;

/** the pause before a run again: short, growing, jittered, so racing ones fall apart */
export const overtakenPause = (run: number) =>
  new Promise<void>((r) => setTimeout(r, Math.min(2 ** run, 32) * (0.5 + Math.random())));

/** suppliers the guard found short (skipped or refused): each admin is told, once per reading */
export async function alertSupplierShort(
  deps: OrderEngine,
  short: readonly KnownSupplierBalance[],
): Promise<void> {
  for (const estimate of short) {
    deps.logger
      .child({ component: "orders" })
      .warn(
        { supplier: estimate.supplier, known: estimate.known },
        "supplier balance too low: route not taken",
      );
    for (const adminId of deps.adminIds ?? []) {
      await alertLowBalance(deps.db, {
        checkId: estimate.checkId,
        known: estimate.known,
        supplier: estimate.supplier,
        adminId,
      });
    }
  }
}
