import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { lockFolder } from "./folder-lock.ts";

// A new PGlite folder costs an initdb: a second PostgreSQL instance in WebAssembly, about
// five seconds and 500 MiB that the process keeps. Instead, a new folder is a copy of one
// that was initialised and migrated once per schema version (0.2 s); migrations still run
// after, so a template that falls behind costs time, never correctness.

const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const MIGRATIONS_FOLDER = join(PROJECT_ROOT, "drizzle");
/** where templates are kept between starts: rebuilt after a clean install */
const TEMPLATE_CACHE = join(PROJECT_ROOT, "node_modules", ".cache", "kios");

/**
 * how kios starts PGlite: 16 MB of shared buffers instead of PostgreSQL's 128 MB, which a
 * small shop's database does not fill and which would otherwise be resident memory; and
 * pg_trgm, the catalogue search's index (drizzle/0014)
 */
export function pgliteStartOptions(): {
  startParams: string[];
  extensions: { pg_trgm: typeof pg_trgm };
} {
  return {
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=8MB"],
    extensions: { pg_trgm },
  };
}

function installedVersion(pkg: string): string {
  try {
    const file = join(PROJECT_ROOT, "node_modules", pkg, "package.json");
    return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? "?";
  } catch {
    return "?";
  }
}

/**
 * what a migrated database depends on: the migrations, pg-boss's schema and PGlite's
 * on-disk format. Two builds with the same key are interchangeable.
 */
export function schemaKey(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(MIGRATIONS_FOLDER, { recursive: true }).map(String).sort()) {
    if (file.endsWith(".sql") || file.endsWith(".json")) {
      hash.update(file).update(readFileSync(join(MIGRATIONS_FOLDER, file)));
    }
  }
  hash.update(installedVersion("pg-boss")).update(installedVersion("@electric-sql/pglite"));
  return hash.digest("hex").slice(0, 12);
}

/** a PGlite folder that holds a database already (PGlite writes PG_VERSION at initdb) */
export function holdsDatabase(dir: string): boolean {
  return existsSync(join(dir, "PG_VERSION"));
}

export interface TemplateOptions {
  /** brings a new, empty database to the current schema (migrations, job tables) */
  prepare(pglite: PGlite): Promise<void>;
  cacheDir?: string;
}

/**
 * the folder of a prepared database for the current schema, built when absent: in a folder
 * of its own, then renamed into place, so a crashed or concurrent build is never taken for
 * a finished one.
 */
export async function pgliteTemplate(options: TemplateOptions): Promise<string> {
  const cache = options.cacheDir ?? TEMPLATE_CACHE;
  const dir = join(cache, `pglite-${schemaKey()}`);
  if (holdsDatabase(dir)) return dir;
  mkdirSync(cache, { recursive: true });
  const building = `${dir}.${process.pid}.building`;
  rmSync(building, { recursive: true, force: true });
  const pglite = await PGlite.create(building, pgliteStartOptions());
  try {
    await options.prepare(pglite);
  } catch (err) {
    await pglite.close();
    rmSync(building, { recursive: true, force: true });
    throw err;
  }
  await pglite.close();
  moveIntoPlace(building, dir);
  return dir;
}

/** renames `from` to `to`; when `to` appeared meanwhile (another builder), keeps that one */
function moveIntoPlace(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    rmSync(from, { recursive: true, force: true });
    if (!holdsDatabase(to)) throw err;
  }
}

/**
 * opens a PGlite on `dir`, copying the template into it when the folder is new; `release`
 * frees the folder for the next opener once the PGlite is closed (folder-lock.ts)
 */
export async function openPgliteFolder(
  dir: string,
  template: (() => Promise<string>) | undefined,
): Promise<{ pglite: PGlite; release: () => void }> {
  if (dir.startsWith("memory://")) {
    return { pglite: await PGlite.create(dir, pgliteStartOptions()), release: () => {} };
  }
  const release = lockFolder(dir);
  try {
    return { pglite: await createInFolder(dir, template), release };
  } catch (err) {
    release();
    throw err;
  }
}

async function createInFolder(
  dir: string,
  template: (() => Promise<string>) | undefined,
): Promise<PGlite> {
  if (!holdsDatabase(dir) && template) {
    const source = await template();
    // copied beside, then renamed: a copy cut short by a crash is never opened as a database
    const copying = `${dir}.${process.pid}.copying`;
    rmSync(copying, { recursive: true, force: true });
    cpSync(source, copying, { recursive: true });
    if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
    moveIntoPlace(copying, dir);
  }
  mkdirSync(dir, { recursive: true });
  return PGlite.create(dir, pgliteStartOptions());
}
