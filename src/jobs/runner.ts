import PgBoss from "pg-boss";
import type { DatabaseHandle } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { createLeases, type Lease, type Leases } from "./lease.ts";

type JobRunnerState = "stopped" | "starting" | "running" | "failed";

type Job<T> = PgBoss.Job<T>;
type WorkOptions = PgBoss.WorkOptions;

export interface JobRunner {
  readonly boss: PgBoss;
  readonly leases: Leases;
  readonly state: JobRunnerState;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * says the queues exist (every register* has run): what waited in send() goes on. A start
   * answers HTTP and takes updates before pg-boss is up, so the first sends may come early.
   */
  markReady(): void;
  /** pg-boss's send(), once the queues exist (markReady); rejects if the runner stops first */
  send(queue: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
  /**
   * pg-boss's work() with each job's lease held while its handler runs, so that another
   * process can tell the job is alive. Every kios worker registers through this. The lease's
   * signal fires when the lease is lost (its connection went): another process may then run
   * the job again, so a handler that can stop should.
   */
  work<T>(
    queue: string,
    options: WorkOptions,
    handler: (jobs: Job<T>[], lease: Lease) => Promise<unknown>,
  ): Promise<string>;
  /** a timer that lives as long as the runner (stopped with it); runs never overlap */
  every(ms: number, task: () => Promise<void>): void;
  /**
   * takes back the active jobs of processes that died: each is failed, so pg-boss retries it
   * (within the queue's retry limit) at once. Runs at start and every few seconds.
   */
  reclaimDeadJobs(): Promise<number>;
}

export interface JobRunnerOptions {
  database: DatabaseHandle;
  logger: Logger;
  /** a web-only process sends jobs but neither supervises nor runs cron schedules */
  supervise?: boolean;
}

/** a job's own lease: held by whoever runs it, for as long as it runs */
export const jobLease = (id: string) => `job:${id}`;

/** how often a supervising process looks for dead processes' jobs */
const RECLAIM_INTERVAL_MS = 2_000;
/**
 * a job must be this old before a missing lease counts: pg-boss marks it active a moment
 * before the handler takes the lease
 */
export const RECLAIM_GRACE_SECONDS = 5;
/**
 * pg-boss's own expiry sweep. The lease catches dead processes within seconds; expiry is the
 * backstop for a handler that hangs while its process lives, so it runs every 30 s instead
 * of pg-boss's default 2 minutes.
 */
const MAINTENANCE_INTERVAL_SECONDS = 30;

/** pg-boss on the app's own database: its own small pool on postgres, executeSql on PGlite. */
export function createJobRunner({
  database,
  logger,
  supervise = true,
}: JobRunnerOptions): JobRunner {
  const common = {
    schema: "pgboss",
    supervise,
    schedule: supervise,
    migrate: true,
    maintenanceIntervalSeconds: MAINTENANCE_INTERVAL_SECONDS,
  } as const;
  const boss =
    database.kind === "postgres"
      ? new PgBoss({ ...common, connectionString: database.connectionString!, max: 4 })
      : new PgBoss({
          ...common,
          db: { executeSql: (text, values) => database.executeSql(text, values) },
        });
  const leases = createLeases(database);

  let state: JobRunnerState = "stopped";
  const log = logger.child({ component: "jobs" });
  boss.on("error", (err) => log.error({ err }, "job runner error"));

  let markReady!: () => void;
  let neverReady!: (err: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    neverReady = reject;
  });
  // a runner stopped before it was ready rejects its waiting senders; nobody else awaits it
  ready.catch(() => {});

  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();

  function every(ms: number, task: () => Promise<void>) {
    let busy = false;
    const timer = setInterval(() => {
      if (busy || state !== "running") return;
      busy = true;
      const run = task()
        .catch((err) => log.error({ err }, "periodic job task failed"))
        .finally(() => {
          busy = false;
          running.delete(run);
        });
      running.add(run);
    }, ms);
    timer.unref();
    timers.push(timer);
  }

  async function reclaimDeadJobs(): Promise<number> {
    // pg-boss's own internal queues (cron's send-it) run outside our leases
    const { rows } = await database.executeSql(
      `select id::text as id, name from pgboss.job
       where state = 'active' and started_on < now() - make_interval(secs => $1)
         and name not like '\\_\\_pgboss\\_\\_%'`,
      [RECLAIM_GRACE_SECONDS],
    );
    if (rows.length === 0) return 0;
    const jobs = rows.map((r) => ({ id: String(r.id), name: String(r.name) }));
    const free = await leases.free(jobs.map((j) => jobLease(j.id)));
    const dead = jobs.filter((j) => free.has(jobLease(j.id)));
    for (const j of dead) {
      await boss.fail(j.name, j.id, { message: "the process running it died" });
      log.warn({ queue: j.name, job: j.id }, "took back a job a dead process held");
    }
    return dead.length;
  }

  return {
    boss,
    leases,
    get state() {
      return state;
    },
    async start() {
      state = "starting";
      try {
        await boss.start();
        state = "running";
      } catch (err) {
        state = "failed";
        throw err;
      }
      if (supervise) {
        // a restart takes back what the process before it held, before doing anything else
        await reclaimDeadJobs().catch((err) => log.error({ err }, "reclaiming jobs failed"));
        every(RECLAIM_INTERVAL_MS, async () => {
          await reclaimDeadJobs();
        });
      }
    },
    markReady: () => markReady(),
    async send(queue, data, options) {
      await ready;
      return boss.send(queue, data, options ?? {});
    },
    async stop() {
      neverReady(new Error("the job runner stopped before its queues were ready"));
      if (state === "stopped") return;
      state = "stopped";
      for (const t of timers.splice(0)) clearInterval(t);
      await Promise.allSettled([...running]);
      // graceful: running handlers get a few seconds to finish before the pool closes
      await boss.stop({ graceful: true, wait: true, timeout: 3000 });
      await leases.close();
    },
    async work(queue, options, handler) {
      let workerId: string | undefined;
      workerId = await boss.work(queue, options, async (jobs) => {
        const out = await leases.hold(
          jobs.map((j) => jobLease(j.id)),
          async (lease) => {
            const lost = () =>
              log.error(
                { queue, jobs: jobs.map((j) => j.id), err: lease.signal.reason },
                "lost the lease of running jobs: another process may run them again",
              );
            // the signal is the lease session's, shared by every job it holds: the listener
            // goes with its job, or each run would leave one behind
            lease.signal.addEventListener("abort", lost, { once: true });
            try {
              return await handler(jobs as Job<never>[], lease);
            } finally {
              lease.signal.removeEventListener("abort", lost);
            }
          },
        );
        // a job's id is its own: only a bug could find its lease taken
        if (!out.held) throw new Error(`the lease of a ${queue} job is held elsewhere`);
        // a full batch means more are waiting: fetch again at once, not after the interval
        if (workerId && jobs.length >= (options.batchSize ?? 1)) boss.notifyWorker(workerId);
        return out.value;
      });
      return workerId;
    },
    every,
    reclaimDeadJobs,
  };
}
