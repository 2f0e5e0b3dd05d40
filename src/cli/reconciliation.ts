import { type Clock, systemClock } from "@kios/kit";
import { createEngines } from "../app/engines.ts";
import {
  type BalanceCheck,
  checkSupplierBalance,
  settleOpenOrders,
} from "../commerce/reconciliation/balance-check.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { formatRupiah } from "../supplier/amounts.ts";
import { type Supplier, SupplierError } from "../supplier/types.ts";
import { type Command, parseFlags } from "./command.ts";
import { withDatabase } from "./database.ts";
import { cliLogger, print, withSupplier } from "./io.ts";

const signed = (n: number | null) =>
  n === null ? "-" : `${n > 0 ? "+" : n < 0 ? "-" : ""}${formatRupiah(Math.abs(n))}`;

/**
 * one balance check now, made as the hourly job makes it: the open orders are settled first
 * by the order engine the server runs (its admins, its pause rule), not a bare one
 */
export function reconcileNow(o: {
  config: Config;
  db: Database;
  supplier: Supplier;
  clock?: Clock;
  logger: Logger;
}): Promise<BalanceCheck> {
  const { orders } = createEngines(o.config, {
    db: o.db,
    supplier: o.supplier,
    clock: o.clock ?? systemClock,
    logger: o.logger,
  });
  return checkSupplierBalance({
    db: orders.db,
    supplier: orders.supplier,
    clock: orders.clock,
    tolerance: orders.recon?.tolerance,
    lowBalance: orders.recon?.lowBalance,
    adminIds: orders.adminIds,
    settleOpen: () => settleOpenOrders(orders),
  });
}

export const reconCommand: Command = {
  name: "recon",
  summary: "compare the supplier balance with kios's records now; exit 1 on drift",
  usage: "kios recon [--json]",
  async run(argv) {
    const { values } = parseFlags(argv, { json: { type: "boolean", default: false } });
    const config = await loadConfig();
    const logger = cliLogger(config);
    return withDatabase((database) =>
      withSupplier(config, logger, async (supplier) => {
        let check: BalanceCheck;
        try {
          check = await reconcileNow({ config, db: database.db, supplier, logger });
        } catch (err) {
          if (!(err instanceof SupplierError)) throw err;
          console.error(`${err.code}: ${err.message}`);
          return 1;
        }
        if (values.json) {
          await print(JSON.stringify(check, null, 2));
        } else {
          await print(
            [
              `check #${check.id} at ${check.readAt.toISOString()}: ${check.status}`,
              `balance ${formatRupiah(check.balance)}; moved ${signed(check.actualChange)}, expected ${signed(check.expectedChange)}`,
              `top-ups ${formatRupiah(check.topups)}; ${check.successCount} successful orders ${formatRupiah(check.successCost)}; open ${check.openCount} (${formatRupiah(check.openCost)}, counted as charged)`,
              `in flight at the reading: up to +${formatRupiah(check.inFlightRise)} / -${formatRupiah(check.inFlightFall)}; carried to the next check ${signed(check.carried)}`,
              `drift ${signed(check.drift)} (tolerance ${formatRupiah(check.tolerance)})`,
            ].join("\n"),
          );
        }
        return check.status === "drift" ? 1 : 0;
      }),
    );
  },
};
