import { join } from "node:path";

import { buildApp, type App } from "../../../server/app";
import type { TestDatabase } from "./database";

export const REPORT_URL = "/v1/api/calculator/report";

/** The API with the report's settings in `env`, logging at info level into `logs` (one JSON line each). */
export async function createReportApp(
  testDb: TestDatabase,
  env: Record<string, string>,
): Promise<{ app: App; logs: string[] }> {
  const logs: string[] = [];
  const app = await buildApp({
    config: testDb.config({ LOG_LEVEL: "info", ...env }),
    database: testDb.database,
    distDir: join(testDb.dataDir, "no-console-here"),
    logStream: { write: (line) => void logs.push(line) },
  });
  return { app, logs };
}

let sequence = 0;

/** A new recipient for each report, so the per-address limit only bites where a test wants it. */
export function freshRecipient(): string {
  sequence += 1;
  return `visitor.${process.pid}.${sequence}@mail.example`;
}

/** A fresh client address for each test, so the per-IP limit only bites where a test wants it. */
export function freshIp(): string {
  sequence += 1;
  return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
}

export function sendReport(app: App, payload: unknown, options: { ip?: string } = {}) {
  return app.inject({
    method: "POST",
    url: REPORT_URL,
    payload: payload as Record<string, unknown>,
    remoteAddress: options.ip ?? freshIp(),
  });
}
