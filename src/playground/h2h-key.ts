import { randomBytes } from "node:crypto";
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";

// the playground's H2H_ENCRYPTION_KEY: the H2H API is one of the journeys it shows, and a
// newcomer has set nothing. The key seals the demo resellers' API keys at rest, so it lives
// in the data folder beside the database and is made once: a restart on the same folder
// opens the keys made before it.

const PLAYGROUND_H2H_KEY_FILE = "h2h-encryption-key";

/** where the key lives for PGLITE_DIR: in its data folder (./data/h2h-encryption-key) */
export function playgroundH2hKeyPath(pgliteDir: string): string {
  return join(dirname(resolve(pgliteDir)), PLAYGROUND_H2H_KEY_FILE);
}

const newKey = () => randomBytes(32).toString("hex");

/**
 * the key in the data folder, created on the first start (0600) and read on every later
 * one; an in-memory database gets one for this process only (its keys go with it)
 */
export function playgroundH2hKey(pgliteDir: string): string {
  if (pgliteDir.startsWith("memory://")) return newKey();
  const path = playgroundH2hKeyPath(pgliteDir);
  const existing = readKey(path);
  if (existing !== undefined) return existing;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // written beside, then linked into place: two starts at once agree on one key, and a
  // crash mid-write never leaves a short key to be read later
  const partial = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(partial, `${newKey()}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(partial, 0o600);
  try {
    linkSync(partial, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    rmSync(partial, { force: true });
  }
  const made = readKey(path);
  if (made === undefined) throw new Error(`${path}: not a usable H2H key (delete it to make one)`);
  return made;
}

function readKey(path: string): string | undefined {
  let text: string;
  try {
    if (!statSync(path).isFile()) throw new Error(`${path} is not a file`);
    text = readFileSync(path, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  if (text.length < 32) throw new Error(`${path}: not a usable H2H key (delete it to make one)`);
  return text;
}
