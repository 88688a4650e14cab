import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { changeContactSubmissions } from "../../server/db/schema";
import type { ChangeContactSubmissionDto } from "../../src/shared/modules/change-contact";
import {
  auditEntries,
  call,
  expectError,
  expectNoPermission,
  findUser,
  insertUser,
  useUserDeskSuite,
} from "./support/user-fixtures";

const suite = useUserDeskSuite();

async function submit(
  userId: number,
  contactType: "email" | "phone",
  newValue: string,
  values: Partial<typeof changeContactSubmissions.$inferInsert> = {},
) {
  const [row] = await suite.db
    .insert(changeContactSubmissions)
    .values({ userId, contactType, newValue, ...values })
    .returning();
  return row!;
}

async function submission(id: number) {
  const [row] = await suite.db
    .select()
    .from(changeContactSubmissions)
    .where(eq(changeContactSubmissions.id, id));
  return row;
}

type List = { totalCount: number; changeContactSubmissions: ChangeContactSubmissionDto[] };
const list = (params: Record<string, unknown>, token = suite.desk) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) search.set(key, JSON.stringify(value));
  return call(suite.app, token, "GET", `/api/change-contact-submissions?${search.toString()}`);
};

describe("GET /api/change-contact-submissions", () => {
  it("lists the seeded submissions newest first, with the user's name and account number", async () => {
    const response = await list({ pagination: { pageSize: 100 } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<List>();
    expect(body.totalCount).toBeGreaterThan(0);
    const times = body.changeContactSubmissions.map((s) => Date.parse(s.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(body.changeContactSubmissions[0]).toEqual(
      expect.objectContaining({ userName: expect.any(String), accountNumber: expect.any(String) }),
    );
  });

  it("filters by status and contact type, and searches the user's name and the values", async () => {
    const user = await insertUser(suite.db, { name: "Quintessa Searchable" });
    const mine = await submit(user.id, "phone", "+60 19-555 0001", { oldValue: user.phone });
    const filtered = await list({
      filter: { status: "pending", contactType: "phone", $search: "quintessa" },
    });
    expect(filtered.json<List>().changeContactSubmissions.map((s) => s.id)).toEqual([mine.id]);
    const byValue = await list({ filter: { $search: "19-555 0001" } });
    expect(byValue.json<List>().changeContactSubmissions.map((s) => s.id)).toEqual([mine.id]);
    const byAccount = await list({ filter: { $search: user.accountNumber } });
    expect(byAccount.json<List>().totalCount).toBe(1);
    const pendingOnly = await list({
      filter: { status: "pending" },
      pagination: { pageSize: 100 },
    });
    expect(
      pendingOnly.json<List>().changeContactSubmissions.every((s) => s.status === "pending"),
    ).toBe(true);
  });

  it("refuses an unknown field or a malformed parameter with 400 INVALID_QUERY", async () => {
    const body = expectError(await list({ filter: { secret: 1 } }), 400, "INVALID_QUERY");
    expect(body.message).toContain('field "secret" is not filterable');
    const raw = await call(
      suite.app,
      suite.desk,
      "GET",
      "/api/change-contact-submissions?sort=%7Bnope",
    );
    expectError(raw, 400, "INVALID_QUERY");
  });

  it("needs the User permission (0)", async () => {
    expectNoPermission(await list({}, suite.finance), "GET", "Change Contact Submissions");
  });
});

describe("PATCH /api/change-contact-submissions/{id}", () => {
  const decide = (id: number, payload: unknown, token = suite.desk) =>
    call(suite.app, token, "PATCH", `/api/change-contact-submissions/${id}`, payload);

  it("approving an e-mail change updates the user in the same call, with audit entries", async () => {
    const user = await insertUser(suite.db);
    const row = await submit(user.id, "email", "new.address@example.com", { oldValue: user.email });
    const response = await decide(row.id, { action: "approve", remark: "Verified by phone" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ChangeContactSubmissionDto>()).toMatchObject({
      id: row.id,
      status: "approved",
      remark: "Verified by phone",
      reviewerId: suite.deskAdminId,
      accountNumber: user.accountNumber,
    });
    expect((await findUser(suite.db, user.id))?.email).toBe("new.address@example.com");

    const [userEntry] = await auditEntries(suite.db, "users", user.id);
    expect(userEntry).toMatchObject({
      action: "user.change_contact",
      remark: "Verified by phone",
      before: { email: user.email },
      after: { email: "new.address@example.com" },
    });
    const [submissionEntry] = await auditEntries(suite.db, "change_contact_submissions", row.id);
    expect(submissionEntry).toMatchObject({
      adminId: suite.deskAdminId,
      action: "change_contact.approve",
      before: { status: "pending" },
      after: { status: "approved", remark: "Verified by phone" },
    });
  });

  it("approving a phone change updates the phone", async () => {
    const user = await insertUser(suite.db);
    const row = await submit(user.id, "phone", "+60 11-2222 3333");
    expect((await decide(row.id, { action: "approve", remark: "OK" })).statusCode).toBe(200);
    expect((await findUser(suite.db, user.id))?.phone).toBe("+60 11-2222 3333");
  });

  it("rejecting leaves the user's contact as it was", async () => {
    const user = await insertUser(suite.db);
    const row = await submit(user.id, "email", "rejected.change@example.com");
    const response = await decide(row.id, { action: "reject", remark: "Not the owner" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ChangeContactSubmissionDto>().status).toBe("rejected");
    expect((await findUser(suite.db, user.id))?.email).toBe(user.email);
    expect(await auditEntries(suite.db, "users", user.id)).toEqual([]);
  });

  it("refuses to decide twice (409 ALREADY_DECIDED)", async () => {
    const user = await insertUser(suite.db);
    const row = await submit(user.id, "phone", "+60 11-9999 0000");
    expect((await decide(row.id, { action: "reject", remark: "No" })).statusCode).toBe(200);
    expectError(await decide(row.id, { action: "approve", remark: "Yes" }), 409, "ALREADY_DECIDED");
    expect((await submission(row.id))?.status).toBe("rejected");
    expect((await findUser(suite.db, user.id))?.phone).toBe(user.phone);
  });

  it("refuses an e-mail another user already has (409 EMAIL_TAKEN), changing nothing", async () => {
    const owner = await insertUser(suite.db, { email: "Taken.Address@example.com" });
    const user = await insertUser(suite.db);
    const row = await submit(user.id, "email", "taken.address@EXAMPLE.com");
    const body = expectError(
      await decide(row.id, { action: "approve", remark: "OK" }),
      409,
      "EMAIL_TAKEN",
    );
    expect(body.message).toContain("taken.address@EXAMPLE.com");
    expect((await submission(row.id))?.status).toBe("pending");
    expect((await findUser(suite.db, user.id))?.email).toBe(user.email);
    expect((await findUser(suite.db, owner.id))?.email).toBe("Taken.Address@example.com");
    expect(await auditEntries(suite.db, "change_contact_submissions", row.id)).toEqual([]);
  });

  it("refuses bad input, unknown ids and callers without permission", async () => {
    const user = await insertUser(suite.db);
    const row = await submit(user.id, "phone", "+60 11-1111 1111");
    expectError(await decide(row.id, { action: "approve", remark: "" }), 400, "VALIDATION_ERROR");
    expectError(
      await decide(row.id, { action: "approve", remark: "x".repeat(501) }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(
      await decide(row.id, { action: "approve", remark: "x", status: "approved" }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(await decide(2_000_000_000, { action: "approve", remark: "x" }), 404, "NOT_FOUND");
    expectNoPermission(
      await decide(row.id, { action: "approve", remark: "x" }, suite.finance),
      "PATCH",
      "Change Contact Submission",
    );
    expect((await submission(row.id))?.status).toBe("pending");
  });
});
