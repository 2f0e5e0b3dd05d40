import type { Clock } from "@kios/kit";
import { orderJobPort } from "../commerce/jobs.ts";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import type { Order } from "../commerce/orders/types.ts";
import type { PaymentEngine } from "../commerce/payments/engine.ts";
import { paymentJobPort } from "../commerce/payments/jobs.ts";
import { noteAnswerBalance } from "../commerce/reconciliation/answer-reading.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { PaymentGateway } from "../gateway/types.ts";
import type { JobRunner } from "../jobs/runner.ts";
import type { Logger } from "../logger.ts";
import type { Supplier } from "../supplier/types.ts";

/** the commerce core's engines, built once and shared by the bot, the routes and the jobs */
export interface Engines {
  orders: OrderEngine;
  /** QRIS deposits; undefined without a payment gateway */
  payments: PaymentEngine | undefined;
}

export interface EngineParts {
  db: Database;
  /** the first supplier */
  supplier: Supplier;
  /** the other suppliers by name (SUPPLIER_2_*, …, or the playground's backup sandbox) */
  suppliers?: ReadonlyMap<string, Supplier> | undefined;
  clock: Clock;
  logger: Logger;
  /** default ADMIN_IDS (the playground adds its demo admin) */
  adminIds?: readonly number[] | undefined;
  /** the job runner the engines ask for later work; absent (the CLI): the sweeper still runs */
  jobs?: JobRunner | undefined;
  gateway?: PaymentGateway | undefined;
  onOrderFinal?: ((order: Order) => void) | undefined;
  onOrderSubmitted?: ((order: Order) => void) | undefined;
}

/**
 * the engines as the configuration sets them up, with their job ports given at
 * construction. `kios start` and the commands that settle orders (`kios recon`) both build
 * them here, so an order settled from the command line tells the same admins and closes a
 * failing product by the same rule.
 */
export function createEngines(config: Config, parts: EngineParts): Engines {
  const orders: OrderEngine = {
    db: parts.db,
    supplier: parts.supplier,
    suppliers: parts.suppliers,
    firstSupplier: config.supplierName,
    minMargin: config.minMargin,
    clock: parts.clock,
    logger: parts.logger,
    testing: config.supplierTesting,
    adminIds: parts.adminIds ?? config.adminIds,
    recon: { tolerance: config.reconTolerance, lowBalance: config.supplierLowBalance },
    productPause: config.productPause,
    ...(parts.jobs ? { jobs: orderJobPort(parts.jobs) } : {}),
    ...(parts.onOrderFinal ? { onOrderFinal: parts.onOrderFinal } : {}),
    ...(parts.onOrderSubmitted ? { onOrderSubmitted: parts.onOrderSubmitted } : {}),
  };
  // reconciliation depends on orders: the engine tells it of balances in answers by a hook
  orders.onAnswerBalance = noteAnswerBalance;
  const payments: PaymentEngine | undefined = parts.gateway
    ? {
        gateway: parts.gateway,
        orders,
        expiryMinutes: config.paymentExpiryMinutes,
        depositStep: config.paymentDepositStep,
        ...(parts.jobs ? { jobs: paymentJobPort(parts.jobs) } : {}),
      }
    : undefined;
  return { orders, payments };
}
