import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

// `npm run check` runs bin/check-citations.js: every rule a comment cites is a rule of
// docs/design.md, every docs link lands on a heading, and nothing points outside the repo.

const CHECKER = join(import.meta.dirname, "..", "..", "bin", "check-citations.js");
const RULES_DOC = `# Design\n\n<a id="rule-1"></a>\n**1. Stored before sent.**\n\n<a id="rule-2"></a>\n**2. Unknown is not failed.**\n`;

let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

/** a small repository holding docs/design.md and the files given; the checker's verdict on it */
function check(files: Record<string, string>): { status: number | null; output: string } {
  const root = mkdtempSync(join(tmpdir(), "kios-citations-"));
  roots.push(root);
  for (const [path, text] of Object.entries({ "docs/design.md": RULES_DOC, ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: root });
  const run = spawnSync(process.execPath, [CHECKER, root], { encoding: "utf8" });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("bin/check-citations.js", () => {
  it("passes citations of rules docs/design.md has", () => {
    const { status, output } = check({
      "src/a.ts": "// design rule 1: stored before sent; see docs/design.md#rule-2\n",
      "docs/b.md": "See [design rule 2](design.md#rule-2) and [the rules](design.md#design).\n",
    });
    expect(output).toContain("citations ok (2 design rules)");
    expect(status).toBe(0);
  });

  it("fails on a rule number docs/design.md does not have", () => {
    const { status, output } = check({ "src/a.ts": "// design rules 2 and 7 say so\n" });
    expect(output).toContain("src/a.ts:1: design rule 7 is not in docs/design.md");
    expect(output).not.toContain("design rule 2 is not");
    expect(status).toBe(1);
    expect(check({ "src/a.ts": "// docs/design.md#rule-9\n" }).status).toBe(1);
  });

  it("fails on a bare rule number, which names no list", () => {
    const { status, output } = check({ "src/a.ts": "/** Rule 14: evidence, not truth */\n" });
    expect(output).toContain('"Rule 14": cite it as "design rule N"');
    expect(status).toBe(1);
  });

  it("fails on what points outside the repository", () => {
    for (const text of [
      // spelled in pieces: this test file itself must name nothing outside the repository
      `readFileSync("../${"sha"}${"red"}/supplier-signature-vectors.json")\n`,
      `// see ${"supplier-api"}.md\n`,
      `// ${"DES"}${"IGN"} rule 8\n`,
      "// the document's record has a price\n",
    ]) {
      expect(check({ "test/a.test.ts": text }).status, text).toBe(1);
    }
  });

  it("fails on a docs link to a page or heading that does not exist", () => {
    expect(check({ "src/a.ts": "// docs/missing.md\n" }).status).toBe(1);
    expect(check({ "src/a.ts": "// docs/design.md#no-such-heading\n" }).status).toBe(1);
    expect(check({ "docs/b.md": "[x](design.md#nowhere)\n" }).status).toBe(1);
    expect(check({ "docs/b.md": "[x](../README.md)\n" }).status).toBe(1);
  });
});
