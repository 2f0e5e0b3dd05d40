import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CATALOGUE_SYNC_QUEUE,
  registerCatalogueJobs,
  requestCatalogueSync,
} from "../../../src/commerce/catalogue/sync-job.ts";
import { products } from "../../../src/db/schema.ts";
import { createJobRunner, type JobRunner } from "../../../src/jobs/runner.ts";
import { createLogger } from "../../../src/logger.ts";
import { SupplierError } from "../../../src/supplier/types.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import {
  createFakeSupplier,
  type FakeSupplier,
  generateCatalogue,
} from "../../helpers/fake-supplier.ts";

async function until<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  what: string,
): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe(`catalogue sync job (${testDriver})`, () => {
  let t: TestDatabase;
  let jobs: JobRunner;
  let supplier: FakeSupplier;
  const logger = createLogger({ level: "silent" });
  const productCount = async () =>
    ((await t.handle.db.select({ n: count() }).from(products).where(eq(products.listed, true)))[0]
      ?.n ?? 0) as number;

  beforeAll(async () => {
    t = await createTestDatabase();
    jobs = createJobRunner({ database: t.handle, logger });
    await jobs.start();
    supplier = createFakeSupplier(generateCatalogue(300, 5));
    await registerCatalogueJobs(jobs, {
      db: t.handle.db,
      supplier,
      logger,
      cron: "0 3 * * *",
      pollingIntervalSeconds: 0.5,
    });
    jobs.markReady();
  });
  afterAll(async () => {
    await jobs.stop();
    await t.destroy();
  });

  it("creates a one-at-a-time queue on a cron schedule", async () => {
    const queue = await jobs.boss.getQueue(CATALOGUE_SYNC_QUEUE);
    expect(queue).toMatchObject({ name: CATALOGUE_SYNC_QUEUE, policy: "stately" });
    const schedules = await jobs.boss.getSchedules();
    expect(schedules).toContainEqual(
      expect.objectContaining({ name: CATALOGUE_SYNC_QUEUE, cron: "0 3 * * *" }),
    );
  });

  it("syncs the catalogue when asked", async () => {
    const id = await requestCatalogueSync(jobs);
    expect(id).toBeTruthy();
    await until(productCount, (n) => n === 300, "the sync job");
    const job = await until(
      () => jobs.boss.getJobById(CATALOGUE_SYNC_QUEUE, id!),
      (j) => j?.state === "completed",
      "the job to complete",
    );
    expect(job?.output).toMatchObject({ total: 300, added: 300 });
  });

  it("fails the job and keeps the catalogue when the supplier fails", async () => {
    supplier.lists.prepaid = [];
    supplier.failures.game = new SupplierError("SERVER_ERROR", "HTTP 502");
    const id = await requestCatalogueSync(jobs);
    const job = await until(
      () => jobs.boss.getJobById(CATALOGUE_SYNC_QUEUE, id!),
      (j) => j?.state === "failed",
      "the job to fail",
    );
    expect(JSON.stringify(job?.output)).toContain("HTTP 502");
    expect(await productCount()).toBe(300);
  });
});
