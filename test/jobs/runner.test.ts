import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner, type JobRunner } from "../../src/jobs/runner.ts";
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

  it("stops cleanly and reports it", async () => {
    const other = createJobRunner({
      database: t.handle,
      logger: createLogger({ level: "silent" }),
    });
    await other.start();
    await other.stop();
    expect(other.state).toBe("stopped");
  });
});
