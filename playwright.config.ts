import { defineConfig } from "@playwright/test";

/** Debian's Chromium: test tools cannot download browsers on this machine. */
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/e2e/support/global-setup.ts",
  // Two spec files at a time, each on its own port, its tests in order. A spec's server starts
  // from the run's seeded copy (support/global-setup.ts, every spec's environment template-safe),
  // so no start seeds beside another file's story; one file at a time kept less than one core
  // busy. E2E_WORKERS=1 for a machine with one core.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS) > 0 ? Number(process.env.E2E_WORKERS) : 2,
  // One retry in CI: a test that fails and then passes is reported as flaky by name in the CI
  // summary (.ci/summarize.mjs), so it is seen and mended, without one slow moment of a busy
  // machine failing the whole run. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  outputDir: "test-results/e2e-artifacts",
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
    // A step that waits longer than this fails with its call log, naming what it waited for,
    // instead of the test running out of time with the step unnamed.
    actionTimeout: 60_000,
    navigationTimeout: 60_000,
    // The console honours the system's reduced-motion setting (no dialog, menu or toast
    // animations): a click then never lands on a dialog's button while it is still zooming in,
    // which on a starved CPU once sent no click at all (CI, issue 36).
    reducedMotion: "reduce",
    // A story is traced only when it is played again after a failure (CI retries once): its
    // steps' DOM snapshots, network and console, without a screencast. Recording every test and
    // throwing the trace away when it passed cost a quarter of the suite's CPU (issue 36: the
    // screencast ~370 of ~1,660 CPU seconds, the DOM snapshots ~90 more). The failure's own
    // screenshot is always taken (below); locally, `--trace on` traces a story on demand.
    trace: { mode: "on-first-retry", screenshots: false },
    screenshot: "only-on-failure",
  },
});
