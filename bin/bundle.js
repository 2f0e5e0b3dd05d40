// which entry `kios` runs: the bundle in dist/ (bin/build.js) while no source was written after
// it, else the TypeScript sources. Plain JavaScript: it runs before any loader is registered.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function anyNewer(dir, since) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.name === "node_modules" || entry.name === "test") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (anyNewer(path, since)) return true;
    } else if (entry.name.endsWith(".ts") && statSync(path).mtimeMs > since) {
      return true;
    }
  }
  return false;
}

/** the bundle's entry under root, if it exists and no .ts under src/ or packages/ is newer */
export function currentBundle(root) {
  const entry = join(root, "dist", "cli.js");
  let built;
  try {
    built = statSync(entry).mtimeMs;
  } catch {
    return undefined;
  }
  const stale = anyNewer(join(root, "src"), built) || anyNewer(join(root, "packages"), built);
  return stale ? undefined : entry;
}
