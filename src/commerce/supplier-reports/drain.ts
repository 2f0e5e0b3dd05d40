import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { DatabaseHandle } from "../../db/client.ts";
import type { Leases } from "../../jobs/lease.ts";
import { every } from "../../jobs/periodic.ts";
import { Wakeup } from "../../jobs/wakeup.ts";
import type { Logger } from "../../logger.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { firstSupplierName } from "../orders/routing.ts";
import {
  type ClaimedSupplierReport,
  claimSupplierReports,
  closeSupplierReport,
  extendSupplierReportClaims,
  freeSupplierReportClaimsOf,
  processSupplierReport,
  retrySupplierReport,
  supplierReportClaimHolders,
} from "./inbox.ts";

// the stored supplier reports are an inbox of their own, drained like the update inbox: the
// INSERT's trigger NOTIFYs (kios_supplier_reports), a worker claims what is left to act on
// under its lease's id and acts on it side by side, one order's reports in turn. No job per
// report: the route stores and answers, and nothing else stands between a report and its
// settlement. A worker that dies (SIGKILL included) leaves its lease free: the others take
// its claims back within seconds. A claim that runs out while its worker lives is acted on
// twice at worst, which moves nothing twice (the order's settlement is once).

export interface SupplierReportDrainOptions {
  database: DatabaseHandle;
  leases: Leases;
  orders: OrderEngine;
  /** reports acted on at once by this process (different orders side by side) */
  concurrency: number;
  logger: Logger;
  /** a claim's lease; renewed while the report is being acted on */
  leaseMs?: number;
  /** how often an idle worker looks for reports no notification announced */
  idleMs?: number;
  /** how often it looks for dead workers' claims */
  reclaimMs?: number;
  onResult?(result: "settled" | "retried" | "abandoned"): void;
}

export interface SupplierReportDrain {
  start(): Promise<void>;
  /** stops claiming, and resolves once the reports in hand are done */
  stop(): Promise<void>;
}

/** a report tried this many times is given up on: the order's own checks settle it */
export const MAX_REPORT_ATTEMPTS = 5;
const DEFAULT_LEASE_MS = 120_000;

const workerLease = (id: string) => `report-worker:${id}`;
const newWorkerId = () => `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

export function createSupplierReportDrain(o: SupplierReportDrainOptions): SupplierReportDrain {
  const db = o.database.db;
  const leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  const idleMs = o.idleMs ?? 2000;
  const reclaimMs = o.reclaimMs ?? 2000;
  const log = o.logger.child({ component: "supplier-reports" });
  const inHand = new Map<number, ClaimedSupplierReport>();
  /** each order's reports in turn: the tail of the chain of reports naming it */
  const byRef = new Map<string, Promise<void>>();
  let worker = newWorkerId();
  let stopped = true;
  let loop: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  const timers: (() => void)[] = [];
  const wakeup = new Wakeup();
  const wakeUp = () => wakeup.wake();
  const sleep = (ms: number) => wakeup.wait(ms);

  async function act(r: ClaimedSupplierReport, id: string): Promise<void> {
    try {
      if (r.attempts > MAX_REPORT_ATTEMPTS) {
        log.error({ reportId: r.id, attempts: r.attempts }, "supplier report abandoned");
        await closeSupplierReport(db, r.id, "abandoned: its workers kept failing");
        o.onResult?.("abandoned");
        return;
      }
      await processSupplierReport(o.orders, r.id, r);
      o.onResult?.("settled");
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log.error({ err, reportId: r.id }, "acting on a supplier report failed; trying again");
      // 1 s, 2 s, 4 s, 8 s: a supplier's status that failed once answers soon after
      await retrySupplierReport(db, {
        worker: id,
        id: r.id,
        delayMs: 1000 * 2 ** (r.attempts - 1),
        error,
      }).catch((e) => log.error({ err: e, reportId: r.id }, "giving a report back failed"));
      o.onResult?.("retried");
    }
  }

  function begin(r: ClaimedSupplierReport, id: string) {
    inHand.set(r.id, r);
    const previous = byRef.get(r.refId) ?? Promise.resolve();
    const task = previous.then(() => act(r, id));
    byRef.set(r.refId, task);
    void task.finally(() => {
      inHand.delete(r.id);
      if (byRef.get(r.refId) === task) byRef.delete(r.refId);
      wakeUp();
    });
  }

  async function claimLoop(signal: AbortSignal): Promise<void> {
    const onAbort = () => wakeUp();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      while (!stopped && !signal.aborted) {
        const room = o.concurrency - inHand.size;
        let claimed: ClaimedSupplierReport[] = [];
        if (room > 0) {
          try {
            claimed = await claimSupplierReports(db, {
              worker,
              limit: room,
              leaseMs,
              firstSupplier: firstSupplierName(o.orders),
            });
          } catch (err) {
            log.error({ err }, "claiming supplier reports failed");
            await sleep(idleMs);
            continue;
          }
          for (const r of claimed) begin(r, worker);
        }
        if (claimed.length < room || room <= 0) await sleep(idleMs);
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  async function lead(ready: () => void): Promise<void> {
    while (!stopped) {
      const id = newWorkerId();
      try {
        const out = await o.leases.hold([workerLease(id)], async (lease) => {
          worker = id;
          ready();
          await claimLoop(lease.signal);
          if (lease.signal.aborted && !stopped) {
            log.warn({ err: lease.signal.reason }, "lost the report drain's lease: a new one");
          }
        });
        if (!out.held) throw new Error(`the report drain's lease ${id} is held elsewhere`);
      } catch (err) {
        log.error({ err }, "the report drain could not take its lease; trying again");
        ready();
        await sleep(idleMs);
      }
    }
    await Promise.allSettled([...byRef.values()]);
  }

  /** upkeep on a timer of its own, until the drain closes */
  function upkeep(ms: number, task: () => Promise<void>) {
    timers.push(
      every(ms, task, {
        active: () => !stopped,
        onError: (err) => log.error({ err }, "report drain upkeep failed"),
      }),
    );
  }

  async function reclaim(): Promise<void> {
    const holders = (await supplierReportClaimHolders(db)).filter((w) => w !== worker);
    if (holders.length === 0) return;
    const free = await o.leases.free(holders.map(workerLease));
    const dead = holders.filter((w) => free.has(workerLease(w)));
    const n = await freeSupplierReportClaimsOf(db, dead);
    if (n > 0) {
      log.warn({ workers: dead, reports: n }, "took back the reports of a worker that died");
      wakeUp();
    }
  }

  return {
    async start() {
      if (!stopped) return;
      stopped = false;
      let ready!: () => void;
      const started = new Promise<void>((r) => {
        ready = r;
      });
      loop = lead(ready);
      await started;
      try {
        unlisten = await o.database.listen("kios_supplier_reports", wakeUp);
      } catch (err) {
        log.warn({ err }, "LISTEN kios_supplier_reports failed: polling for reports instead");
      }
      upkeep(Math.max(1000, Math.floor(leaseMs / 3)), () =>
        extendSupplierReportClaims(db, { worker, ids: [...inHand.keys()], leaseMs }),
      );
      upkeep(reclaimMs, reclaim);
      await reclaim().catch((err) => log.error({ err }, "reclaiming supplier reports failed"));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      wakeUp();
      await loop;
      for (const stop of timers.splice(0)) stop();
      await unlisten?.().catch(() => {});
    },
  };
}
