/**
 * Durability across a crash, on the database this suite runs on (PGlite in DATA_DIR, or the
 * PostgreSQL database of DATABASE_URL): the real server process takes a stream of approvals and
 * bans, is killed with SIGKILL while more are in flight, and is started again on the same data.
 * Every action the server acknowledged (200) is there, with its audit entry; nothing half-done.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { DEMO } from "./support/app";
import { createTestDatabase, testEnv, type TestDatabase } from "./support/database";
import { freePort, killMidStream, startSignedIn } from "./support/server-process";

interface Action {
  kind: "approve" | "ban";
  userId: number;
  remark: string;
}

/** Acknowledged actions before the kill; more are in flight when it lands. */
const ACKNOWLEDGED_BEFORE_KILL = 24;
const IN_FLIGHT = 4;

let testDb: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // The process under test opens the store itself.
  await testDb.database.close();
  env = {
    ...testEnv(testDb.dataDir, testDb.url ? { DATABASE_URL: testDb.url } : {}),
    PORT: String(await freePort()),
    HOST: "127.0.0.1",
    DATABASE_POOL_MAX: "4",
  };
});

afterAll(async () => {
  await testDb?.destroy();
});

const started = () => startSignedIn(env, DEMO.superAdmin);

async function get<T>(base: string, token: string, path: string): Promise<T> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: token } });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
  return (await response.json()) as T;
}

const listQuery = (filter: object) =>
  `filter=${encodeURIComponent(JSON.stringify(filter))}&pagination=${encodeURIComponent('{"page":1,"pageSize":100}')}`;

describe("a server killed with SIGKILL mid-stream", () => {
  it("keeps every acknowledged approval and ban, each with its audit entry", async () => {
    const first = await started();
    const users = (filter: object) =>
      get<{ users: Array<{ id: number }> }>(
        first.base,
        first.token,
        `/api/users/aggregation?${listQuery(filter)}`,
      ).then((body) => body.users.map((user) => user.id));
    const pending = await users({ approvalStatus: "pending", isBanned: false });
    const pendingIds = new Set(pending);
    const bannable = (await users({ isBanned: false })).filter((id) => !pendingIds.has(id));
    const queue: Action[] = [];
    for (let i = 0; i < Math.max(pending.length, bannable.length); i += 1) {
      if (pending[i]) queue.push({ kind: "approve", userId: pending[i]!, remark: `kill9 #${i}a` });
      if (bannable[i]) queue.push({ kind: "ban", userId: bannable[i]!, remark: `kill9 #${i}b` });
    }
    expect(queue.length).toBeGreaterThan(2 * ACKNOWLEDGED_BEFORE_KILL);

    const send = (action: Action) =>
      fetch(
        `${first.base}/api/users/${action.userId}/${action.kind === "approve" ? "approval-action" : "ban"}`,
        {
          method: "PATCH",
          headers: { "content-type": "application/json", authorization: first.token },
          body: JSON.stringify(
            action.kind === "approve"
              ? { action: "approve", remark: action.remark }
              : { ban: true, remark: action.remark },
          ),
        },
      );
    const { acknowledged, refusals, killed, killedWithInFlight } = await killMidStream(
      first.run,
      queue,
      {
        send,
        named: (action) => `${action.kind} ${action.userId}`,
        killAfter: ACKNOWLEDGED_BEFORE_KILL,
        inFlight: IN_FLIGHT,
      },
    );
    expect(refusals).toEqual([]);
    expect(killed).toBe(true);
    expect(await first.run.exit).toBeNull(); // died of the signal, not an exit
    expect(killedWithInFlight, "requests were in flight when the process died").toBeGreaterThan(0);

    console.info(
      `kill -9 on ${testDb.kind}: ${acknowledged.length} acknowledged, ${killedWithInFlight} in flight at the kill`,
    );
    // The same data (a stale DATA_DIR lock included) opens again.
    const second = await started();
    try {
      for (const action of acknowledged) {
        const user = await get<{ approvalStatus: string; isBanned: boolean }>(
          second.base,
          second.token,
          `/api/users/${action.userId}`,
        );
        if (action.kind === "approve") expect(user.approvalStatus, action.remark).toBe("approved");
        else expect(user.isBanned, action.remark).toBe(true);
        const audit = await get<{ entries: Array<{ action: string; remark: string | null }> }>(
          second.base,
          second.token,
          `/api/users/${action.userId}/audit?page=1&pageSize=100`,
        );
        const entries = audit.entries.filter((entry) => entry.remark === action.remark);
        expect(entries, `${action.remark}: ${JSON.stringify(audit.entries)}`).toHaveLength(1);
        expect(entries[0]!.action).toMatch(action.kind === "approve" ? /approve$/ : /ban$/);
      }
    } finally {
      second.run.kill("SIGTERM");
      await second.run.exit;
    }
  }, 240_000);
});
