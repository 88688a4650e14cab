/**
 * The demo campus's users signed up over the weeks before it was seeded (issue 37, item 12):
 * Statistic's "new users" for the seeded weeks are not empty, week after week and across roles,
 * like its money (90 days up to the seeding).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { addDays } from "../../server/business-day";
import type { Statistics } from "../../src/shared/schemas/statistics";
import { auth, createTestApp, DEMO, login } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";
import { daysAgo } from "./support/money-fixtures";

let testDb: TestDatabase;
let app: App;
let token: string;

// The first test file after a change under server/ seeds the template: minutes on a busy machine.
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb);
  token = (await login(app, DEMO.superAdmin)).token;
}, 600_000);

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

async function weekly(from: string, to: string): Promise<Statistics> {
  const response = await app.inject({
    url: `/v1/api/statistics?${new URLSearchParams({ from, to, granularity: "week" }).toString()}`,
    headers: auth(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Statistics>();
}

describe("the demo campus's new users", () => {
  it("signed up in every week of the last twelve, in several roles, and in the twelve before", async () => {
    const to = daysAgo(1);
    const from = addDays(to, -83);
    const answer = await weekly(from, to);

    // Every whole week (a bucket of seven days, Monday to Sunday) has sign-ups.
    const weeks = answer.series.filter((bucket, index) => {
      const next = answer.series[index + 1]?.bucket ?? addDays(to, 1);
      return next === addDays(bucket.bucket, 7);
    });
    expect(weeks.length).toBeGreaterThanOrEqual(11);
    expect(weeks.filter((week) => week.newUsers === 0).map((week) => week.bucket)).toEqual([]);

    // About one a day over 640 days: dozens in twelve weeks, students among several roles.
    expect(answer.totals.newUsers.current).toBeGreaterThanOrEqual(40);
    expect(answer.totals.newUsers.previous).toBeGreaterThanOrEqual(40);
    const roles = Object.entries(answer.newUsersByRole).filter(([, n]) => n.current > 0);
    expect(roles.length).toBeGreaterThanOrEqual(4);
    expect(answer.newUsersByRole.student.current).toBeGreaterThan(0);
  });
});
