import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { currentBundle } from "../bin/bundle.js";
import { buildPgliteTemplate, prepareSchema } from "../src/app/open-database.ts";
import { openDatabase } from "../src/db/client.ts";
import { schemaKey } from "../src/db/pglite.ts";
import { buildBundle } from "./helpers/bundle.ts";
import { withDatabase } from "./helpers/postgres-url.ts";

// builds one migrated database (app tables + pg-boss schema) per run, which every test
// file then clones: a PGlite dump to load, or a PostgreSQL template database.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string | null;
    /** the `kios` entry tests spawn (test/helpers/kios-cli.ts) */
    kiosEntry: string;
  }
}

/** the production template folder, dumped once for tests to load into memory */
async function pgliteTemplateDump(): Promise<string> {
  const dir = await buildPgliteTemplate();
  const file = `${dir}.tar.gz`;
  if (existsSync(file)) return file;
  // opening a folder writes to it: dump a copy, never the template itself
  const copy = join(mkdtempSync(join(tmpdir(), "kios-template-")), "pgdata");
  cpSync(dir, copy, { recursive: true });
  const pg = await PGlite.create(copy);
  try {
    const dump = await pg.dumpDataDir("gzip");
    writeFileSync(`${file}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
    renameSync(`${file}.${process.pid}`, file);
  } finally {
    await pg.close();
    rmSync(copy, { recursive: true, force: true });
  }
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
      await prepareSchema(handle);
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

/**
 * the bundle of today's sources, which a spawned `kios` runs: dist/ while it is current (as
 * bin/kios.js chooses), else one built for this run. An edited checkout would otherwise run
 * every spawned command from the sources through tsx, twice the CPU per spawn, which is what
 * made the CLI tests time out on a loaded machine (docs/reliability.md#the-suite-under-contention).
 */
function kiosEntry(): { entry: string; built?: string } {
  const current = currentBundle(join(import.meta.dirname, ".."));
  if (current) return { entry: current };
  const entry = buildBundle();
  return { entry, built: dirname(entry) };
}

export default async function setup(project: TestProject) {
  const hash = schemaKey();
  project.provide("pgliteTemplate", await pgliteTemplateDump());
  const url = process.env.TEST_DATABASE_URL;
  project.provide("postgresTemplate", url ? await postgresTemplate(url, hash) : null);
  const kios = kiosEntry();
  project.provide("kiosEntry", kios.entry);
  return () => {
    if (kios.built) rmSync(kios.built, { recursive: true, force: true });
  };
}
