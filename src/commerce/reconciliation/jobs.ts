import { ensureQueue } from "../../jobs/queues.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { OrderDeps } from "../orders/deps.ts";
import { checkSupplierBalance, settleOpenOrders } from "./balance-check.ts";
import { recheckFinalOrders } from "./orders-check.ts";

const SUPPLIER_RECON_QUEUE = "supplier-recon";
const ORDER_RECHECK_QUEUE = "order-recheck";
/** the settled orders of the last day, early each morning (WIB) */
const ORDER_RECHECK_CRON = "30 5 * * *";
/** at the top of every hour */
const DEFAULT_RECON_CRON = "0 * * * *";

/**
 * the hourly supplier balance check: a "stately" queue (one waiting, one running), so a
 * slow supplier never piles checks up. Call after jobs.start(), in a process that runs jobs.
 */
export async function registerReconciliationJobs(
  jobs: JobRunner,
  deps: { orders: OrderDeps; cron?: string },
): Promise<void> {
  const log = deps.orders.logger.child({ component: "reconciliation" });
  const boss = jobs.boss;
  await ensureQueue(boss, SUPPLIER_RECON_QUEUE, {
    policy: "stately",
    // the next hour checks again; a check taken by a dead process is taken back by its lease
    retryLimit: 0,
    expireInSeconds: 5 * 60,
  });
  await boss.schedule(
    SUPPLIER_RECON_QUEUE,
    deps.cron ?? DEFAULT_RECON_CRON,
    {},
    {
      tz: "Asia/Jakarta",
    },
  );
  await jobs.work(SUPPLIER_RECON_QUEUE, { batchSize: 1, pollingIntervalSeconds: 10 }, async () => {
    const o = deps.orders;
    const check = await checkSupplierBalance({
      db: o.db,
      supplier: o.supplier,
      clock: o.clock,
      tolerance: o.recon?.tolerance,
      lowBalance: o.recon?.lowBalance,
      adminIds: o.adminIds,
      settleOpen: () => settleOpenOrders(o),
    });
    log[check.status === "drift" ? "warn" : "info"](
      { checkId: check.id, balance: check.balance, drift: check.drift, status: check.status },
      "supplier balance checked",
    );
    await o.jobs?.kickNotifications();
    return { checkId: check.id, status: check.status };
  });

  await ensureQueue(boss, ORDER_RECHECK_QUEUE, {
    policy: "stately",
    retryLimit: 0,
    // 5,000 orders at five a second, with room
    expireInSeconds: 30 * 60,
  });
  await boss.schedule(ORDER_RECHECK_QUEUE, ORDER_RECHECK_CRON, {}, { tz: "Asia/Jakarta" });
  await jobs.work(ORDER_RECHECK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 30 }, async () => {
    const summary = await recheckFinalOrders(deps.orders);
    log[summary.disagreeing.length > 0 ? "warn" : "info"](
      {
        checked: summary.checked,
        disagreeing: summary.disagreeing.length,
        unanswered: summary.unanswered,
      },
      "settled orders re-checked with the supplier",
    );
    await deps.orders.jobs?.kickNotifications();
    return { checked: summary.checked, disagreeing: summary.disagreeing.length };
  });
}
