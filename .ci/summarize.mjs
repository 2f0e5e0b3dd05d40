// sums vitest JSON reports into the one line CI reads: "N passed, N failed".
// a missing or unreadable report, or a failed step (check, crash), counts as a failure.
import { readFileSync } from "node:fs";

const [, , ...args] = process.argv;
const failedSteps = Number(args.pop() ?? 0);
let passed = 0;
let failed = 0;
for (const file of args) {
  try {
    const report = JSON.parse(readFileSync(file, "utf8"));
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
    if (report.numTotalTests === 0) failed += 1;
  } catch {
    console.log(`no readable report at ${file}`);
    failed += 1;
  }
}
// a step that failed without a failing test (typecheck, lint, a crashed run) still fails CI
const unexplained = failedSteps > 0 && failed === 0 ? failedSteps : 0;
console.log(`${passed} passed, ${failed + unexplained} failed`);
process.exit(failed + unexplained > 0 ? 1 : 0);
