import { ensureQueue } from "../../jobs/queues.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { checkSuppliers } from "./every-supplier.ts";
import { recheckFinalOrders } from "./orders-check.ts";

const SUPPLIER_RECON_QUEUE = "supplier-recon";
const ORDER_RECHECK_QUEUE = "order-recheck";
/** the settled orders of the last day, early each morning (WIB) */
const ORDER_RECHECK_CRON = "30 5 * * *";
const DAILY_REPORT_QUEUE = "daily-report";
/** after the re-check, when the owner starts the day */
const DAILY_REPORT_CRON = "0 7 * * *";
/** at the top of every hour */
const DEFAULT_RECON_CRON = "0 * * * *";

/**
 * the hourly supplier balance check, of every supplier (each its own window): a "stately" queue (one waiting, one running), so a
 * slow supplier never piles checks up. Call after jobs.start(), in a process that runs jobs.
 */
export async function registerReconciliationJobs(
  jobs: JobRunner,
  deps: { orders: OrderEngine; cron?: string },
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
    const results = await checkSuppliers(o);
    for (const r of results) {
      if ("error" in r) {
        // the next hour reads it again; the other suppliers' checks stand
        log.warn(
          { supplier: r.book.name, code: r.error.code },
          "supplier balance could not be read",
        );
        continue;
      }
      const { check } = r;
      log[check.status === "drift" ? "warn" : "info"](
        {
          supplier: r.book.name,
          checkId: check.id,
          balance: check.balance,
          drift: check.drift,
          status: check.status,
        },
        "supplier balance checked",
      );
    }
    await o.jobs?.kickNotifications();
    return results.map((r) =>
      "error" in r
        ? { supplier: r.book.name, error: r.error.code }
        : { supplier: r.book.name, checkId: r.check.id, status: r.check.status },
    );
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

  await ensureQueue(boss, DAILY_REPORT_QUEUE, {
    policy: "stately",
    retryLimit: 2,
    expireInSeconds: 5 * 60,
  });
  await boss.schedule(DAILY_REPORT_QUEUE, DAILY_REPORT_CRON, {}, { tz: "Asia/Jakarta" });
  await jobs.work(DAILY_REPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 30 }, async () => {
    const queued = await queueDailyReport(deps.orders);
    await deps.orders.jobs?.kickNotifications();
    return { queued };
  });
}

/** the daily report for every admin, once per day (its key holds the WIB date) */
export async function queueDailyReport(orders: OrderEngine): Promise<number> {
  const now = orders.clock.now();
  const day = new Date(now + 7 * 3600_000).toISOString().slice(0, 10);
  let queued = 0;
  for (const adminId of orders.adminIds ?? []) {
    const fresh = await enqueueNotification(orders.db, {
      key: `report:${day}:${adminId}`,
      chatId: adminId,
      payload: { type: "daily_report", at: now },
    });
    if (fresh) queued += 1;
  }
  return queued;
}
