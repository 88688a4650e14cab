import { count, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { agents, riders, users, wallets } from "../../server/db/schema";
import type { UserDetail, UserDto, UserList } from "../../src/shared/schemas/users";
import { auth, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

let testDb: TestDatabase;
let app: App;
let token: string;
/** Every user in the default order (createdAt desc, id desc). */
let everyone: UserDto[];
const fixture = { riderId: 0, agentId: 0, bareId: 0 };

/** Users with known facts, beside the 600 seeded ones. */
async function insertFixtures() {
  const db = testDb.database.db;
  const [rider, agent, bare] = await db
    .insert(users)
    .values([
      {
        accountNumber: "X000000001",
        name: "Zhang Wei Fixture",
        email: "Rider.Fixture@Example.com",
        phone: "+60 3-7777 1234",
        role: "rider",
        approvalStatus: "approved",
        approvalRemark: "Verified at the counter",
        isVip: true,
        lastActiveAt: new Date("2026-09-20T08:30:00Z"),
        createdAt: new Date("2025-06-15T10:00:00Z"),
      },
      {
        accountNumber: "X000000002",
        name: "Agent Fixture",
        email: "agent.fixture@example.com",
        phone: "+60 12-000 0002",
        role: "agent",
        approvalStatus: "approved",
        isBanned: true,
        banRemark: "Chargeback abuse",
        url: "https://agent.example",
        createdAt: new Date("2025-06-30T15:59:59Z"), // 23:59:59 on 30 June in Kuala Lumpur
      },
      {
        accountNumber: "X000000003",
        name: "Bare Fixture",
        role: "student",
        createdAt: new Date("2025-06-30T16:00:00Z"), // midnight, 1 July, in Kuala Lumpur
      },
    ])
    .returning();
  await db.insert(wallets).values([
    { userId: rider!.id, balanceSen: 123_456, status: "active" },
    { userId: agent!.id, balanceSen: 5, status: "frozen" },
  ]);
  await db.insert(riders).values({
    userId: rider!.id,
    vehicleType: "motorcycle",
    plate: "WA 1234",
    licenceNumber: "D12345678",
    verificationStatus: "Rejected",
    verificationRemarks: "Licence photo expired",
  });
  await db
    .insert(agents)
    .values({ userId: agent!.id, agentType: "campus", commissionRateBp: 1234 });
  Object.assign(fixture, { riderId: rider!.id, agentId: agent!.id, bareId: bare!.id });
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  token = (await login(app, DEMO.userDesk)).token;
  await insertFixtures();
  everyone = [];
  for (let page = 1; ; page += 1) {
    const { users: rows } = await list({ pagination: { page, pageSize: 100 } });
    everyone.push(...rows);
    if (rows.length < 100) break;
  }
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

type Params = { filter?: unknown; sort?: unknown; pagination?: unknown } & Record<string, unknown>;

/** Encodes each parameter as the console does: JSON, unless given as a raw string. */
function query(params: Params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    search.set(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  return `/v1/api/users/aggregation?${search.toString()}`;
}

const request = (params: Params, as = token) =>
  app.inject({ url: query(params), headers: auth(as) });
const getUser = (id: number | string, as = token) =>
  app.inject({ url: `/v1/api/users/${id}`, headers: auth(as) });

async function list(params: Params): Promise<UserList> {
  const response = await request(params);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every match of `filter`, as account numbers in the default order. */
async function matches(filter: unknown): Promise<string[]> {
  const { totalCount, users: rows } = await list({ filter, pagination: { pageSize: 100 } });
  expect(rows.length).toBe(Math.min(totalCount, 100));
  return rows.map((user) => user.accountNumber);
}

const accounts = (rows: UserDto[]) => rows.slice(0, 100).map((user) => user.accountNumber);
const where = (test: (user: UserDto) => boolean) => accounts(everyone.filter(test));

describe("GET /v1/api/users/aggregation: valid queries", () => {
  it("lists the first page of 10, newest first, with the total count", async () => {
    const [stored] = await testDb.database.db.select({ n: count() }).from(users);
    const page = await list({});
    expect(page.totalCount).toBe(stored?.n);
    expect(everyone).toHaveLength(page.totalCount);
    expect(page.users).toEqual(everyone.slice(0, 10));
    const order = everyone.map((user) => [Date.parse(user.createdAt), user.id] as const);
    const sorted = [...order].sort(([a, i], [b, j]) => b - a || j - i);
    expect(order).toEqual(sorted);
    expect(Object.keys(page.users[0]!).sort()).toEqual(
      [
        "accountNumber",
        "approvalRemark",
        "approvalStatus",
        "banRemark",
        "createdAt",
        "email",
        "id",
        "isBanned",
        "isVip",
        "lastActiveAt",
        "name",
        "phone",
        "role",
        "updatedAt",
        "url",
        // The record's version (docs/versions.md).
        "version",
      ].sort(),
    );
  });

  it("pages with page and pageSize", async () => {
    const page = await list({ pagination: { page: 3, pageSize: 7 } });
    expect(page.users).toEqual(everyone.slice(14, 21));
    const beyond = await list({ pagination: { page: 1000 } });
    expect(beyond).toEqual({ totalCount: everyone.length, users: [], totalCountExact: true });
  });

  it("filters by role, approval status, banned and VIP", async () => {
    for (const role of ["student", "staff", "public", "merchant", "rider", "agent"]) {
      expect(await matches({ role })).toEqual(where((u) => u.role === role));
    }
    for (const approvalStatus of ["pending", "approved", "rejected"]) {
      expect(await matches({ approvalStatus })).toEqual(
        where((u) => u.approvalStatus === approvalStatus),
      );
    }
    const banned = await matches({ isBanned: true });
    expect(banned).toContain("X000000002");
    expect(banned).toEqual(where((u) => u.isBanned));
    expect(await matches({ isVip: true })).toEqual(where((u) => u.isVip));
    expect(
      await matches({ role: "rider", approvalStatus: { $in: ["approved"] }, isVip: true }),
    ).toEqual(where((u) => u.role === "rider" && u.approvalStatus === "approved" && u.isVip));
  });

  it("filters by a created date range of whole business days (Kuala Lumpur, UTC+8), and by last activity", async () => {
    const june = await matches({ createdAt: { $gte: "2025-06-01", $lte: "2025-06-30" } });
    expect(june).toEqual(
      where(
        (u) =>
          u.createdAt >= "2025-05-31T16:00:00.000Z" && u.createdAt < "2025-06-30T16:00:00.000Z",
      ),
    );
    expect(june).toEqual(expect.arrayContaining(["X000000001", "X000000002"]));
    expect(june).not.toContain("X000000003");

    expect(await matches({ lastActiveAt: { $null: true } })).toEqual(
      where((u) => u.lastActiveAt === null),
    );
    expect(await matches({ lastActiveAt: { $lt: "2026-01-01" } })).toEqual(
      where((u) => u.lastActiveAt !== null && u.lastActiveAt < "2025-12-31T16:00:00.000Z"),
    );
  });

  it("filters by id, account number, name, e-mail and phone", async () => {
    expect(await matches({ id: fixture.agentId })).toEqual(["X000000002"]);
    expect(await matches({ accountNumber: { $startsWith: "w00000001" } })).toEqual(
      where((u) => u.accountNumber.startsWith("W00000001")),
    );
    expect(await matches({ name: { $contains: "fixture" } })).toHaveLength(3);
    expect(await matches({ email: { $null: true } })).toEqual(where((u) => u.email === null));
    expect(await matches({ phone: "+60 3-7777 1234" })).toEqual(["X000000001"]);
  });

  it("searches name, e-mail, phone and account number case-insensitively", async () => {
    const searchable = (u: UserDto) => [u.name, u.email, u.phone, u.accountNumber];
    for (const term of ["ZHANG WEI", "rider.FIXTURE@", "7777 12", "x00000000", "wei ling"]) {
      const expected = where((u) =>
        searchable(u).some((value) => value?.toLowerCase().includes(term.toLowerCase())),
      );
      expect(expected.length, term).toBeGreaterThan(0);
      expect(await matches({ $search: term }), term).toEqual(expected);
    }
    expect(await matches({ $search: "100%" })).toEqual([]);
    expect(await matches({ $search: "fixture", role: "agent" })).toEqual(["X000000002"]);
  });

  it("finds a whole account number, in any case and trimmed, as that one account", async () => {
    const seeded = everyone.find((u) => /^W\d{9}$/.test(u.accountNumber));
    expect(seeded).toBeDefined();
    const number = seeded!.accountNumber;
    expect(await matches({ $search: number })).toEqual([number]);
    expect(await matches({ $search: ` ${number.toLowerCase()} ` })).toEqual([number]);
    // Not a whole number: the digits match as text, in the seeded account and any other holding them.
    const digits = number.slice(1);
    expect(await matches({ $search: digits })).toEqual(
      where((u) => [u.name, u.email, u.phone, u.accountNumber].some((v) => v?.includes(digits))),
    );
    expect(await matches({ $search: "W999999999" })).toEqual([]);
  });

  it("filters riders by verification status (other roles have none)", async () => {
    const ridersWith = async (status: "pending" | "Approved" | "Rejected") =>
      (
        await testDb.database.db
          .select({ accountNumber: users.accountNumber })
          .from(users)
          .innerJoin(riders, eq(riders.userId, users.id))
          .where(eq(riders.verificationStatus, status))
          .orderBy(desc(users.createdAt), desc(users.id))
          .limit(100)
      ).map((row) => row.accountNumber);
    for (const status of ["pending", "Approved", "Rejected"] as const) {
      const expected = await ridersWith(status);
      expect(expected.length, status).toBeGreaterThan(0);
      expect(await matches({ riderVerification: status }), status).toEqual(expected);
    }
    expect(await ridersWith("Rejected")).toContain("X000000001");
    expect(await matches({ riderVerification: { $null: true }, role: "rider" })).toEqual([]);
  });

  it("never matches a search across two fields, and follows a renamed user", async () => {
    // "Fixture" ends the name and "rider." starts the e-mail: no field holds both.
    expect(await matches({ $search: "fixture rider." })).toEqual([]);
    expect(await matches({ $search: "x000000001 zhang" })).toEqual([]);
    const db = testDb.database.db;
    const [before] = await db.select().from(users).where(eq(users.id, fixture.bareId));
    const rename = (name: string) =>
      db
        .update(users)
        .set({ name, updatedAt: before!.updatedAt })
        .where(eq(users.id, fixture.bareId));
    await rename("Renamed Searchable");
    try {
      expect(await matches({ $search: "renamed SEARCH" })).toEqual(["X000000003"]);
      expect(await matches({ $search: "bare fixture" })).toEqual([]);
    } finally {
      await rename(before!.name);
    }
  });

  it("sorts by each sortable field, breaking ties by id in the same direction", async () => {
    const cases: Array<[keyof UserDto, (u: UserDto) => string]> = [
      ["accountNumber", (u) => u.accountNumber],
      ["role", (u) => u.role],
      ["approvalStatus", (u) => u.approvalStatus],
      ["createdAt", (u) => u.createdAt],
      // Collations differ on spaces and case; the first letter orders the same under all.
      ["name", (u) => u.name.charAt(0)],
    ];
    for (const [field, key] of cases) {
      for (const direction of [1, -1] as const) {
        const { users: rows } = await list({
          sort: { [field]: direction },
          pagination: { pageSize: 100 },
        });
        for (let i = 1; i < rows.length; i += 1) {
          const [a, b] = [rows[i - 1]!, rows[i]!];
          const order = key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0;
          if (order !== 0) expect(order, `${field} ${direction}`).toBe(direction);
          else if (field !== "name") expect(Math.sign(b.id - a.id), field).toBe(direction);
        }
      }
    }
  });

  it("sorts by last activity with users never active last, in both directions", async () => {
    const last = Math.ceil(everyone.length / 100);
    for (const direction of [1, -1] as const) {
      const first = await list({
        sort: { lastActiveAt: direction },
        pagination: { pageSize: 100 },
      });
      const dates = first.users.map((u) => u.lastActiveAt!);
      expect(dates.every(Boolean)).toBe(true);
      expect(dates).toEqual([...dates].sort((a, b) => direction * a.localeCompare(b)));
      const tail = await list({
        sort: { lastActiveAt: direction },
        pagination: { page: last, pageSize: 100 },
      });
      expect(tail.users.at(-1)?.lastActiveAt).toBeNull();
    }
  });

  it("sorts by several keys in priority order", async () => {
    const { users: rows } = await list({
      sort: { approvalStatus: 1, createdAt: -1 },
      pagination: { pageSize: 100 },
    });
    // `everyone` is newest first, and Array.prototype.sort is stable.
    const rank = (u: UserDto) => ["approved", "pending", "rejected"].indexOf(u.approvalStatus);
    const expected = [...everyone].sort((a, b) => rank(a) - rank(b));
    expect(rows).toEqual(expected.slice(0, 100));
  });
});

describe("GET /v1/api/users/aggregation: invalid queries", () => {
  const cases: Array<[string, Params, RegExp]> = [
    ["a field that is not filterable", { filter: { url: "x" } }, /^Invalid filter: field "url"/],
    ["a remark", { filter: { banRemark: "x" } }, /^Invalid filter: field "banRemark"/],
    ["an unknown role", { filter: { role: "admin" } }, /^Invalid filter: field "role" expects/],
    [
      "an unknown approval status",
      { filter: { approvalStatus: { $in: ["approved", "waiting"] } } },
      /^Invalid filter: .*"approvalStatus".*"waiting"/,
    ],
    ["a banned flag as text", { filter: { isBanned: "yes" } }, /^Invalid filter: .*"isBanned"/],
    ["a VIP flag as a number", { filter: { isVip: 1 } }, /^Invalid filter: .*"isVip"/],
    [
      "a malformed date",
      { filter: { createdAt: { $gte: "01/06/2025" } } },
      /^Invalid filter: .*"createdAt"/,
    ],
    ["a search that is not text", { filter: { $search: 42 } }, /^Invalid filter: "\$search"/],
    [
      "an unknown rider verification status",
      { filter: { riderVerification: "approved" } },
      /^Invalid filter: .*"riderVerification".*"approved"/,
    ],
    [
      "a search with a control character",
      { filter: { $search: "tan\u001fwong" } },
      /^Invalid filter: "\$search" must not contain control characters/,
    ],
    ["malformed JSON", { filter: "{role:" }, /^Invalid filter: malformed JSON/],
    ["a field that is not sortable", { sort: { email: 1 } }, /^Invalid sort: field "email"/],
    ["a flag as sort key", { sort: { isVip: -1 } }, /^Invalid sort: field "isVip"/],
    ["pageSize 101", { pagination: { pageSize: 101 } }, /^Invalid pagination: "pageSize"/],
    ["page 0", { pagination: { page: 0 } }, /^Invalid pagination: "page"/],
    ["an unknown query parameter", { role: "rider" }, /^Invalid role: unknown query parameter/],
  ];

  it.each(cases)("400 INVALID_QUERY for %s", async (_name, params, message) => {
    const response = await request(params);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe("INVALID_QUERY");
    expect(body.message).toMatch(message);
  });
});

describe("GET /v1/api/users/:id", () => {
  const dtoOf = (account: string) => everyone.find((u) => u.accountNumber === account)!;

  it("returns a rider with their wallet and rider facts", async () => {
    const response = await getUser(fixture.riderId);
    expect(response.statusCode).toBe(200);
    expect(response.json<UserDetail>()).toEqual({
      ...dtoOf("X000000001"),
      wallet: { balanceSen: 123_456, status: "active" },
      rider: {
        vehicleType: "motorcycle",
        plate: "WA 1234",
        licenceNumber: "D12345678",
        verificationStatus: "Rejected",
        verificationRemarks: "Licence photo expired",
      },
      agent: null,
    });
  });

  it("returns an agent with their wallet and commission rate", async () => {
    const detail = (await getUser(fixture.agentId)).json<UserDetail>();
    expect(detail).toMatchObject({
      accountNumber: "X000000002",
      isBanned: true,
      banRemark: "Chargeback abuse",
      url: "https://agent.example",
      wallet: { balanceSen: 5, status: "frozen" },
      rider: null,
      agent: { agentType: "campus", commissionRateBp: 1234 },
    });
  });

  it("returns null for a wallet and role facts the user does not have", async () => {
    const detail = (await getUser(fixture.bareId)).json<UserDetail>();
    expect(detail).toEqual({ ...dtoOf("X000000003"), wallet: null, rider: null, agent: null });
    expect(detail).toMatchObject({ email: null, phone: null, approvalStatus: "pending" });
  });

  it("404 NOT_FOUND for an unknown id, 400 for a malformed one", async () => {
    const missing = await getUser(999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "NOT_FOUND", message: "User not found" });
    for (const id of ["abc", "0", "1.5"]) {
      const malformed = await getUser(id);
      expect(malformed.statusCode, id).toBe(400);
      expect(malformed.json().code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("the OpenAPI document", () => {
  it("publishes the user list and detail schemas", async () => {
    const document = (await app.inject({ url: "/v1/docs/json" })).json();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["UserDto", "UserDetail", "UserWallet", "RiderFacts", "AgentFacts"]),
    );
    const detail = document.paths["/v1/api/users/{id}"].get.responses["200"];
    expect(detail.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/UserDetail",
    });
  });
});

describe("who may read users", () => {
  const calls = [
    { thing: "GET Users", url: () => "/v1/api/users/aggregation" },
    { thing: "GET Single User", url: () => `/v1/api/users/${fixture.riderId}` },
  ];

  it.each(calls)("$thing: the user desk (code 0 only) and a super administrator", async (call) => {
    for (const account of [DEMO.userDesk, DEMO.superAdmin]) {
      const session = await login(app, account);
      if (account === DEMO.userDesk) expect(session.admin.permissions).toEqual([0]);
      const response = await app.inject({ url: call.url(), headers: auth(session.token) });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it.each(calls)("$thing: 403 for finance, who lacks code 0", async ({ thing, url }) => {
    const finance = await login(app, DEMO.finance);
    expect(finance.admin.permissions).toEqual([33, 35, 37]);
    const response = await app.inject({ url: url(), headers: auth(finance.token) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: `You have no permission to access ${thing}` });
  });

  it.each(calls)("$thing: 401 without a token", async ({ url }) => {
    const response = await app.inject({ url: url() });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "Missing credential key" });
  });
});
