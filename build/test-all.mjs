// The README's test command (`npm test`): lint, typecheck, the console's tests, the server's and
// the browser stories, each run whatever the one before it did, so that one run says everything
// that fails (a failing lint once hid the whole suite behind it). Exits 1 when any step failed.
import { spawnSync } from "node:child_process";

const STEPS = ["lint", "typecheck", "test:unit", "test:server", "test:e2e"];

const failed = [];
for (const step of STEPS) {
  const started = Date.now();
  const { status } = spawnSync("npm", ["run", "--silent", step], { stdio: "inherit" });
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`\nnpm test: ${step} ${status === 0 ? "passed" : "FAILED"} in ${seconds} s\n`);
  if (status !== 0) failed.push(step);
}
console.log(
  failed.length === 0 ? "npm test: every step passed" : `npm test: failed: ${failed.join(", ")}`,
);
process.exit(failed.length === 0 ? 0 : 1);
