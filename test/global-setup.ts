import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { currentBundle } from "../bin/bundle.js";
import { buildPgliteTemplate, prepareSchema } from "../src/app/open-database.ts";
import { openDatabase } from "../src/db/client.ts";
import { pgliteStartOptions, schemaKey } from "../src/db/pglite.ts";
import { buildBundle } from "./helpers/bundle.ts";
import { withDatabase } from "./helpers/postgres-url.ts";
import {
  SYNCED_CATALOGUES,
  type SyncedCatalogue,
  syncedCatalogueKey,
  syncHarnessCatalogue,
} from "./helpers/synced-catalogue.ts";

// builds one migrated database (app tables + pg-boss schema) per run, which every test
// file then clones: a PGlite dump to load, or a PostgreSQL template database. And the same
// with the harness's catalogue synced in it (test/helpers/synced-catalogue.ts), for the
// commerce harness's boots.

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string | null;
    /** per synced catalogue: its PGlite dump, or its PostgreSQL template database on a postgres run */
    syncedTemplates: Record<SyncedCatalogue, string>;
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

/** the migrated dump with the harness's catalogue synced in it, built once per key */
async function pgliteSyncedDump(
  migrated: string,
  key: string,
  which: SyncedCatalogue,
): Promise<string> {
  const file = join(dirname(migrated), `synced-${key}-${which.replace("+", "-")}.tar.gz`);
  if (existsSync(file)) return file;
  const pg = await PGlite.create({
    ...pgliteStartOptions(),
    loadDataDir: new Blob([readFileSync(migrated)]),
  });
  const handle = await openDatabase({ pglite: pg });
  try {
    await syncHarnessCatalogue(handle.db, which);
    const dump = await pg.dumpDataDir("gzip");
    writeFileSync(`${file}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
    renameSync(`${file}.${process.pid}`, file);
  } finally {
    await handle.close();
  }
  return file;
}

/** a template database: the migrated one with the harness's catalogue synced in it */
async function postgresSyncedTemplate(
  url: string,
  migrated: string,
  key: string,
  which: SyncedCatalogue,
): Promise<string> {
  const name = `kios_syn_${key}_${which === "main" ? "main" : "backup"}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [existing] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!existing) {
      const building = `${name}_${process.pid}`;
      await admin.unsafe(`create database ${building} template ${migrated}`);
      const handle = await openDatabase({
        databaseUrl: withDatabase(url, building),
        maxConnections: 2,
      });
      try {
        await syncHarnessCatalogue(handle.db, which);
      } finally {
        await handle.close();
      }
      await admin.unsafe(`alter database ${building} rename to ${name}`).catch(async () => {
        // another run built it meanwhile
        await admin.unsafe(`drop database if exists ${building}`);
      });
    }
  } finally {
    await admin.end();
  }
  return name;
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
  const dump = await pgliteTemplateDump();
  project.provide("pgliteTemplate", dump);
  const url = process.env.TEST_DATABASE_URL;
  const migrated = url ? await postgresTemplate(url, hash) : null;
  project.provide("postgresTemplate", migrated);
  const key = syncedCatalogueKey(hash);
  const synced = {} as Record<SyncedCatalogue, string>;
  for (const which of SYNCED_CATALOGUES) {
    synced[which] =
      url && migrated
        ? await postgresSyncedTemplate(url, migrated, key, which)
        : await pgliteSyncedDump(dump, key, which);
  }
  project.provide("syncedTemplates", synced);
  const kios = kiosEntry();
  project.provide("kiosEntry", kios.entry);
  return () => {
    if (kios.built) rmSync(kios.built, { recursive: true, force: true });
  };
}
