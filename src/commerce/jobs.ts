import type { Clock } from "@kios/kit";
import type { Database } from "../db/client.ts";
import { coalesced } from "../jobs/coalesced.ts";
import { ensureQueue, type QueueSettings } from "../jobs/queues.ts";
import type { JobRunner } from "../jobs/runner.ts";
import type { Logger } from "../logger.ts";
import {
  DRAIN_BUDGET_MS,
  type DrainDeps,
  drainOutbox,
  MAX_SEND_MS,
} from "./notifications/drain.ts";
import { hasDueNotifications } from "./notifications/outbox.ts";
import type { OrderEngine, OrderJobs } from "./orders/engine.ts";
import { pruneQuotes } from "./orders/prune.ts";
import { resolveOrder, sweepOpenOrders } from "./orders/resolve.ts";
import { expireDeposits } from "./wallet/deposits.ts";

const COMMERCE_QUEUES = {
  orderCheck: "order-check",
  orderSweep: "order-sweep",
  notify: "notify",
  depositExpire: "deposit-expire",
  housekeeping: "housekeeping",
} as const;

/**
 * each queue's policy and expiry. A dead process's jobs are taken back within seconds by
 * their leases (src/jobs/runner.ts), whatever the expiry; the expiry only has to outlast the
 * longest a handler can run while its process lives, or pg-boss would start the next one
 * beside it. A status read can take about a minute at worst (15 s timeout, 3 retries).
 */
const QUEUE_SETTINGS = {
  // stately + one key per order: one check waiting and one running at most, so the
  // sweeper and the job's own rescheduling never grow parallel chains of checks, and
  // two checks of one order never run at once. A batch runs its orders side by side.
  orderCheck: { policy: "stately", expireInSeconds: 120, retryLimit: 3, retryDelay: 2 },
  // up to 100 orders one after another; a dead one is taken back by its lease, and the
  // next minute's sweep starts anyway
  orderSweep: { policy: "singleton", expireInSeconds: 15 * 60, retryLimit: 0 },
  // stately: one waiting kick is enough, and one drain at a time across processes keeps the
  // bot under Telegram's global limit. A drain is bounded (budget plus one send).
  notify: {
    policy: "stately",
    expireInSeconds: Math.ceil((DRAIN_BUDGET_MS + MAX_SEND_MS) / 1000) + 30,
    retryLimit: 1,
  },
  depositExpire: { policy: "singleton", expireInSeconds: 5 * 60, retryLimit: 0 },
  housekeeping: { policy: "singleton", expireInSeconds: 30 * 60, retryLimit: 0 },
} satisfies Record<keyof typeof COMMERCE_QUEUES, QueueSettings>;

/** how often a worker looks in the outbox for work nobody kicked (retries, recovered claims) */
const NOTIFY_TICK_MS = 3_000;

/**
 * the order engine's port to the job runner: what it asks for (a status check later,
 * notifications delivered now). Given to the engine when it is built (createEngines); the
 * queues it sends to exist once registerCommerceJobs has run.
 */
export function orderJobPort(jobs: JobRunner): OrderJobs {
  // one kick on its way stands for every order settled meanwhile (coalesced.ts)
  const kick = coalesced(async () => {
    await jobs.send(COMMERCE_QUEUES.notify, {});
  });
  return {
    async scheduleCheck(orderId, afterMs) {
      await jobs.send(
        COMMERCE_QUEUES.orderCheck,
        { orderId },
        { startAfter: Math.max(1, Math.ceil(afterMs / 1000)), singletonKey: `order-${orderId}` },
      );
    },
    kickNotifications: kick,
  };
}

export interface CommerceJobsDeps {
  jobs: JobRunner;
  /** the order engine, with its job port (orderJobPort) */
  orders: OrderEngine;
  /** false in a web-only process: it sends jobs but does not run them */
  work: boolean;
  /** orders settled at once by one process (status checks, supplier reports); default 50 */
  settleConcurrency?: number;
}

/**
 * the commerce core's background work on pg-boss: status checks of open orders (a job per
 * order plus a sweeper each minute) and deposit expiry (stored supplier reports have a drain
 * of their own: supplier-reports/drain.ts). Creates
 * the queues, and in a process that works them, their workers.
 */
