/**
 * Issue 30: a blank text value in an aggregation filter is refused (it used to match every row),
 * and a date outside the years the API takes (DATE_YEARS) is a 400 naming its field on every
 * route that takes one, never a 500 nor a stored date.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { appNotifications, merchantAnnouncements } from "../../server/db/schema";
import { DATE_YEARS, DATE_YEARS_PATTERN } from "../../src/shared/kit/types";
import { useSignedInApp } from "./support/app";
import { openApiDocument, operationsOf } from "./support/openapi";
import { call } from "./support/user-fixtures";

const suite = useSignedInApp();
const DAY = 86_400_000;

/** Dates JavaScript, pg or PostgreSQL read differently, or not at all. */
const FAR_DATE_TIMES = [
  "0020-02-29T00:00:00Z",
  "0001-01-01T00:00:00Z",
  "1899-12-31T23:59:59Z",
  "2200-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "+275760-09-13T00:00:00Z",
  "-000001-01-01T00:00:00Z",
  // In range as written, not as the instant stored and given back (UTC): 1899 and 2200.
  "1900-01-01T00:00:00+08:00",
  "2199-12-31T23:00:00-05:00",
];
const FAR_DAYS = ["0001-01-01", "0020-02-29", "1899-12-31", "2200-01-01", "9999-12-31"];
/** Blank as the compiler reads it (trimmed to nothing); a tab is refused as a control character. */
const BLANKS = ["", "   ", "\u00a0", "\u3000"];

const list = (path: string, filter: unknown) =>
  call(
    suite.app,
    suite.token,
    "GET",
    `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`,
  );

/** A 400 with the code and a message and nothing else: no rows (a VALIDATION_ERROR: its issues). */
function expectRefused(
  response: { statusCode: number; body: string; json(): unknown },
  code: string,
  message?: RegExp,
) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json() as Record<string, unknown>;
  expect(Object.keys(body).sort(), response.body).toEqual(
    code === "VALIDATION_ERROR" ? ["code", "data", "message"] : ["code", "message"],
  );
  expect(body.code).toBe(code);
  if (message) expect(body.message).toMatch(message);
}

async function expectHealthy() {
  const response = await call(suite.app, suite.token, "GET", "/api/account/admin");
  expect(response.statusCode, response.body).toBe(200);
}

