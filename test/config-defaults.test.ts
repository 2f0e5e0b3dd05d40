import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { environmentDefaults } from "../src/config.ts";

// the README's configuration table states each default; src/config.ts applies it. One is
// read from the other here, so the two can't drift (the log once said concurrency 64 where
// the README said 256, and docs/playground.md a port the start did not use)

const ROOT = join(import.meta.dirname, "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** the README's configuration table: each row's variable names and its default cell */
function configurationRows(): { names: string[]; cell: string }[] {
  const section = readme.split("\n## Configuration\n")[1]!.split("\n## ")[0]!;
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      // a cell's own "|" is written "\|"
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
      const names = [...cells[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      return { names, cell: cells[2]! };
    });
}

/** a parsed default as the README writes it */
function written(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.join("/");
  return String(value);
}

/** rows whose default is said in words (it depends on other settings), not as a value */
const IN_WORDS = new Set([
  "HOST",
  "PAYMENT_GATEWAY",
  "MIDTRANS_BASE_URL",
  "SHOP_NAME",
  "SHOP_LOGO",
  "SUPPLIER_<n>_NAME",
]);

describe("the README's defaults", () => {
  it("are the defaults src/config.ts applies, variable by variable", () => {
    const defaults = environmentDefaults();
    const compared: string[] = [];
    const inWords: string[] = [];
    for (const { names, cell } of configurationRows()) {
      // SUPPLIER_<n>_*: a backup supplier's, read by its own schema
      const own = names.filter((n) => /^[A-Z0-9_]+$/.test(n));
      if (own.length === 0) {
        if (names.some((n) => IN_WORDS.has(n))) inWords.push(...names);
        continue;
      }
      const values = cell === "—" ? own.map(() => undefined) : cell.split(/,\s*/);
      const plain = values.every((v) => v === undefined || /^`[^`]*`$/.test(v));
      if (!plain || values.length !== own.length) {
        inWords.push(...own);
        continue;
      }
      own.forEach((name, i) => {
        expect(name in defaults, `${name} is in the README but not read by config.ts`).toBe(true);
        const stated = values[i]?.slice(1, -1);
        expect(written(defaults[name]), `${name}: README says ${stated ?? "—"}`).toBe(stated);
        compared.push(name);
      });
    }
    expect(inWords.sort()).toEqual([...IN_WORDS].sort());
    // the ones the issue found drifting, and every variable config.ts reads is in the table
    expect(compared).toEqual(expect.arrayContaining(["PORT", "INBOX_CONCURRENCY", "LOG_LEVEL"]));
    const documented = new Set([...compared, ...inWords]);
    expect(Object.keys(defaults).filter((n) => !documented.has(n))).toEqual([]);
  });

  it("the start's address in the README and docs/playground.md uses PORT's default", () => {
    const port = String(environmentDefaults().PORT);
    const playground = readFileSync(join(ROOT, "docs/playground.md"), "utf8");
    // every kios address they give (the Bot API server's own demo has a port of its own)
    const said = `${readme}\n${playground}`
      .split("\n")
      .filter((line) => !line.includes("demo-server"))
      .flatMap((line) => [...line.matchAll(/http:\/\/(?:localhost|127\.0\.0\.1):(\d+)\//g)])
      .map((m) => m[1]);
    expect(said.length).toBeGreaterThan(1);
    expect(new Set(said)).toEqual(new Set([port]));
  });
});
