import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { MIGRATIONS_FOLDER, openDatabase } from "../src/db/client.ts";
import { createJobRunner } from "../src/jobs/runner.ts";
import { createLogger } from "../src/logger.ts";
import { withDatabase } from "./helpers/postgres-url.ts";

// builds one migrated database (app tables + pg-boss schema) per run, which every test
// file then clones: a PGlite dump to load, or a PostgreSQL template database.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string | null;
  }
}

function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    const path = join(MIGRATIONS_FOLDER, file);
    if (file.endsWith(".sql") || file.endsWith(".json"))
      hash.update(file).update(readFileSync(path));
  }
  const bossVersion = JSON.parse(readFileSync("node_modules/pg-boss/package.json", "utf8")).version;
  return hash.update(bossVersion).digest("hex").slice(0, 12);
}

async function migrateEverything(handle: Awaited<ReturnType<typeof openDatabase>>) {
  await handle.migrate();
  const jobs = createJobRunner({
    database: handle,
    logger: createLogger({ level: "silent" }),
    supervise: false,
  });
  await jobs.start();
  await jobs.stop();
}

async function pgliteTemplate(hash: string): Promise<string> {
  const dir = join("node_modules", ".cache", "kios-test");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `pglite-${hash}.tar.gz`);
  if (existsSync(file)) return file;
  const pg = await PGlite.create();
  const handle = await openDatabase({ pglite: pg });
  await migrateEverything(handle);
  const dump = await pg.dumpDataDir("gzip");
  await pg.close();
  writeFileSync(`${file}.tmp`, Buffer.from(await dump.arrayBuffer()));
  const { renameSync } = await import("node:fs");
  renameSync(`${file}.tmp`, file);
  return file;
}

async function postgresTemplate(url: string, hash: string): Promise<string> {
  const name = `kios_tpl_${hash}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [existing] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!existing) {
      await admin.unsafe(`create database ${name}_building`);
      const building = withDatabase(url, `${name}_building`);
      const handle = await openDatabase({ databaseUrl: building, maxConnections: 2 });
      await migrateEverything(handle);
      await handle.close();
      await admin.unsafe(`alter database ${name}_building rename to ${name}`).catch(async () => {
        // another run built it meanwhile
        await admin.unsafe(`drop database if exists ${name}_building`);
      });
    }
  } finally {
    await admin.end();
  }
  return name;
}

export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  project.provide("pgliteTemplate", await pgliteTemplate(hash));
  const url = process.env.TEST_DATABASE_URL;
  project.provide("postgresTemplate", url ? await postgresTemplate(url, hash) : null);
}