const rows = async (table: typeof merchantAnnouncements | typeof appNotifications) =>
  (await suite.testDb.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

describe("blank text values in aggregation filters", () => {
  const fields = [
    ["/api/administrators/aggregation", "name"],
    ["/api/users/aggregation", "email"],
    ["/api/businesses/aggregation", "name"],
    ["/api/help-articles/aggregation", "titleEn"],
    ["/api/parking-sessions/aggregation", "plate"],
    ["/api/top-up-transactions/aggregation", "reference"],
  ] as const;
  const conditions = (blank: string) => [
    { $contains: blank },
    { $startsWith: blank },
    blank,
    { $eq: blank },
    { $ne: blank },
    { $in: ["a", blank] },
    { $nin: [blank] },
    { $gte: blank },
    { $lt: blank },
  ];

  it.each(fields)("%s refuses a blank %s in every text operator", async (path, field) => {
    for (const blank of BLANKS) {
      for (const condition of conditions(blank)) {
        const response = await list(path, { [field]: condition });
        expectRefused(response, "INVALID_QUERY", /^Invalid filter: .*blank/);
        expect(response.json<{ message: string }>().message).toContain(`field "${field}"`);
      }
    }
    // Inside an $or too: a blank branch must not make the $or match everything.
    expectRefused(
      await list(path, { $or: [{ [field]: { $contains: " " } }, { [field]: "x" }] }),
      "INVALID_QUERY",
      /blank/,
    );
    await expectHealthy();
  });

  it("a blank $search is no search, as the OpenAPI document says", async () => {
    for (const blank of BLANKS) {
      const response = await list("/api/users/aggregation", { $search: blank });
      expect(response.statusCode, response.body).toBe(200);
    }
    const document = await openApiDocument(suite.app);
    const filter = (
      document.paths["/v1/api/users/aggregation"]?.get as {
        parameters: Array<{
          name: string;
          description?: string;
          schema?: { description?: string };
        }>;
      }
    ).parameters.find((parameter) => parameter.name === "filter");
    const description = filter?.description ?? filter?.schema?.description ?? "";
    expect(description).toMatch(/blank/i);
    expect(description).toMatch(/\$search/);
  });

  it("text that is not blank still filters, spaces and all", async () => {
    const response = await list("/api/administrators/aggregation", {
      name: { $contains: "r Admin" },
      email: { $startsWith: "superadmin@" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ administrators: Array<{ email: string }> }>().administrators).toEqual([
      expect.objectContaining({ email: "superadmin@wallet.example" }),
    ]);
  });
});

describe("far dates", () => {
  const announcement = (overrides: Record<string, unknown> = {}) => ({
    titleEn: "Far dates",
    titleZh: "远日期",
    bodyEn: "<p>Body</p>",
    bodyZh: "<p>正文</p>",
    audience: "all",
    publishAt: new Date(Date.now() - DAY).toISOString(),
    ...overrides,
  });

  it("in a merchant announcement's body: 400 naming the field, nothing stored", async () => {
    const before = await rows(merchantAnnouncements);
    for (const at of FAR_DATE_TIMES) {
      for (const key of ["publishAt", "expiresAt"]) {
        const body = announcement(key === "publishAt" ? { publishAt: at } : { expiresAt: at });
        const response = await call(
          suite.app,
          suite.token,
          "POST",
          "/api/merchant-announcements",
          body,
        );
        expectRefused(response, "VALIDATION_ERROR", new RegExp(`^Invalid ${key}: `));
      }
    }
    expect(await rows(merchantAnnouncements)).toBe(before);
    const created = await call(
      suite.app,
      suite.token,
      "POST",
      "/api/merchant-announcements",
      announcement(),
    );
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: number }>();
    for (const at of FAR_DATE_TIMES) {
      const response = await call(
        suite.app,
        suite.token,
        "PATCH",
        `/api/merchant-announcements/${id}`,
        announcement({ publishAt: at }),
      );
      expectRefused(response, "VALIDATION_ERROR", /^Invalid publishAt: /);
    }
    await expectHealthy();
  });

  it("takes the first and last instants of those years, and gives them back as sent", async () => {
    const publishAt = `${DATE_YEARS.min}-01-01T00:00:00.000Z`;
    const expiresAt = `${DATE_YEARS.max}-12-31T23:59:59.999Z`;
    const created = await call(
      suite.app,
      suite.token,
      "POST",
      "/api/merchant-announcements",
      announcement({ publishAt, expiresAt }),
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ publishAt, expiresAt });
  });

  it("the OpenAPI document states the years on every date-time a body takes", async () => {
    const document = await openApiDocument(suite.app);
    const stated: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (schema === null || typeof schema !== "object") return;
      const node = schema as Record<string, unknown>;
      if (node.format === "date-time") {
        expect(node.allOf, at).toEqual([{ pattern: DATE_YEARS_PATTERN.source }]);
        stated.push(at);
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${at}.${key}`);
    };
    for (const operation of operationsOf(document)) {
      walk(operation.body, `${operation.method} ${operation.path}`);
    }
    expect(stated.length).toBeGreaterThanOrEqual(5); // announcements (2 routes × 2), notifications
  });

  it("says which years it takes", async () => {
    const response = await call(
      suite.app,
      suite.token,
      "POST",
      "/api/merchant-announcements",
      announcement({ publishAt: "0020-02-29T00:00:00Z" }),
    );
    expectRefused(
      response,
      "VALIDATION_ERROR",
      new RegExp(`^Invalid publishAt: .*${DATE_YEARS.min}.*${DATE_YEARS.max}`),
    );
  });

  it("in an app notification's send time: 400 naming the field, nothing stored", async () => {
    const before = await rows(appNotifications);
    for (const sendAt of FAR_DATE_TIMES) {
      const response = await call(suite.app, suite.token, "POST", "/api/app-notifications", {
        titleEn: "Far",
        titleZh: "远",
        bodyEn: "Body",
        bodyZh: "正文",
        audience: ["student"],
        sendAt,
      });
      expectRefused(response, "VALIDATION_ERROR", /^Invalid sendAt: /);
    }
    expect(await rows(appNotifications)).toBe(before);
    await expectHealthy();
  });

  it("in an aggregation filter on a date field: 400 INVALID_QUERY", async () => {
    const dateFields = [
      ["/api/users/aggregation", "createdAt"],
      ["/api/merchant-announcements/aggregation", "publishAt"],
      ["/api/settlements/aggregation", "periodEnd"],
      ["/api/merchant-transaction-summary/aggregation", "day"],
      ["/api/administrators/aggregation", "lastLoginAt"],
    ] as const;
    for (const [path, field] of dateFields) {
      for (const far of [...FAR_DATE_TIMES, ...FAR_DAYS]) {
        for (const condition of [far, { $gte: far }, { $lt: far }, { $in: [far] }]) {
          expectRefused(
            await list(path, { [field]: condition }),
            "INVALID_QUERY",
            /^Invalid filter: /,
          );
        }
      }
      const inRange = await list(path, {
        [field]: { $gte: `${DATE_YEARS.min}-01-01`, $lte: `${DATE_YEARS.max}-12-31T23:59:59Z` },
      });
      expect(inRange.statusCode, inRange.body).toBe(200);
    }
    await expectHealthy();
  });

  // The statistics range has its own day rule (src/shared/schemas/statistics.ts): far days refused.
  it("in the statistics range: 400 VALIDATION_ERROR", async () => {
    for (const far of ["0001-01-01", "0020-02-29", "1899-12-31", "9999-12-31", "+275760-09-13"]) {
      for (const [from, to] of [
        [far, "2026-01-31"],
        ["2026-01-01", far],
      ]) {
        const response = await call(
          suite.app,
          suite.token,
          "GET",
          `/api/statistics?from=${encodeURIComponent(from!)}&to=${encodeURIComponent(to!)}&granularity=day`,
        );
        expectRefused(response, "VALIDATION_ERROR", /^Invalid (from|to): /);
      }
    }
    await expectHealthy();
  });
});
