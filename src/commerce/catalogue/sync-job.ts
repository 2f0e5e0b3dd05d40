import type { Database } from "../../db/client.ts";
import { ensureQueue } from "../../jobs/queues.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { Logger } from "../../logger.ts";
import type { Supplier } from "../../supplier/types.ts";
import { linkOtherSuppliers } from "./link-others.ts";
import { syncCatalogue } from "./sync.ts";

export const CATALOGUE_SYNC_QUEUE = "catalogue-sync";
const DEFAULT_SYNC_CRON = "*/15 * * * *";

export interface CatalogueJobDeps {
  db: Database;
  supplier: Supplier;
  /** the other suppliers, linked to the catalogue after each sync (docs/suppliers.md#linking) */
  others?: readonly { name: string; supplier: Supplier }[];
  logger: Logger;
  /** when to sync; default every 15 minutes */
  cron?: string;
  /** how often the worker looks for a due sync (seconds); tests go faster */
  pollingIntervalSeconds?: number;
}

/**
 * the catalogue-sync queue, its cron schedule and its worker. The queue is "stately": at
 * most one sync waiting and one running, so a slow supplier never piles syncs up.
 * Call after jobs.start(), in a process that runs jobs (role worker or all).
 */
export async function registerCatalogueJobs(
  jobs: JobRunner,
  deps: CatalogueJobDeps,
): Promise<{ syncNow(): Promise<void> }> {
  const log = deps.logger.child({ component: "catalogue-jobs" });
  const boss = jobs.boss;
  await ensureQueue(boss, CATALOGUE_SYNC_QUEUE, {
    policy: "stately",
    // the next tick retries anyway; a sync taken by a process that died is taken back by
    // its lease within seconds, and one that hangs in a live process by this expiry
    retryLimit: 0,
    expireInSeconds: 10 * 60,
  });
  await boss.schedule(
    CATALOGUE_SYNC_QUEUE,
    deps.cron ?? DEFAULT_SYNC_CRON,
    {},
    { tz: "Asia/Jakarta" },
  );
  const workerId = await jobs.work(
    CATALOGUE_SYNC_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 10 },
    async () => {
      try {
        const summary = await syncCatalogue(deps.db, deps.supplier, { logger: deps.logger });
        await linkOtherSuppliers(deps.db, deps.others ?? [], deps.logger);
        return summary;
      } catch (err) {
        log.error({ err }, "catalogue sync failed; the catalogue is unchanged");
        throw err;
      }
    },
  );
  return {
    // still the job (one sync at a time across processes, retried by the schedule), but
    // this process's worker looks at once instead of at its next poll
    async syncNow() {
      await requestCatalogueSync(jobs);
      boss.notifyWorker(workerId);
    },
  };
}

/** asks for a sync now (an admin's button); null when one is already waiting */
export function requestCatalogueSync(jobs: JobRunner): Promise<string | null> {
  return jobs.send(CATALOGUE_SYNC_QUEUE, {});
}
