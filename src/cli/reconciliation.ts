import { type Clock, systemClock } from "@kios/kit";
import { connectSuppliers } from "../app/connect-supplier.ts";
import { createEngines } from "../app/engines.ts";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import type { BalanceCheck } from "../commerce/reconciliation/balance-check.ts";
import {
  checkSuppliers,
  findSupplierAccount,
  type SupplierCheckResult,
  supplierAccounts,
} from "../commerce/reconciliation/every-supplier.ts";
import { type Config, loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { formatRupiah } from "../supplier/amounts.ts";
import type { Supplier } from "../supplier/types.ts";
import { type Command, parseFlags } from "./command.ts";
import { withDatabase } from "./database.ts";
import { cliLogger, print } from "./io.ts";

const signed = (n: number | null) =>
  n === null ? "-" : `${n > 0 ? "+" : n < 0 ? "-" : ""}${formatRupiah(Math.abs(n))}`;

interface ReconParts {
  config: Config;
  db: Database;
  /** the first supplier */
  supplier: Supplier;
  /** the others by name */
  suppliers?: ReadonlyMap<string, Supplier> | undefined;
  clock?: Clock;
  logger: Logger;
}

/** the order engine the server runs (its admins, its pause rule), not a bare one */
function engineOf(o: ReconParts): OrderEngine {
  return createEngines(o.config, {
    db: o.db,
    supplier: o.supplier,
    suppliers: o.suppliers,
    clock: o.clock ?? systemClock,
    logger: o.logger,
  }).orders;
}

/**
 * one balance check of each supplier now (or of the one named), made as the hourly job
 * makes them: each supplier's open orders are settled first by the order engine the server
 * runs. Undefined when no supplier has that name.
 */
function reconcileSuppliers(
  o: ReconParts & { only?: string | undefined },
): Promise<SupplierCheckResult[]> | undefined {
  const orders = engineOf(o);
  if (o.only === undefined) return checkSuppliers(orders);
  const { account } = findSupplierAccount(orders, o.only);
  return account ? checkSuppliers(orders, { accounts: [account] }) : undefined;
}

/** the first supplier's check now; its supplier's error is thrown */
export async function reconcileNow(o: ReconParts): Promise<BalanceCheck> {
  const orders = engineOf(o);
  const [result] = await checkSuppliers(orders, { accounts: supplierAccounts(orders).slice(0, 1) });
  if (!result) throw new Error("no supplier to check");
  if ("error" in result) throw result.error;
  return result.check;
}

function describe(name: string, check: BalanceCheck): string {
  return [
    `${name}: check #${check.id} at ${check.readAt.toISOString()}: ${check.status}`,
    `balance ${formatRupiah(check.balance)}; moved ${signed(check.actualChange)}, expected ${signed(check.expectedChange)}`,
    `top-ups ${formatRupiah(check.topups)}; ${check.successCount} successful orders ${formatRupiah(check.successCost)}; open ${check.openCount} (${formatRupiah(check.openCost)}, counted as charged)`,
    `in flight at the reading: up to +${formatRupiah(check.inFlightRise)} / -${formatRupiah(check.inFlightFall)}; carried to the next check ${signed(check.carried)}`,
    `drift ${signed(check.drift)} (tolerance ${formatRupiah(check.tolerance)})`,
  ].join("\n");
}

export const reconCommand: Command = {
  name: "recon",
  summary: "compare each supplier's balance with kios's records now; exit 1 on drift at any",
  usage: "kios recon [--supplier <name>] [--json]",
  async run(argv, deps) {
    const { values } = parseFlags(argv, {
      json: { type: "boolean", default: false },
      supplier: { type: "string" },
    });
    const config = await loadConfig(deps.env);
    const logger = cliLogger(config);
    const registry = await connectSuppliers({ config, logger });
    if (registry.first.sandbox) {
      console.error("no SUPPLIER_* set: using the embedded sandbox supplier");
    }
    try {
      return await withDatabase(deps, async (database) => {
        const results = await reconcileSuppliers({
          config,
          db: database.db,
          supplier: registry.first.supplier,
          suppliers: new Map(registry.all.slice(1).map((c) => [c.name, c.supplier])),
          logger,
          only: values.supplier,
        });
        if (!results) {
          const names = registry.all.map((c) => c.name).join(", ");
          console.error(`no supplier named ${values.supplier}; suppliers: ${names}`);
          return 2;
        }
        if (values.json) {
          const shown = results.map((r) =>
            "error" in r
              ? { supplier: r.book.name, error: r.error.code, message: r.error.message }
              : { ...r.check, supplier: r.book.name },
          );
          // one supplier: its check, as before there were several; else one entry each
          await print(JSON.stringify(shown.length === 1 ? shown[0] : shown, null, 2));
        } else {
          const blocks: string[] = [];
          for (const r of results) {
            if ("error" in r) console.error(`${r.book.name}: ${r.error.code}: ${r.error.message}`);
            else blocks.push(describe(r.book.name, r.check));
          }
          if (blocks.length > 0) await print(blocks.join("\n\n"));
        }
        const bad = results.some((r) => "error" in r || r.check.status === "drift");
        return bad ? 1 : 0;
      });
    } finally {
      await registry.close();
    }
  },
};