export async function registerCommerceJobs(d: CommerceJobsDeps): Promise<void> {
  const { boss } = d.jobs;
  const q = COMMERCE_QUEUES;
  // stately + one key per order: one check waiting and one running at most, so the
  // sweeper and the job's own rescheduling never grow parallel chains of checks
  const s = QUEUE_SETTINGS;
  await ensureQueue(boss, q.orderCheck, s.orderCheck);
  await ensureQueue(boss, q.orderSweep, s.orderSweep);
  await ensureQueue(boss, q.notify, s.notify);
  // the cron catches anything a lost kick left behind (workers also look every few seconds)
  await boss.schedule(q.notify, "* * * * *");
  await ensureQueue(boss, q.depositExpire, s.depositExpire);
  if (!d.work) return;

  const deps = d.orders;
  const orderJobs = deps.jobs ?? orderJobPort(d.jobs);
  const log = deps.logger.child({ component: "commerce-jobs" });
  const jobs = d.jobs;
  const settle = d.settleConcurrency ?? 50;
  await jobs.work<{ orderId: number }>(
    q.orderCheck,
    { batchSize: settle, pollingIntervalSeconds: 1 },
    async (batch) => {
      // side by side: the batch takes one status read's time, which bounds the expiry
      await runSideBySide(
        batch.map((job) => () => resolveOrder(deps, job.data.orderId)),
        (err, i) => {
          const orderId = batch[i]?.data.orderId;
          log.error({ err, orderId }, "order check failed; trying again shortly");
          if (orderId !== undefined) return orderJobs.scheduleCheck(orderId, 5_000);
        },
      );
    },
  );
  await boss.schedule(q.orderSweep, "* * * * *");
  await jobs.work(q.orderSweep, {}, async () => {
    await sweepOpenOrders(deps);
  });
  await boss.schedule(q.depositExpire, "*/5 * * * *");
  await jobs.work(q.depositExpire, {}, async () => {
    const expired = await expireDeposits(deps.db, deps.clock);
    if (expired.length > 0) await orderJobs.kickNotifications();
  });
  log.debug("commerce jobs registered");
}

/**
 * drains the outbox through the bot's sender. Without one (no bot yet), notifications
 * wait in the outbox and go out once a bot runs.
 */
export async function registerOutboxDrain(jobs: JobRunner, drain: DrainDeps): Promise<void> {
  const q = COMMERCE_QUEUES.notify;
  const kick = () => jobs.send(q, {});
  await jobs.work(q, { pollingIntervalSeconds: 0.5 }, async () => {
    const { more } = await drainOutbox(drain);
    // the drain is bounded in time; what it left is the next job's
    if (more) await kick();
  });
  // retries falling due and claims a dead sender left are nobody's kick: look for them
  jobs.every(NOTIFY_TICK_MS, async () => {
    if (await hasDueNotifications(drain.db, new Date(drain.clock.now()))) await kick();
  });
}

/** runs every task at once; a failure goes to onError (with the task's index), not up */
async function runSideBySide(
  tasks: (() => Promise<unknown>)[],
  onError: (err: unknown, index: number) => Promise<void> | undefined,
): Promise<void> {
  const results = await Promise.allSettled(tasks.map((t) => t()));
  for (const [i, r] of results.entries()) {
    if (r.status === "rejected") await onError(r.reason, i);
  }
}

/** once a day (03:30 WIB): expired quotes, and whatever the bot keeps */
export async function registerHousekeeping(
  jobs: JobRunner,
  deps: {
    db: Database;
    clock: Clock;
    logger: Logger;
    bot?: (now: Date) => Promise<void>;
  },
): Promise<void> {
  const q = COMMERCE_QUEUES.housekeeping;
  await ensureQueue(jobs.boss, q, QUEUE_SETTINGS.housekeeping);
  await jobs.boss.schedule(q, "30 3 * * *", {}, { tz: "Asia/Jakarta" });
  await jobs.work(q, {}, async () => {
    const now = new Date(deps.clock.now());
    const quotes = await pruneQuotes(deps.db, new Date(now.getTime() - 86_400_000));
    await deps.bot?.(now);
    deps.logger.info({ quotes }, "housekeeping done");
  });
}
