#!/usr/bin/env node
// npm run check: every citation in the repository points at something the repository holds.
// - a rule is cited as "design rule N" or docs/design.md#rule-N, and N is a rule of
//   docs/design.md; a bare "rule N" is ambiguous (several lists are numbered) and refused
// - a link to docs/<page>.md#<anchor> names a page and a heading (or <a id>) that exist
// - nothing points outside the repository: not the folder beside it nor a file that lives only there,
//   and no code comment leans on "the document" instead of the section that states it
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

// what lives beside the repository and never in it: the folder the project's notes come
// from, the supplier's own document, and the design notes' upper-case name. Spelled in
// pieces, so that this file names none of them itself
const OUTSIDE = new RegExp(`\\.\\./${"sha"}${"red"}\\b|${"supplier-api"}\\.md`);
const OUTSIDE_NOTES_NAME = new RegExp(`\\b${"DES"}${"IGN"}\\b`);

// the repository to check: this one, or the folder given (the checker's own test)
const root = process.argv[2] ?? join(import.meta.dirname, "..");
const TEXT = /\.(ts|js|mjs|cjs|md|json|sh|yml|yaml)$|(^|\/)(Procfile|run)$/;
// this checker and its test name what it refuses
const SELF = ["bin/check-citations.js", "test/bin/check-citations.test.ts"];

function trackedFiles() {
  const out = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: root });
  return out
    .toString()
    .split("\n")
    .filter(
      (f) =>
        f &&
        TEXT.test(f) &&
        !SELF.includes(f) &&
        !f.startsWith("drizzle/") &&
        existsSync(join(root, f)),
    );
}

/** the anchors a markdown page offers: GitHub's heading slugs and explicit ids */
function anchorsOf(page) {
  const text = readFileSync(page, "utf8");
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const base = heading[1]
        .trim()
        .toLowerCase()
        .replace(/<[^>]*>/g, "")
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-");
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

const anchorCache = new Map();
function hasAnchor(page, anchor) {
  if (!anchorCache.has(page)) anchorCache.set(page, anchorsOf(page));
  return anchorCache.get(page).has(anchor);
}

const designPage = join(root, "docs", "design.md");
const rules = new Set(
  [...readFileSync(designPage, "utf8").matchAll(/<a id="rule-(\d+)"><\/a>/g)].map((m) =>
    Number(m[1]),
  ),
);

const problems = [];
for (const file of trackedFiles()) {
  const text = readFileSync(join(root, file), "utf8");
  const isCode = /\.(ts|js|mjs|cjs)$/.test(file);
  const isMarkdown = file.endsWith(".md");
  text.split("\n").forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    if (OUTSIDE.test(line)) {
      if (!/test\/fixtures\/supplier-signature-vectors\.json/.test(line)) {
        problems.push(`${at}: points outside the repository: ${line.trim()}`);
      }
    }
    if (OUTSIDE_NOTES_NAME.test(line)) {
      problems.push(`${at}: cites the design notes outside the repository; cite docs/design.md`);
    }
    if (isCode && /\bthe document('s)?\b/i.test(line)) {
      problems.push(`${at}: "the document": cite the section of docs/supplier.md that states it`);
    }
    for (const m of line.matchAll(
      /\b(design\s+)?rules?\s+(\d+(?:(?:\s*,\s*|\s+and\s+|\s*&\s*)\d+)*)/gi,
    )) {
      const numbers = m[2].split(/\D+/).filter(Boolean).map(Number);
      if (!m[1]) {
        problems.push(`${at}: "${m[0]}": cite it as "design rule N" (docs/design.md)`);
        continue;
      }
      for (const n of numbers)
        if (!rules.has(n)) problems.push(`${at}: design rule ${n} is not in docs/design.md`);
    }
    for (const m of line.matchAll(/docs\/design\.md#rule-(\d+)/g)) {
      if (!rules.has(Number(m[1])))
        problems.push(`${at}: docs/design.md#rule-${m[1]} does not exist`);
    }
    // links to a page of docs/ (from anywhere), and relative links between markdown pages
    const links = [...line.matchAll(/\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g)].map((m) => ({
      page: join(root, "docs", m[1]),
      anchor: m[2],
      shown: m[0],
    }));
    if (isMarkdown) {
      for (const m of line.matchAll(/\]\(([^)\s#]*\.md)?(?:#([\w-]+))?\)/g)) {
        if (!m[1] && !m[2]) continue;
        if (m[1] && /^[a-z]+:/.test(m[1])) continue;
        const page = m[1] ? normalize(join(root, dirname(file), m[1])) : join(root, file);
        links.push({ page, anchor: m[2], shown: m[0] });
      }
    }
    for (const link of links) {
      if (!existsSync(link.page)) {
        problems.push(`${at}: ${link.shown}: no page ${relative(root, link.page)}`);
      } else if (link.anchor && !hasAnchor(link.page, link.anchor)) {
        problems.push(
          `${at}: ${link.shown}: ${relative(root, link.page)} has no heading #${link.anchor}`,
        );
      }
    }
  });
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`${problems.length} citation(s) to fix`);
  process.exit(1);
}
console.log(`citations ok (${rules.size} design rules)`);
