import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { agents, auditLog, users } from "../../server/db/schema";
import type { UserDetail } from "../../src/shared/schemas/users";
import { AGENT_TYPES } from "../../src/shared/agents";
import { auth, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let app: App;
let token: string;
let deskAdminId: number;
/** Logged in once: each login hashes a password on purpose slowly. */
let finance: Awaited<ReturnType<typeof login>>;
const fixture = { agentId: 0, studentId: 0 };

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  const desk = await login(app, DEMO.userDesk);
  token = desk.token;
  deskAdminId = desk.admin.id;
  finance = await login(app, DEMO.finance);
  const db = testDb.database.db;
  const [agent, student] = await db
    .insert(users)
    .values([
      { accountNumber: "AG0000001", name: "Agent Fixture", role: "agent" },
      { accountNumber: "AG0000002", name: "Student Fixture", role: "student" },
    ])
    .returning();
  await db.insert(agents).values({ userId: agent!.id, agentType: "campus", commissionRateBp: 150 });
  Object.assign(fixture, { agentId: agent!.id, studentId: student!.id });
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

const post = (path: string, payload: unknown, as = token) =>
  app.inject({
    method: "POST",
    url: `/v1/user-mgmt/agent/${path}`,
    headers: auth(as),
    payload: payload as object,
  });

async function storedAgent() {
  const [row] = await testDb.database.db
    .select()
    .from(agents)
    .where(eq(agents.userId, fixture.agentId));
  return row!;
}

async function lastAudit(action: string) {
  const [entry] = await testDb.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(fixture.agentId))))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return entry;
}

