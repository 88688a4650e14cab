// The README's test command (`npm test`): lint, typecheck, the console's tests, the server's and
// the browser stories, each run whatever the one before it did, so that one run says everything
// that fails (a failing lint once hid the whole suite behind it). Exits 1 when any step failed.
//
// A stage is a list of lanes that run at once; a lane is a list of steps run one after another.
// Lint and typecheck run at once: each keeps one core busy (ESLint and tsc are single-threaded),
// and on two cores they finish together in the time of the longer. The console's and the
// server's suites use every core (vitest's workers) and run alone. The browser stories run one
// spec file at a time and keep less than one core busy (three of the heaviest specs: 216 s of CPU
// in 508 s, /usr/bin/time), so the server suite on PostgreSQL runs beside them, on one worker,
// when TEST_POSTGRES_URL names a server (.ci/run starts one). A step alone in its stage, or
// marked live (the browser stories), prints as it goes; the others print whole as each ends.
import { spawn } from "node:child_process";

const postgres = process.env.TEST_POSTGRES_URL?.trim();

/** `npm run <script>`, or a command of its own with extra environment. */
const npmScript = (script) => ({ name: script, command: "npm", args: ["run", "--silent", script] });
const serverOnPostgres = {
  name: "test:server on PostgreSQL",
  command: "npx",
  args: [
    "vitest",
    "run",
    "--project",
    "server",
    // One worker: the other core stays the browser stories' (two starved them: a server's first
    // start, which seeds, outran its spec's two minutes on a loaded machine).
    "--maxWorkers=1",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=test-results/server-postgres.json",
  ],
  env: { DATABASE_URL: postgres },
};

const STAGES = [
  [[npmScript("lint")], [npmScript("typecheck")]],
  [[npmScript("test:unit")]],
  [[npmScript("test:server")]],
  [[{ ...npmScript("test:e2e"), live: true }], ...(postgres ? [[serverOnPostgres]] : [])],
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
