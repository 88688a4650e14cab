// Totals the JSON reports of every suite .ci/run ran into one line "N passed, N failed".
// A step that failed without a report of its own (lint, typecheck, a crash) counts as one failure.
import { readdirSync, readFileSync } from "node:fs";

const dir = "test-results";
let passed = 0;
let failed = 0;
const lines = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  const report = JSON.parse(readFileSync(`${dir}/${file}`, "utf8"));
  let p = 0;
  let f = 0;
  if (report.stats && "expected" in report.stats) {
    // Playwright: expected = passed, unexpected = failed, flaky passed on retry.
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
  } else {
    // Vitest (Jest-compatible JSON).
    p = report.numPassedTests ?? 0;
    f = report.numFailedTests ?? 0;
    // A file that failed to load has no failed tests but must still count.
    if (f === 0) f = report.numFailedTestSuites ?? 0;
  }
  lines.push(`  ${file}: ${p} passed, ${f} failed`);
  passed += p;
  failed += f;
}
if (process.argv[2] === "1" && failed === 0) {
  lines.push("  a step without a test report failed (lint, typecheck or a crash)");
  failed += 1;
}
console.log(lines.join("\n"));
console.log(`${passed} passed, ${failed} failed`);
