// Totals the JSON reports of every suite .ci/run ran into one line "N passed, N failed", after the
// names of the failed tests (so the last lines of a CI log say what failed, not only how many).
// A step that failed without a report of its own (lint, typecheck, a crash) counts as one failure.
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";

const dir = "test-results";
const MAX_NAMED = 20;
let passed = 0;
let failed = 0;
const lines = [];
const failures = [];
/** Browser tests that failed once and passed on their retry: counted as passed, named here. */
const flaky = [];

/** The first line of a failure's message, without terminal colours. */
const firstLine = (text) =>
  String(text ?? "")
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "")
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim()
    .slice(0, 200) ?? "";

/**
 * What a browser test's attempt failed with. A timeout's first error only says that time ran
 * out; the others (with their places in the spec) say which step was waiting.
 */
function attemptErrors(result) {
  const errors = result?.errors?.length ? result.errors : [result?.error];
  return errors
    .map((error) => {
      const at = error?.location
        ? ` (${basename(error.location.file)}:${error.location.line})`
        : "";
      return `${firstLine(error?.message)}${at}`;
    })
    .join(" / ");
}

/** Playwright's suites nest: walk them for specs whose tests did not pass at first. */
function playwrightFailures(suites, file, path = []) {
  for (const suite of suites ?? []) {
    const title = suite.title && suite.title !== suite.file ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      const name = `${file} › ${[...title, spec.title].join(" › ")}`;
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        if (test.status === "flaky") {
          // (An attempt a serial group skipped after an earlier test failed is no failure.)
          const failedAttempt = results.find(
            (result) => result.status !== "passed" && result.status !== "skipped",
          );
          flaky.push(`${name}: ${attemptErrors(failedAttempt)}`);
        } else if (test.status === "unexpected") {
          failures.push(`${name}: ${attemptErrors(results[results.length - 1])}`);
        }
      }
    }
    playwrightFailures(suite.suites, suite.file ?? file, title);
  }
}

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  const report = JSON.parse(readFileSync(`${dir}/${file}`, "utf8"));
  let p = 0;
  let f = 0;
  if (report.stats && "expected" in report.stats) {
    // Playwright: expected = passed, unexpected = failed, flaky passed on retry.
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    playwrightFailures(report.suites, file);
  } else {
    // Vitest (Jest-compatible JSON).
    p = report.numPassedTests ?? 0;
    f = report.numFailedTests ?? 0;
    for (const result of report.testResults ?? []) {
      const name = result.name?.replace(/^.*?\/tests\//, "tests/") ?? file;
      for (const test of result.assertionResults ?? []) {
        if (test.status === "failed") {
          failures.push(
            `${name} › ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
          );
        }
      }
      if (
        result.status === "failed" &&
        !(result.assertionResults ?? []).some((t) => t.status === "failed")
      ) {
        failures.push(`${name}: ${firstLine(result.message)}`);
      }
    }
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
if (failures.length > 0) {
  console.log("failed:");
  for (const failure of failures.slice(0, MAX_NAMED)) console.log(`  ${failure}`);
  if (failures.length > MAX_NAMED) console.log(`  … and ${failures.length - MAX_NAMED} more`);
}
if (flaky.length > 0) {
  console.log("flaky (failed, then passed on retry):");
  for (const name of flaky.slice(0, MAX_NAMED)) console.log(`  ${name}`);
}
console.log(lines.join("\n"));
console.log(`${passed} passed, ${failed} failed`);
