import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * bundles kios as `npm install` does (bin/build.js), into a new folder inside the project (its
 * npm packages are resolved from there, as from dist/); returns its entry
 */
export function buildBundle(): string {
  const cache = join(ROOT, "node_modules", ".cache", "kios");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "bundle-"));
  execFileSync(process.execPath, [join(ROOT, "bin", "build.js"), dir], { stdio: "pipe" });
  return join(dir, "cli.js");
}
