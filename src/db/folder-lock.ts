import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

// PGlite is PostgreSQL in one process's memory: two of them on one folder (a second
// `npm start`, or `kios ledger verify` beside a running shop) each cache and write the same
// files without knowing of the other, which corrupts the database or leaves one waiting
// forever on a transaction only the other knew. So a folder is opened by one PGlite at a
// time: a lock file beside it names the process holding it, and a lock whose process is gone
// (a crash, a SIGKILL) is taken over.

/** the folders this process has open */
const openHere = new Set<string>();

class FolderInUseError extends Error {
  constructor(dir: string, holder: number | "this process") {
    super(
      `the embedded database folder ${dir} is already open ${
        holder === "this process" ? "in this process" : `by another kios (pid ${holder})`
      }: stop that one first (Ctrl-C), or give this one a folder of its own with PGLITE_DIR`,
    );
    this.name = "FolderInUseError";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** holds `dir` for this process until the returned release is called */
export function lockFolder(dir: string): () => void {
  const key = resolve(dir);
  if (openHere.has(key)) throw new FolderInUseError(dir, "this process");
  const file = `${key}.lock`;
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const holder = Number.parseInt(readFileSync(file, "utf8"), 10);
    // our own pid in a file this process did not write: a crashed run whose pid came back
    if (Number.isSafeInteger(holder) && holder !== process.pid && alive(holder)) {
      throw new FolderInUseError(dir, holder);
    }
    writeFileSync(file, `${process.pid}\n`);
  }
  openHere.add(key);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    openHere.delete(key);
    rmSync(file, { force: true });
  };
}
