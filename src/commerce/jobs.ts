import type { Clock } from "../clock.ts";
import type { Database } from "../db/client.ts";
import type { JobRunner } from "../jobs/runner.ts";
import type { Logger } from "../logger.ts";
import { processCallback } from "./callbacks/inbox.ts";
import { type DeliveryDeps, deliverDue } from "./notifications/deliver.ts";
import type { OrderDeps, OrderJobs } from "./orders/deps.ts";
import { pruneQuotes } from "./orders/prune.ts";
import { resolveOrder, sweepOpenOrders } from "./orders/resolve.ts";
import { expireDeposits } from "./wallet/deposits.ts";

export const COMMERCE_QUEUES = {
  orderCheck: "order-check",
  orderSweep: "order-sweep",
  callback: "supplier-callback",
  notify: "notify",
  depositExpire: "deposit-expire",
  housekeeping: "housekeeping",
} as const;

export interface CommerceJobsDeps {
  jobs: JobRunner;
  orders: Omit<OrderDeps, "jobs">;
  /** false in a web-only process: it sends jobs but does not run them */
  work: boolean;
}

/**
 * the commerce core's background work on pg-boss: status checks of open orders (a job per
 * order plus a sweeper each minute), stored callbacks and deposit expiry. Returns the
 * OrderDeps, with jobs, that everything else should use.
 */
export async function registerCommerceJobs(d: CommerceJobsDeps): Promise<OrderDeps> {
  const { boss } = d.jobs;
  const q = COMMERCE_QUEUES;
  // stately + one key per order: one check waiting and one running at most, so the
  // sweeper and the job's own rescheduling never grow parallel chains of checks
  await boss.createQueue(q.orderCheck, { name: q.orderCheck, policy: "stately" });
  await boss.createQueue(q.orderSweep, { name: q.orderSweep, policy: "singleton" });
  await boss.createQueue(q.callback);
  // stately: one waiting kick is enough, however many final orders asked for one
  await boss.createQueue(q.notify, { name: q.notify, policy: "stately" });
  // the cron catches retries that are due and anything a lost kick left behind
  await boss.schedule(q.notify, "* * * * *");
  await boss.createQueue(q.depositExpire, { name: q.depositExpire, policy: "singleton" });

  const orderJobs: OrderJobs = {
    async scheduleCheck(orderId, afterMs) {
      await boss.send(
        q.orderCheck,
        { orderId },
        { startAfter: Math.max(1, Math.ceil(afterMs / 1000)), singletonKey: `order-${orderId}` },
      );
    },
    async kickNotifications() {
      await boss.send(q.notify, {});
    },
  };
  const deps: OrderDeps = { ...d.orders, jobs: orderJobs };
  if (!d.work) return deps;

  const log = deps.logger.child({ component: "commerce-jobs" });
  await boss.work<{ orderId: number }>(
    q.orderCheck,
    { batchSize: 5, pollingIntervalSeconds: 1 },
    async (batch) => {
      for (const job of batch) await resolveOrder(deps, job.data.orderId);
    },
  );
  await boss.schedule(q.orderSweep, "* * * * *");
  await boss.work(q.orderSweep, async () => {
    await sweepOpenOrders(deps);
  });
  await boss.work<{ callbackId: number }>(
    q.callback,
    { batchSize: 5, pollingIntervalSeconds: 0.5 },
    async (batch) => {
      for (const job of batch) await processCallback(deps, job.data.callbackId);
    },
  );
  await boss.schedule(q.depositExpire, "*/5 * * * *");
  await boss.work(q.depositExpire, async () => {
    const expired = await expireDeposits(deps.db, deps.clock);
    if (expired.length > 0) await orderJobs.kickNotifications();
  });
  log.debug("commerce jobs registered");
  return deps;
}

/** queues the processing of a stored callback */
export function callbackJobSender(jobs: JobRunner) {
  return async (callbackId: number) => {
    await jobs.boss.send(COMMERCE_QUEUES.callback, { callbackId });
  };
}

/**
 * delivers the outbox through a chat front end. Without one (no bot yet), notifications
 * wait in the outbox and go out once a front end runs.
 */
export async function registerNotificationDelivery(
  jobs: JobRunner,
  delivery: DeliveryDeps,
): Promise<void> {
  await jobs.boss.work(COMMERCE_QUEUES.notify, { pollingIntervalSeconds: 0.5 }, async () => {
    await deliverDue(delivery);
  });
}

/** once a day (03:30 WIB): expired quotes, and whatever the front end keeps */
export async function registerHousekeeping(
  jobs: JobRunner,
  deps: {
    db: Database;
    clock: Clock;
    logger: Logger;
    frontend?: (now: Date) => Promise<void>;
  },
): Promise<void> {
  const q = COMMERCE_QUEUES.housekeeping;
  await jobs.boss.createQueue(q, { name: q, policy: "singleton" });
  await jobs.boss.schedule(q, "30 3 * * *", {}, { tz: "Asia/Jakarta" });
  await jobs.boss.work(q, async () => {
    const now = new Date(deps.clock.now());
    const quotes = await pruneQuotes(deps.db, new Date(now.getTime() - 86_400_000));
    await deps.frontend?.(now);
    deps.logger.info({ quotes }, "housekeeping done");
  });
}
