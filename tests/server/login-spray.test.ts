/**
 * Issue 16, item 3: password spraying. One address trying a different e-mail each time is
 * stopped after LOGIN_FAILURES_PER_ADDRESS failures a minute (30 by default; 5 here), before
 * any more hashing, while a real login from another address still goes through.
 *
 * Issue 30, item 2: "a minute" is any 60-second span, not a fixed window that lets twice the
 * limit through across its reset; counted in the database, so two apps on one database share it.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { createLoginGuard } from "../../server/auth/login-guard";
import { housekeepingJob } from "../../server/jobs/housekeeping";
import { createCounters } from "../../server/rate-limit/counters";
import { createTestApp, DEMO, useSignedInApp } from "./support/app";

const LIMIT = 5;
const suite = useSignedInApp({ LOGIN_FAILURES_PER_ADDRESS: String(LIMIT) });

const login = (remoteAddress: string, payload: { email: string; password: string }, app?: App) =>
  (app ?? suite.app).inject({ method: "POST", url: "/v1/api/auth/login", remoteAddress, payload });

let guesses = 0;
/** A wrong password at an e-mail not tried before: a spray's attempt. */
const guess = (remoteAddress: string, app?: App) => {
  guesses += 1;
  return login(
    remoteAddress,
    { email: `sprayed.${guesses}@wallet.example`, password: "Guess#2026" },
    app,
  );
};

/**
 * The rate limits' clock, moved on without waiting: the limits read the database's clock, so
 * time passing is every stored time moving back by as much (the fixed windows' ends, and the
 * sliding windows' hits). `seconds` since the test began, waits included, is what it reads.
 */
function useClock() {
  const started = performance.now();
  let moved = 0;
  return {
    seconds: () => (performance.now() - started) / 1000 + moved,
    async elapse(seconds: number) {
      const ago = sql`${seconds * 1000} * interval '1 millisecond'`;
      const db = suite.testDb.database.db;
      await db.execute(sql`update rate_limit_counters set resets_at = resets_at - ${ago}`);
      await db.execute(sql`
        update rate_limit_logs
        set hits = array(select hit - ${ago} from unnest(hits) hit),
          expires_at = expires_at - ${ago}`);
      moved += seconds;
    },
  };
}

/** A spray's attempt as the client saw it, its times by `useClock`: sent, then answered. */
interface Answer {
  sent: number;
  answered: number;
  status: number;
  retryAfterSeconds?: number;
}

/**
 * The most answers other than 429 that any 60-second span holds, by when they were sent: the
 * server checks (and counts) a login a moment after, before any hashing.
 */
function mostCheckedInAnySpan(answers: Answer[]) {
  const checked = answers.filter((answer) => answer.status !== 429).map((answer) => answer.sent);
  return Math.max(
    0,
    ...checked.map((start) => checked.filter((sent) => sent >= start && sent < start + 60).length),
  );
}

/**
 * A refusal's wait is the truth: when `counted` leaves the last 60 s, in whole seconds, as far
 * as the client can tell when each was counted (between its sending and its answer).
 */
function expectWaitUntilLeaves(refused: Answer, counted: Answer) {
  expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(
    Math.floor(counted.sent + 60 - refused.answered),
  );
  expect(refused.retryAfterSeconds).toBeLessThanOrEqual(
    Math.ceil(counted.answered + 60 - refused.sent),
  );
}

