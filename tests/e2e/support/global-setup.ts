/**
 * Seeds one DATA_DIR for the whole browser run: a server starts on it once (migrating and seeding
 * the demo campus), stops, and every spec's server that would seed the same starts from a copy
 * (startServer, E2E_TEMPLATE_DIR). Removed when the run ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

import { SCRATCH_DIR } from "../../support/scratch";
import { e2ePort } from "./ports";
import { startServer } from "./server";

export default async function globalSetup() {
  const template = mkdtempSync(join(SCRATCH_DIR, "wallet-e2e-template-"));
  const server = await startServer({ port: e2ePort(199), dataDir: template });
  await server.stop({ keepData: true });
  process.env.E2E_TEMPLATE_DIR = template;
  return () => rmSync(template, { recursive: true, force: true });
}
