/**
 * Seeds one DATA_DIR for the whole browser run: a server starts on it once (migrating and seeding
 * the demo campus), runs its start-up jobs, stops, and every spec's server that would seed the
 * same starts from a copy (startServer, E2E_TEMPLATE_DIR). Removed when the run ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

import { SCRATCH_DIR } from "../../support/scratch";
import { e2ePort } from "./ports";
import { startServer } from "./server";

/**
 * The scheduled jobs a first start runs that cost seconds (the chains' verification reads every
 * audit and ledger row; the embedded store's VACUUM ANALYZE): run once here, each copy finds them
 * done for the day instead of running them beside its story (~2 CPU-seconds a spec).
 */
const HEAVY_FIRST_JOBS = ["chain-verification", "embedded-vacuum"];

export default async function globalSetup() {
  const template = mkdtempSync(join(SCRATCH_DIR, "wallet-e2e-template-"));
  const server = await startServer({
    port: e2ePort(199),
    dataDir: template,
    env: { LOG_LEVEL: "info" },
  });
  const deadline = Date.now() + 120_000;
  while (!HEAVY_FIRST_JOBS.every((job) => server.output().includes(`"job":"${job}"`))) {
    if (Date.now() > deadline) {
      throw new Error(`the template's first jobs did not run:\n${server.output().slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await server.stop({ keepData: true });
  process.env.E2E_TEMPLATE_DIR = template;
  return () => rmSync(template, { recursive: true, force: true });
}