describe("failed logins per address", () => {
  it("answers 429 after the limit across e-mails, even for a right password, from that address only", async () => {
    const sprayer = "127.0.0.11";
    for (let i = 0; i < 5; i += 1) {
      const attempt = await login(sprayer, {
        email: `sprayed.${i}@wallet.example`,
        password: "Guess#2026",
      });
      expect(attempt.statusCode).toBe(401);
    }
    const stopped = await login(sprayer, {
      email: "another@wallet.example",
      password: "Guess#2026",
    });
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json()).toMatchObject({
      code: "RATE_LIMITED",
      data: { retryAfterSeconds: expect.any(Number) },
    });
    expect((await login(sprayer, DEMO.superAdmin)).statusCode).toBe(429);
    expect((await login("127.0.0.12", DEMO.superAdmin)).statusCode).toBe(200);
  });

  it("believes no X-Forwarded-For without TRUST_PROXY: a spray cannot name new addresses", async () => {
    const sprayer = "127.0.0.14";
    const spoofed = (i: number) =>
      suite.app.inject({
        method: "POST",
        url: "/v1/api/auth/login",
        remoteAddress: sprayer,
        headers: { "x-forwarded-for": `198.51.100.${i}` },
        payload: { email: `spoofed.${i}@wallet.example`, password: "Guess#2026" },
      });
    for (let i = 0; i < 5; i += 1) expect((await spoofed(i)).statusCode).toBe(401);
    expect((await spoofed(5)).statusCode).toBe(429);
  });

  it("counts only failures: successful logins from a busy address never lock it", async () => {
    const desk = "127.0.0.13";
    for (let i = 0; i < 7; i += 1) {
      expect((await login(desk, DEMO.userDesk)).statusCode).toBe(200);
    }
  });

  it("a success gives back its own attempt only: the failures before it still count", async () => {
    const desk = "127.0.0.15";
    for (let i = 0; i < LIMIT - 1; i += 1) expect((await guess(desk)).statusCode).toBe(401);
    expect((await login(desk, DEMO.userDesk)).statusCode).toBe(200);
    expect((await login(desk, DEMO.userDesk)).statusCode).toBe(200);
    expect((await guess(desk)).statusCode).toBe(401);
    expect((await guess(desk)).statusCode).toBe(429);
  });

  it("holds any 60-second span to the limit: a spray straddling a minute's end gets no more", async () => {
    const sprayer = "127.0.0.21";
    const clock = useClock();
    const answers: Answer[] = [];
    const attempt = async (): Promise<Answer> => {
      const sent = clock.seconds();
      const response = await guess(sprayer);
      const refusal = response.json<{ data?: { retryAfterSeconds?: number } }>();
      const answer = {
        sent,
        answered: clock.seconds(),
        status: response.statusCode,
        retryAfterSeconds: refusal.data?.retryAfterSeconds,
      };
      answers.push(answer);
      return answer;
    };
    /** Guesses until one is refused: those checked before it, and the refusal. */
    const burst = async () => {
      const checked: Answer[] = [];
      for (let i = 0; i <= LIMIT; i += 1) {
        const answer = await attempt();
        if (answer.status === 429) return { checked, refused: answer };
        checked.push(answer);
      }
      throw new Error(`more than ${LIMIT} failures in a row were checked`);
    };

    // One failure, then the rest of the limit 50 s later: refused until the first leaves the span.
    const first = await attempt();
    expect(first.status).toBe(401);
    await clock.elapse(50);
    const late = await burst();
    expect(late.checked).toHaveLength(LIMIT - 1);
    expectWaitUntilLeaves(late.refused, first);

    // Past the end of the minute that began with the first failure: only that one has left.
    await clock.elapse(11);
    const straddling = await burst();
    expect(mostCheckedInAnySpan(answers)).toBeLessThanOrEqual(LIMIT);
    expect(straddling.checked).toHaveLength(1);
    expectWaitUntilLeaves(straddling.refused, late.checked[0]!);

    // Refused a moment before the wait is over, checked once it is.
    const wait = straddling.refused.retryAfterSeconds!;
    await clock.elapse(wait - 1.5);
    expect((await attempt()).status).toBe(429);
    await clock.elapse(1.5);
    expect((await attempt()).status).toBe(401);
    // Once all of the late burst has left: the failure at 61 s and the last one leave three.
    await clock.elapse(late.checked.at(-1)!.answered + 60.5 - clock.seconds());
    expect((await burst()).checked).toHaveLength(LIMIT - 2);
    expect(mostCheckedInAnySpan(answers)).toBeLessThanOrEqual(LIMIT);
  });

  it("two apps on one database share the limit, and concurrent checks take only the slots left", async () => {
    const sprayer = "127.0.0.31";
    const other = await createTestApp(suite.testDb, { LOGIN_FAILURES_PER_ADDRESS: String(LIMIT) });
    try {
      const apps = [suite.app, other];
      for (let i = 0; i < LIMIT - 1; i += 1) {
        expect((await guess(sprayer, apps[i % 2])).statusCode).toBe(401);
      }
      // Two at once on each app (each app's most): one slot is left, for one of the four.
      const racing = await Promise.all([...apps, ...apps].map((app) => guess(sprayer, app)));
      expect(racing.map((response) => response.statusCode).sort()).toEqual([401, 429, 429, 429]);
      for (const app of apps) expect((await guess(sprayer, app)).statusCode).toBe(429);
    } finally {
      await other.close();
    }
  });

  it("guards of many processes checking at once on one database admit the limit, no more", async () => {
    const db = suite.testDb.database.db;
    const guards = Array.from({ length: 8 }, () => createLoginGuard(LIMIT, createCounters(db)));
    // Each guard's most at once: two, so sixteen checks race for the limit's slots.
    const begun = await Promise.allSettled(
      [...guards, ...guards].map((guard) => guard.begin("192.0.2.40")),
    );
    const admitted = begun.filter((result) => result.status === "fulfilled");
    expect(admitted).toHaveLength(LIMIT);
    for (const refused of begun.filter((result) => result.status === "rejected")) {
      expect(refused.reason).toMatchObject({ statusCode: 429, code: "RATE_LIMITED" });
    }
  });

  it("housekeeping deletes the failures no window holds any more, and keeps the others", async () => {
    const db = suite.testDb.database.db;
    const clock = useClock();
    const expiredRows = async () => {
      const { rows } = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from rate_limit_logs where expires_at <= now()`,
      );
      return rows[0]!.n;
    };
    expect((await guess("127.0.0.41")).statusCode).toBe(401);
    await clock.elapse(30);
    expect((await guess("127.0.0.42")).statusCode).toBe(401);
    await clock.elapse(31);
    const expired = await expiredRows();
    expect(expired).toBeGreaterThanOrEqual(1);

    const result = await housekeepingJob(60).run(db);
    expect(result).toMatchObject({ expiredLogs: expired });
    expect(await expiredRows()).toBe(0);
    // The second address's failure, 31 s old, was kept: it still counts.
    for (let i = 0; i < LIMIT - 1; i += 1) expect((await guess("127.0.0.42")).statusCode).toBe(401);
    expect((await guess("127.0.0.42")).statusCode).toBe(429);
  });
});