describe("POST /user-mgmt/agent/change-agent-type", () => {
  it("changes the type and records it in the user's history", async () => {
    const response = await post("change-agent-type", {
      account_number: "AG0000001",
      agent_type: "merchant",
    });
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json<UserDetail>();
    expect(detail.agent).toEqual({ agentType: "merchant", commissionRateBp: 150 });
    expect((await storedAgent()).agentType).toBe("merchant");
    expect(await lastAudit("agent.change_type")).toMatchObject({
      adminId: deskAdminId,
      targetTable: "users",
      before: { agentType: "campus", commissionRateBp: 150 },
      after: { agentType: "merchant", commissionRateBp: 150 },
    });
  });

  it("refuses a type outside the closed set, naming the field", async () => {
    const response = await post("change-agent-type", {
      account_number: "AG0000001",
      agent_type: "pirate",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^Invalid agent_type: /);
    expect(AGENT_TYPES).not.toContain("pirate");
    expect((await storedAgent()).agentType).toBe("merchant");
  });

  it("refuses unknown fields and a missing account number", async () => {
    const extra = await post("change-agent-type", {
      account_number: "AG0000001",
      agent_type: "campus",
      colour: "red",
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe("Invalid colour: Unknown field");
    const missing = await post("change-agent-type", { agent_type: "campus" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe("Invalid account_number: Required");
  });

  it("404 for an unknown account and for a user who is not an agent", async () => {
    const unknown = await post("change-agent-type", {
      account_number: "NOPE",
      agent_type: "campus",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: "NOT_FOUND", message: "User not found" });
    const student = await post("change-agent-type", {
      account_number: "AG0000002",
      agent_type: "campus",
    });
    expect(student.statusCode).toBe(404);
    expect(student.json()).toEqual({ code: "NOT_FOUND", message: "Agent not found" });
  });
});

describe("POST /user-mgmt/agent/change-agent-commission", () => {
  it.each([
    [12.34, 1234],
    ["12.5", 1250],
    [0.29, 29],
    [100, 10_000],
    [0, 0],
  ])("stores %s percent as %i basis points, with an audit entry", async (rate, basisPoints) => {
    const before = (await storedAgent()).commissionRateBp;
    const response = await post("change-agent-commission", {
      account_number: "AG0000001",
      commission_rate: rate,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<UserDetail>().agent?.commissionRateBp).toBe(basisPoints);
    expect((await storedAgent()).commissionRateBp).toBe(basisPoints);
    expect(await lastAudit("agent.change_commission")).toMatchObject({
      targetTable: "users",
      before: { commissionRateBp: before },
      after: { commissionRateBp: basisPoints },
    });
  });

  it.each([101, -1, 1.234, "abc", "", 1e-7, "100.01", true, null])(
    "refuses %j with a clear message and changes nothing",
    async (rate) => {
      const before = await storedAgent();
      const response = await post("change-agent-commission", {
        account_number: "AG0000001",
        commission_rate: rate,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        "Invalid commission_rate: Must be a percentage from 0 to 100 with at most two decimals",
      );
      expect(await storedAgent()).toEqual(before);
    },
  );

  it("404 for a user who is not an agent", async () => {
    const response = await post("change-agent-commission", {
      account_number: "AG0000002",
      commission_rate: 5,
    });
    expect(response.statusCode).toBe(404);
  });
});

describe("who may change agents", () => {
  it.each([
    ["change-agent-type", "Change Agent Type", { agent_type: "campus" }],
    ["change-agent-commission", "Change Agent Commission", { commission_rate: 1 }],
  ])("%s: 403 for finance, who lacks code 0", async (path, thing, payload) => {
    expect(finance.admin.permissions).toEqual([33, 35, 37]);
    const before = await storedAgent();
    const response = await post(path, { account_number: "AG0000001", ...payload }, finance.token);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: `You have no permission to access POST ${thing}` });
    expect(await storedAgent()).toEqual(before);
  });
});

// The seed's calls above are aliases of the users declaration's agent actions; these are the
// actions' own routes, which the console's dialogs call.
describe("PATCH /api/users/{id}/agent-type and /agent-commission", () => {
  const patch = (id: number, path: string, payload: unknown, as = token) =>
    app.inject({
      method: "PATCH",
      url: `/v1/api/users/${id}/${path}`,
      headers: auth(as),
      payload: payload as object,
    });

  it("changes the terms, answers the user and audits the terms before and after", async () => {
    const before = await storedAgent();
    const type = await patch(fixture.agentId, "agent-type", { agentType: "external" });
    expect(type.statusCode, type.body).toBe(200);
    expect(type.json()).toMatchObject({ id: fixture.agentId, accountNumber: "AG0000001" });
    expect(await lastAudit("agent.change_type")).toMatchObject({
      targetTable: "users",
      before: { agentType: before.agentType, commissionRateBp: before.commissionRateBp },
      after: { agentType: "external", commissionRateBp: before.commissionRateBp },
    });

    const rate = await patch(fixture.agentId, "agent-commission", { commissionRateBp: 275 });
    expect(rate.statusCode, rate.body).toBe(200);
    expect((await storedAgent()).commissionRateBp).toBe(275);
    expect(await lastAudit("agent.change_commission")).toMatchObject({
      after: { agentType: "external", commissionRateBp: 275 },
    });
  });

  it("writes no audit entry when the value is the one it has", async () => {
    const { agentType } = await storedAgent();
    const last = await lastAudit("agent.change_type");
    const again = await patch(fixture.agentId, "agent-type", { agentType });
    expect(again.statusCode).toBe(200);
    expect((await lastAudit("agent.change_type"))?.id).toBe(last?.id);
  });

  it("refuses a rate outside 0–10000 basis points or not whole, changing nothing", async () => {
    const before = await storedAgent();
    for (const commissionRateBp of [-1, 10_001, 12.5, "150", null]) {
      const response = await patch(fixture.agentId, "agent-commission", { commissionRateBp });
      expect(response.statusCode, JSON.stringify(commissionRateBp)).toBe(400);
      expect(response.json().message).toMatch(/^Invalid commissionRateBp: /);
    }
    expect(await storedAgent()).toEqual(before);
  });

  it("404 Agent for a user without agent terms; 403 for finance", async () => {
    const student = await patch(fixture.studentId, "agent-type", { agentType: "campus" });
    expect(student.statusCode).toBe(404);
    expect(student.json()).toEqual({ code: "NOT_FOUND", message: "Agent not found" });
    const refused = await patch(
      fixture.agentId,
      "agent-type",
      { agentType: "campus" },
      finance.token,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: "You have no permission to access PATCH Change Agent Type",
    });
  });
});
