// The README's test command (`npm test`): lint, typecheck, the console's tests, the server's and
// the browser stories, each run whatever the one before it did, so that one run says everything
// that fails (a failing lint once hid the whole suite behind it). Exits 1 when any step failed.
//
// Lint and typecheck run at once: each keeps one core busy (ESLint and tsc are single-threaded),
// and on two cores they finish together in the time of the longer. Their outputs are printed
// whole, one after the other, as each ends. The test suites run one after another: each already
// uses every core (vitest's workers; the browser, the server and the console under Playwright).
import { spawn } from "node:child_process";

const STAGES = [["lint", "typecheck"], ["test:unit"], ["test:server"], ["test:e2e"]];

/** Runs `npm run <step>`: its output straight through when alone, else kept until it ends. */
function run(step, alone) {
  const started = Date.now();
  const child = spawn("npm", ["run", "--silent", step], {
    stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"],
  });
  const output = [];
  child.stdout?.on("data", (chunk) => output.push(chunk));
  child.stderr?.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`\nnpm test: ${step} ${code === 0 ? "passed" : "FAILED"} in ${seconds} s\n`);
      resolve(code === 0);
    });
  });
}

const failed = [];
for (const stage of STAGES) {
  const results = await Promise.all(stage.map((step) => run(step, stage.length === 1)));
  stage.forEach((step, i) => results[i] || failed.push(step));
}
console.log(
  failed.length === 0 ? "npm test: every step passed" : `npm test: failed: ${failed.join(", ")}`,
);
process.exit(failed.length === 0 ? 0 : 1);
