import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdsDatabase, openPgliteFolder, pgliteTemplate } from "../../src/db/pglite.ts";

// the embedded database's folders: a new one is a copy of a prepared template (no initdb),
// an existing one is opened as it is. PGlite only: these are about its folders.

describe("PGlite folders", () => {
  let root: string;
  let prepared = 0;
  const prepare = async (pg: PGlite) => {
    prepared += 1;
    await pg.exec(
      "create table prepared_here (id int primary key); insert into prepared_here values (1)",
    );
  };
  const template = () => pgliteTemplate({ prepare, cacheDir: join(root, "cache") });
  const open = new Map<PGlite, () => void>();
  const openFolder = async (dir: string, t?: () => Promise<string>) => {
    const { pglite, release } = await openPgliteFolder(dir, t);
    open.set(pglite, release);
    return pglite;
  };
  /** closes a PGlite and frees its folder, as the database handle's close does */
  const closeFolder = async (pg: PGlite) => {
    await pg.close();
    open.get(pg)?.();
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "kios-pglite-"));
  });
  afterAll(async () => {
    for (const pg of open.keys()) if (!pg.closed) await closeFolder(pg);
    rmSync(root, { recursive: true, force: true });
  });

  it("a new folder starts from the prepared template, built once for every folder after", async () => {
    const first = await openFolder(join(root, "shop-a"), template);
    const second = await openFolder(join(root, "shop-b"), template);
    for (const pg of [first, second]) {
      const { rows } = await pg.query<{ id: number }>("select id from prepared_here");
      expect(rows).toEqual([{ id: 1 }]);
    }
    expect(prepared).toBe(1);
    // the two shops are copies, not one folder: a write to one is not in the other
    await first.exec("insert into prepared_here values (2)");
    expect((await second.query("select id from prepared_here")).rows).toHaveLength(1);
    // nothing half-made is left beside them: only each open folder's lock
    expect(readdirSync(root).sort()).toEqual([
      "cache",
      "shop-a",
      "shop-a.lock",
      "shop-b",
      "shop-b.lock",
    ]);
  });

  it("an existing folder is opened as it is: the template is not asked for", async () => {
    const dir = join(root, "existing");
    const pg = await openFolder(dir, template);
    await pg.exec("create table mine (x int); insert into mine values (42)");
    await closeFolder(pg);
    let asked = false;
    const again = await openFolder(dir, async () => {
      asked = true;
      return template();
    });
    expect((await again.query("select x from mine")).rows).toEqual([{ x: 42 }]);
    expect(asked).toBe(false);
  });

  it("a folder is open to one PGlite at a time: a second opener is refused until the first closes", async () => {
    const dir = join(root, "one-at-a-time");
    const pg = await openFolder(dir, template);
    await expect(openPgliteFolder(dir, template)).rejects.toThrow(
      /already open in this process.*PGLITE_DIR/,
    );
    // another live process's lock (this process's parent stands in for a second kios)
    await closeFolder(pg);
    writeFileSync(`${dir}.lock`, `${process.ppid}\n`);
    await expect(openPgliteFolder(dir, template)).rejects.toThrow(
      new RegExp(`by another kios \\(pid ${process.ppid}\\)`),
    );
    // a lock left by a process that is gone (a crash) is taken over
    writeFileSync(`${dir}.lock`, "2147483646\n");
    const again = await openFolder(dir, template);
    expect(readFileSync(`${dir}.lock`, "utf8").trim()).toBe(String(process.pid));
    await closeFolder(again);
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it("an empty folder made beforehand (a mounted volume) still gets the template", async () => {
    const dir = join(root, "volume");
    mkdirSync(dir);
    const pg = await openFolder(dir, template);
    expect((await pg.query("select id from prepared_here")).rows).toEqual([{ id: 1 }]);
  });

  it("a build that fails leaves no template, and the next start builds it again", async () => {
    const cacheDir = join(root, "failing-cache");
    let attempts = 0;
    const flaky = async (pg: PGlite) => {
      attempts += 1;
      if (attempts === 1) throw new Error("power cut");
      await prepare(pg);
    };
    await expect(pgliteTemplate({ prepare: flaky, cacheDir })).rejects.toThrow("power cut");
    expect(readdirSync(cacheDir)).toEqual([]);
    const dir = await pgliteTemplate({ prepare: flaky, cacheDir });
    expect(holdsDatabase(dir)).toBe(true);
    expect(attempts).toBe(2);
  });

  it("runs with small shared buffers, so a small shop's process stays small", async () => {
    const pg = await openFolder(join(root, "buffers"), template);
    const { rows } = await pg.query<{ shared_buffers: string }>("show shared_buffers");
    expect(rows[0]?.shared_buffers).toBe("8MB");
  });
});
