// The README's test command (`npm test`): lint, typecheck, the console's tests, the server's and
// the browser stories, each run whatever the one before it did, so that one run says everything
// that fails (a failing lint once hid the whole suite behind it). Exits 1 when any step failed.
//
// Every step is CPU-bound and the machine CI runs on has two cores, so the run takes about the
// CPU time of all its steps over the cores, as long as no core idles. First the console's suite
// (two workers) beside the console's build and the typecheck; then three lanes at once, each
// running its steps one after another:
// - the browser stories (Playwright's two workers): the longest step, and one that waits on its
//   browsers and servers enough to leave a share of both cores;
// - lint, then the server suite on PostgreSQL when TEST_POSTGRES_URL names one (.ci/run starts
//   one);
// - the server suite on the embedded store.
// Each server suite has one worker on two cores (VITEST_MAX_WORKERS; a project's `maxWorkers`
// in vite.config.ts wins over the command line's `--maxWorkers`), more on a bigger machine.
// The browser stories print as they go; every other step prints whole when it ends.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

const postgres = process.env.TEST_POSTGRES_URL?.trim();

/** `npm run <script>`. */
const npmScript = (script) => ({ name: script, command: "npm", args: ["run", "--silent", script] });

/** Playwright's workers (playwright.config.ts); the server suites share the cores left. */
const browserWorkers = Number(process.env.E2E_WORKERS) > 0 ? Number(process.env.E2E_WORKERS) : 2;
const serverWorkers = String(
  Math.max(1, Math.floor((availableParallelism() - browserWorkers) / (postgres ? 2 : 1))),
);

/** The server suite (both of its vitest projects), its results in test-results/<report>.json. */
const serverSuite = (name, report, env = {}) => ({
  name,
  command: "npx",
  args: [
    "vitest",
    "run",
    "--project",
    "server",
    "--project",
    "server-openapi",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=test-results/${report}.json`,
  ],
  env: { VITEST_MAX_WORKERS: serverWorkers, ...env },
});

const STAGES = [
  // The console's suite beside the build and the typecheck only: its render-heavy tests took up
  // to 18 s of their 20 s beside the browser stories and both server suites. The typecheck is
  // here so that the lanes below end together (after it, the embedded suite ended ~70 s after
  // the others, on one core).
  [[npmScript("test:unit")], [npmScript("build:e2e"), npmScript("typecheck")]],
  [
    // Only on the build just made (a stale dist/ would test yesterday's console).
    [
      {
        name: "test:e2e",
        command: "npx",
        args: ["playwright", "test"],
        live: true,
        needs: "build:e2e",
      },
    ],
    [
      npmScript("lint"),
      ...(postgres
        ? [serverSuite("test:server on PostgreSQL", "server-postgres", { DATABASE_URL: postgres })]
        : []),
    ],
    [serverSuite("test:server", "server-pglite")],
  ],
];

/** Runs one step: its output straight through when `live`, else kept until it ends. */
function run(step, live) {
  const started = Date.now();
  const child = spawn(step.command, step.args, {
    stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...step.env },
  });
  const output = [];
  child.stdout?.on("data", (chunk) => output.push(chunk));
  child.stderr?.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      // On a line of its own, even in the middle of a live lane's line.
      if (output.length > 0) process.stdout.write(Buffer.concat([Buffer.from("\n"), ...output]));
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`\nnpm test: ${step.name} ${code === 0 ? "passed" : "FAILED"} in ${seconds} s\n`);
      resolve(code === 0);
    });
  });
}

const failed = [];
for (const stage of STAGES) {
  await Promise.all(
    stage.map(async (lane) => {
      for (const step of lane) {
        if (step.needs && failed.includes(step.needs)) {
          console.log(`\nnpm test: ${step.name} not run: ${step.needs} failed\n`);
          failed.push(step.name);
        } else if (!(await run(step, step.live === true))) failed.push(step.name);
      }
    }),
  );
}
console.log(
  failed.length === 0 ? "npm test: every step passed" : `npm test: failed: ${failed.join(", ")}`,
);
process.exit(failed.length === 0 ? 0 : 1);
