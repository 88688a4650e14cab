// The README's test command (`npm test`): lint, typecheck, the console's tests, the server's and
// the browser stories, each run whatever the one before it did, so that one run says everything
// that fails (a failing lint once hid the whole suite behind it). Exits 1 when any step failed.
//
// A stage is a list of lanes that run at once; a lane is a list of steps run one after another.
// Lint and typecheck run at once: each keeps one core busy (ESLint and tsc are single-threaded),
// and on two cores they finish together in the time of the longer. The console's suite uses
// every core (vitest's workers) and runs alone. The browser stories run two spec files at a time
// (playwright.config.ts) and keep about one core busy between them, so the server suite on
// PostgreSQL runs beside them on one worker when TEST_POSTGRES_URL names a server (.ci/run starts
// one); the server suite on the embedded store follows, alone. A step alone in its stage, or
// marked live (the browser stories), prints as it goes; the others print whole as each ends.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

const postgres = process.env.TEST_POSTGRES_URL?.trim();

/** `npm run <script>`, or a command of its own with extra environment. */
const npmScript = (script) => ({ name: script, command: "npm", args: ["run", "--silent", script] });
/** The server suite (`npm run test:server`), its results in test-results/<report>.json. */
const serverSuite = (name, report, env = {}) => ({
  name,
  command: "npx",
  args: [
    "vitest",
    "run",
    "--project",
    "server",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=test-results/${report}.json`,
  ],
  env,
});

/**
 * Beside the browser stories, on the cores their two workers leave (one on two cores): the
 * server suite on PostgreSQL, the lighter one (the database works in its own processes; the
 * embedded store's runs inside the test workers and took 21 minutes on one worker there). Set
 * through VITEST_MAX_WORKERS: a project's `maxWorkers` (vite.config.ts, inherited from the root)
 * wins over the command line's `--maxWorkers`, which left two workers running.
 */
const besideBrowser = { VITEST_MAX_WORKERS: String(Math.max(1, availableParallelism() - 2)) };

const STAGES = [
  [[npmScript("lint")], [npmScript("typecheck")]],
  [[npmScript("test:unit")]],
  [
    [{ ...npmScript("test:e2e"), live: true }],
    ...(postgres
      ? [
          [
            serverSuite("test:server on PostgreSQL", "server-postgres", {
              ...besideBrowser,
              DATABASE_URL: postgres,
            }),
          ],
        ]
      : []),
  ],
  // Then on the embedded store, with every core.
  [[serverSuite("test:server", "server-pglite")]],
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
  const alone = stage.length === 1 && stage[0].length === 1;
  await Promise.all(
    stage.map(async (lane) => {
      for (const step of lane) {
        if (!(await run(step, alone || step.live === true))) failed.push(step.name);
      }
    }),
  );
}
console.log(
  failed.length === 0 ? "npm test: every step passed" : `npm test: failed: ${failed.join(", ")}`,
);
process.exit(failed.length === 0 ? 0 : 1);
