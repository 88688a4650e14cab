import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { acquireDataDirLock } from "../../server/db/lock";
import { createTestDatabase, testEnv, type TestDatabase } from "./support/database";
import { freePort, startServer } from "./support/server-process";

describe("npm start's server process", () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    // The process under test opens the store itself.
    await testDb.database.close();
  });

  afterAll(async () => {
    await testDb?.destroy();
  });

  it("refuses a DATA_DIR another live process holds, with a clear message and exit code 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ucsi-wallet-held-"));
    const lock = await acquireDataDirLock(dir);
    try {
      const run = startServer({ ...testEnv(dir), PORT: String(await freePort()) });
      expect(await run.exit).toBe(1);
      expect(run.output()).toContain(
        `DATA_DIR ${dir} is in use by another process (pid ${process.pid})`,
      );
    } finally {
      lock.release();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("serves, prints the demo logins super administrator first, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const env = {
      ...testEnv(testDb.dataDir, testDb.url ? { DATABASE_URL: testDb.url } : {}),
      PORT: String(port),
      HOST: "127.0.0.1",
    };
    const run = startServer(env);
    try {
      await run.waitFor("also needs a code from an authenticator app");
      const lines = run.output().split("\n");
      const logins = lines.filter((line) => / \/ /.test(line) && line.includes("@wallet.example"));
      expect(logins).toEqual([
        "super administrator: superadmin@wallet.example / SuperAdmin#2026",
        "user desk: userdesk@wallet.example / UserDesk#2026",
        "finance: finance@wallet.example / Finance#2026",
        "banned administrator: banned@wallet.example / Banned#2026",
        "second super administrator: approver@wallet.example / Approver#2026",
        "finance checker: checker@wallet.example / Checker#2026",
        "two-step administrator: twostep@wallet.example / TwoStep#2026",
      ]);
      // The two-step administrator's authenticator secret, this installation's own.
      expect(run.output()).toMatch(
        /^twostep@wallet\.example also needs a code from an authenticator app: add the secret [A-Z2-7]{32} to one \(or open otpauth:\/\/totp\//m,
      );
      // The console's sign-in is named first; the root is the public calculator.
      expect(run.output()).toContain(
        `UCSI Wallet console: http://127.0.0.1:${port}/login  (the public calculator: http://127.0.0.1:${port}/;`,
      );
      const health = await fetch(`http://127.0.0.1:${port}/v1/health`);
      expect(await health.json()).toEqual({ status: "ok" });
      if (!testDb.url) expect(existsSync(join(testDb.dataDir, "server.lock"))).toBe(true);
    } finally {
      run.kill("SIGTERM");
    }
    expect(await run.exit).toBe(0);
    expect(existsSync(join(testDb.dataDir, "server.lock"))).toBe(false);
    expect(existsSync(join(testDb.dataDir, ".s.PGSQL.5432"))).toBe(false);
  });
});
