import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureQueue } from "../../src/jobs/queues.ts";
import {
  createJobRunner,
  type JobRunner,
  jobLease,
  RECLAIM_GRACE_SECONDS,
} from "../../src/jobs/runner.ts";
import { createLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

describe(`job runner (${testDriver})`, () => {
  let t: TestDatabase;
  let jobs: JobRunner;
  beforeAll(async () => {
    t = await createTestDatabase();
    jobs = createJobRunner({ database: t.handle, logger: createLogger({ level: "silent" }) });
    await jobs.start();
  });
  afterAll(async () => {
    await jobs.stop();
    await t.destroy();
  });

  it("runs on the app's own database", () => {
    expect(jobs.state).toBe("running");
  });

  it("sends a job and sees it run", async () => {
    const seen: unknown[] = [];
    await jobs.boss.createQueue("test-echo");
    const done = new Promise<void>((resolve) => {
      void jobs.boss.work<{ n: number }>(
        "test-echo",
        { pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          seen.push(job?.data);
          resolve();
        },
      );
    });
    const id = await jobs.boss.send("test-echo", { n: 7 });
    expect(id).toBeTruthy();
    await done;
    expect(seen).toEqual([{ n: 7 }]);
  });

  it("a job's lease listener goes with its job: a long run adds none (no MaxListeners warning)", async () => {
    await ensureQueue(jobs.boss, "test-listeners", {
      policy: "standard",
      expireInSeconds: 60,
      retryLimit: 0,
    });
    const listeners: number[] = [];
    let ran = 0;
    let next: () => void = () => {};
    await jobs.work("test-listeners", { pollingIntervalSeconds: 0.5 }, async (_batch, lease) => {
      listeners.push(getEventListeners(lease.signal, "abort").length);
      ran += 1;
      next();
    });
    for (let i = 0; i < 15; i++) {
      const done = new Promise<void>((resolve) => {
        next = resolve;
      });
      await jobs.boss.send("test-listeners", { i });
      await done;
    }
    expect(ran).toBe(15);
    // each run sees only its own listener, never the ones of the runs before it
    expect(Math.max(...listeners)).toBe(1);
  });

  it("stops cleanly and reports it", async () => {
    const other = createJobRunner({
      database: t.handle,
      logger: createLogger({ level: "silent" }),
    });
    await other.start();
    await other.stop();
    expect(other.state).toBe("stopped");
  });

  it("brings an existing queue's policy and expiry in line", async () => {
    await jobs.boss.createQueue("test-settings", { name: "test-settings", policy: "standard" });
    await ensureQueue(jobs.boss, "test-settings", {
      policy: "stately",
      expireInSeconds: 42,
      retryLimit: 3,
    });
    expect(await jobs.boss.getQueue("test-settings")).toMatchObject({
      policy: "stately",
      expireInSeconds: 42,
      retryLimit: 3,
    });
  });

  it("takes back a dead process's job within seconds, and the queue behind it moves", async () => {
    const q = "test-dead";
    await ensureQueue(jobs.boss, q, { policy: "stately", expireInSeconds: 600, retryLimit: 2 });
    await jobs.boss.send(q, { n: 1 });
    // a process takes the job and dies: active, with no lease held (pg-boss alone would
    // keep it, and the stately queue behind it, for the 10-minute expiry)
    const [taken] = await jobs.boss.fetch<{ n: number }>(q);
    expect(taken?.data).toEqual({ n: 1 });
    await jobs.boss.send(q, { n: 2 });
    const seen: number[] = [];
    const t0 = Date.now();
    const done = new Promise<void>((resolve) => {
      void jobs.work<{ n: number }>(q, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
        seen.push(job!.data.n);
        if (seen.length === 2) resolve();
      });
    });
    await done;
    expect(seen.sort()).toEqual([1, 2]);
    // the grace, a reclaim tick and a poll: seconds, not the expiry
    expect(Date.now() - t0).toBeLessThan(20_000);
  });

  it("leaves a live job alone however long it runs", async () => {
    const q = "test-live";
    await ensureQueue(jobs.boss, q, { policy: "standard", expireInSeconds: 600, retryLimit: 2 });
    let runs = 0;
    let finish!: () => void;
    const slow = new Promise<void>((r) => {
      finish = r;
    });
    let started!: (id: string) => void;
    const running = new Promise<string>((r) => {
      started = r;
    });
    await jobs.work(q, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      runs += 1;
      started(job!.id);
      await slow;
    });
    await jobs.boss.send(q, {});
    const id = await running;
    await new Promise((r) => setTimeout(r, (RECLAIM_GRACE_SECONDS + 1) * 1000));
    expect(await jobs.leases.free([jobLease(id)])).toEqual(new Set());
    expect(await jobs.reclaimDeadJobs()).toBe(0);
    finish();
    expect(runs).toBe(1);
  });
});
