import type { Clock } from "@kios/kit";
import type { Database } from "../../db/client.ts";
import { ensureQueue } from "../../jobs/queues.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { Logger } from "../../logger.ts";
import type { Supplier } from "../../supplier/types.ts";
import { linkOtherSuppliers, type OthersLinked } from "./link-others.ts";
import { type SyncSummary, syncCatalogue } from "./sync.ts";

export const CATALOGUE_SYNC_QUEUE = "catalogue-sync";
const DEFAULT_SYNC_CRON = "*/15 * * * *";

/** the suppliers a catalogue comes from */
export interface CatalogueSources {
  db: Database;
  supplier: Supplier;
  /** the first supplier's name (SUPPLIER_NAME); default "main" */
  firstSupplier?: string | undefined;
  /** the other suppliers, linked to the catalogue after each sync (docs/suppliers.md#linking) */
  others?: readonly { name: string; supplier: Supplier }[];
  logger: Logger;
  clock?: Clock | undefined;
}

/**
 * the first supplier's catalogue synced, then every other supplier's linked to it: one
 * catalogue, its routes and what each product sells by (sale.ts) brought up to date
 */
export async function syncAndLink(deps: CatalogueSources): Promise<SyncSummary & OthersLinked> {
  const summary = await syncCatalogue(deps.db, deps.supplier, {
    logger: deps.logger,
    clock: deps.clock,
    firstSupplier: deps.firstSupplier,
  });
  const linked = await linkOtherSuppliers(
    deps.db,
    deps.others ?? [],
    deps.logger,
    deps.firstSupplier,
  );
  return { ...summary, ...linked };
}

export interface CatalogueJobDeps extends CatalogueSources {
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
        return await syncAndLink(deps);
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
