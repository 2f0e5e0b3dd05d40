import { ensureQueue } from "../../jobs/queues.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { PaymentEngine, PaymentJobs } from "./engine.ts";
import { resolvePayment, sweepPayments } from "./resolve.ts";

const QUEUES = {
  check: "payment-check",
  notified: "payment-notified",
  sweep: "payment-sweep",
} as const;

/**
 * the payment engine's port to the job runner (a check later, a check now); given to the
 * engine when it is built, the queues exist once registerPaymentJobs has run
 */
export function paymentJobPort(jobs: JobRunner): PaymentJobs {
  return {
    async scheduleCheck(paymentId, afterMs) {
      await jobs.send(
        QUEUES.check,
        { paymentId },
        {
          startAfter: Math.max(0, Math.ceil(afterMs / 1000)),
          singletonKey: `payment-${paymentId}`,
        },
      );
    },
    async checkNow(paymentId) {
      await jobs.send(QUEUES.notified, { paymentId });
    },
  };
}

/**
 * gateway payments on pg-boss: a check per payment (stately, one key per payment: never two
 * at once for one payment, on one process or several) and a sweeper each minute for checks a
 * lost job left behind and purchases a crash left undone. `work` false: send only.
 */
export async function registerPaymentJobs(
  jobs: JobRunner,
  full: PaymentEngine,
  work: boolean,
): Promise<void> {
  const { boss } = jobs;
  await ensureQueue(boss, QUEUES.check, {
    policy: "stately",
    expireInSeconds: 120,
    retryLimit: 3,
    retryDelay: 2,
  });
  // a notification asks at once: not behind the check already waiting its turn (stately
  // keeps one), and two looks at one payment are safe (the row is locked while applied)
  await ensureQueue(boss, QUEUES.notified, {
    policy: "standard",
    expireInSeconds: 120,
    retryLimit: 3,
    retryDelay: 2,
  });
  await ensureQueue(boss, QUEUES.sweep, {
    policy: "singleton",
    expireInSeconds: 600,
    retryLimit: 0,
  });
  if (!work) return;
  const paymentJobs = full.jobs ?? paymentJobPort(jobs);
  await jobs.work<{ paymentId: number }>(
    QUEUES.check,
    { batchSize: 20, pollingIntervalSeconds: 1 },
    async (batch) => {
      const results = await Promise.allSettled(
        batch.map((job) => resolvePayment(full, job.data.paymentId)),
      );
      for (const [i, r] of results.entries()) {
        if (r.status === "rejected") {
          const paymentId = batch[i]!.data.paymentId;
          full.orders.logger.error({ err: r.reason, paymentId }, "payment check failed");
          await paymentJobs.scheduleCheck(paymentId, 5_000);
        }
      }
    },
  );
  await jobs.work<{ paymentId: number }>(
    QUEUES.notified,
    { batchSize: 20, pollingIntervalSeconds: 0.5 },
    async (batch) => {
      const results = await Promise.allSettled(
        batch.map((job) => resolvePayment(full, job.data.paymentId)),
      );
      // a failure fails the batch: pg-boss tries it again (applying an answer twice is safe)
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
    },
  );
  await boss.schedule(QUEUES.sweep, "* * * * *");
  await jobs.work(QUEUES.sweep, {}, async () => {
    await sweepPayments(full);
  });
}
