import { systemClock } from "@kios/kit";
import {
  checkSupplierBalance,
  settleOpenOrders,
} from "../commerce/reconciliation/balance-check.ts";
import { loadConfig } from "../config.ts";
import { formatRupiah } from "../supplier/amounts.ts";
import { SupplierError } from "../supplier/types.ts";
import { type Command, parseFlags } from "./command.ts";
import { withDatabase } from "./database.ts";
import { cliLogger, print, withSupplier } from "./io.ts";

const signed = (n: number | null) =>
  n === null ? "-" : `${n > 0 ? "+" : n < 0 ? "-" : ""}${formatRupiah(Math.abs(n))}`;

export const reconCommand: Command = {
  name: "recon",
  summary: "compare the supplier balance with kios's records now; exit 1 on drift",
  usage: "kios recon [--json]",
  async run(argv) {
    const { values } = parseFlags(argv, { json: { type: "boolean", default: false } });
    const config = await loadConfig();
    return withDatabase((database) =>
      withSupplier(config, cliLogger(config), async (supplier) => {
        let check: Awaited<ReturnType<typeof checkSupplierBalance>>;
        try {
          check = await checkSupplierBalance({
            db: database.db,
            supplier,
            clock: systemClock,
            tolerance: config.reconTolerance,
            lowBalance: config.supplierLowBalance,
            adminIds: config.adminIds,
            settleOpen: () =>
              settleOpenOrders({
                db: database.db,
                supplier,
                clock: systemClock,
                logger: cliLogger(config),
                testing: config.supplierTesting,
              }),
          });
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
