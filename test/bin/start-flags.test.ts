import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { START_HEAP_FLAGS } from "../campaign/processes.ts";

// `npm start` and the Procfile start node with a heap sized for a small VPS, and the test
// and benchmark processes start as they do. Measured (docs/performance.md): after 5,000
// updates V8's default heap, sized from the machine's memory, kept 200+ MiB of garbage
// for a live set of about 55 MiB

const root = new URL("../../", import.meta.url);
const flags = START_HEAP_FLAGS.join(" ");

/** V8's heap limit in MiB for the flags as a POSIX shell expands them, with `env` */
function heapLimitMiB(env: Record<string, string>): number {
  const script = `node ${flags} -e "console.log(require('v8').getHeapStatistics().heap_size_limit)"`;
  const out = execFileSync("sh", ["-c", script], {
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
  });
  return Number(out.trim()) / 2 ** 20;
}

describe("the heap kios starts with", () => {
  it("is the same in npm start, the Procfile and the processes tests start", () => {
    const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe(`node ${flags} bin/kios.js start`);
    const procfile = readFileSync(new URL("Procfile", root), "utf8");
    for (const role of ["web", "worker"]) {
      expect(procfile).toContain(`${role}: node ${flags} bin/kios.js start --role ${role}`);
    }
  });

  it("is 192 MiB of old space unless KIOS_HEAP_MIB says", () => {
    const byDefault = heapLimitMiB({});
    // the old space's limit, plus the young generation's (8 MiB semi-spaces)
    expect(byDefault).toBeGreaterThanOrEqual(192);
    expect(byDefault).toBeLessThan(192 + 64);
    const raised = heapLimitMiB({ KIOS_HEAP_MIB: "512" });
    expect(raised).toBeGreaterThanOrEqual(512);
    expect(raised).toBeLessThan(512 + 64);
  });
});
