import type { Clock } from "@kios/kit";
import type { OrderDeps } from "../commerce/orders/deps.ts";
import type { Order } from "../commerce/orders/types.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { Supplier } from "../supplier/types.ts";

/**
 * the order engine as the configuration sets it up. `kios start` and the commands that
 * settle orders (`kios recon`) both build it here, so an order settled from the command
 * line tells the same admins and closes a failing product by the same rule.
 */
export function configuredOrderDeps(
  config: Config,
  parts: {
    db: Database;
    supplier: Supplier;
    clock: Clock;
    logger: Logger;
    /** default ADMIN_IDS (the playground adds its demo admin) */
    adminIds?: readonly number[] | undefined;
    onOrderFinal?: ((order: Order) => void) | undefined;
    onOrderSubmitted?: ((order: Order) => void) | undefined;
  },
): OrderDeps {
  return {
    db: parts.db,
    supplier: parts.supplier,
    clock: parts.clock,
    logger: parts.logger,
    testing: config.supplierTesting,
    adminIds: parts.adminIds ?? config.adminIds,
    recon: { tolerance: config.reconTolerance, lowBalance: config.supplierLowBalance },
    productPause: config.productPause,
    ...(parts.onOrderFinal ? { onOrderFinal: parts.onOrderFinal } : {}),
    ...(parts.onOrderSubmitted ? { onOrderSubmitted: parts.onOrderSubmitted } : {}),
  };
}
