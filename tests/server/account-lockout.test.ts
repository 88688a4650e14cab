/**
 * Issue 33, item 4: an account is locked after 10 failed logins within 30 minutes, from any
 * addresses, for 30 minutes (PCI DSS 8.3.4), on top of the limits per address; its owner is told
 * by e-mail. An e-mail no administrator has is answered the same way, so the lockout says nothing
 * of which e-mails exist. Counted in the database: two apps on one database share it.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";

import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { auditLog } from "../../server/db/schema";
import { addressesIn, createTestApp, DEMO, useSignedInApp } from "./support/app";
import { takeOnlyMail } from "./support/mime";
import { expectError } from "./support/user-fixtures";

const suite = useSignedInApp();
const outbox = () => join(suite.testDb.dataDir, "outbox");

afterEach(async () => {
  await rm(outbox(), { recursive: true, force: true });
});

const nextAddress = addressesIn(33);
/** A login from an address not used before: no limit per address is ever what refuses it. */
const login = (payload: { email: string; password: string }, app?: App) => {
  return (app ?? suite.app).inject({
    method: "POST",
    url: "/v1/api/auth/login",
    remoteAddress: nextAddress(),
    payload,
  });
};

const wrong = (email: string) => ({ email, password: "Guess#2026-wrong" });

/** `count` wrong passwords at `email`, each from its own address; each answered 401. */
async function failures(email: string, count: number, apps: App[] = [suite.app]) {
  for (let i = 0; i < count; i += 1) {
    const answer = await login(wrong(email), apps[i % apps.length]);
    expect(answer.statusCode, answer.body).toBe(401);
  }
}

/** Time passes for the lockout: every stored hit and window moves back by `minutes`. */
async function elapse(minutes: number) {
  const ago = sql`${minutes} * interval '1 minute'`;
  const { db } = suite.testDb.database;
  await db.execute(sql`update rate_limit_counters set resets_at = resets_at - ${ago}`);
  await db.execute(sql`
    update rate_limit_logs
    set hits = array(select hit - ${ago} from unnest(hits) hit), expires_at = expires_at - ${ago}`);
}

const mails = async () => (await readdir(outbox()).catch(() => [])).length;

/** The one e-mail sent (after the answer: the login does not wait for the mail server). */
async function sentMail() {
  await expect.poll(mails).toBe(1);
  return takeOnlyMail(outbox());
}

describe("failed logins of one account", () => {
  it("lock it after 10 from ten addresses, even against the right password; its owner is e-mailed and it is audited", async () => {
    await failures(DEMO.userDesk.email, 9);
    expect(await mails()).toBe(0);
    await failures(DEMO.userDesk.email, 1);

    const refused = await login(DEMO.userDesk);
    expectError(refused, 429, "ACCOUNT_LOCKED");
    const { retryAfterSeconds } = refused.json<{ data: { retryAfterSeconds: number } }>().data;
    expect(retryAfterSeconds).toBeGreaterThan(29 * 60);
    expect(retryAfterSeconds).toBeLessThanOrEqual(30 * 60);

    const mail = await sentMail();
    expect(mail.to).toBe(DEMO.userDesk.email);
    expect(mail.subject).toBe("Your UCSI Wallet console account was locked");
    expect(mail.text).toContain("locked for 30 minutes after too many failed sign-ins");

    const entries = await suite.testDb.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "auth.lockout"), eq(auditLog.targetTable, "administrators")));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.remark).toMatch(/^10 failed logins, the last from 10\.33\./);

    // Still locked 29 minutes on, and a wrong guess then tells nothing more; free after 30.
    await elapse(29);
    expectError(await login(DEMO.userDesk), 429, "ACCOUNT_LOCKED");
    expectError(await login(wrong(DEMO.userDesk.email)), 429, "ACCOUNT_LOCKED");
    await elapse(1);
    expect((await login(DEMO.userDesk)).statusCode).toBe(200);
    expect(await mails()).toBe(0);
  });

  it("answer an e-mail no administrator has exactly as an administrator's, and e-mail nobody", async () => {
    const unknown = "nobody.here@wallet.example";
    const known = DEMO.finance.email;
    await failures(unknown, 10);
    await failures(known, 10);
    // One e-mail, to the administrator's owner; none for the e-mail nobody has.
    expect((await sentMail()).to).toBe(known);
    const strip = (body: { message: string; data: { retryAfterSeconds: number } }) => ({
      ...body,
      message: body.message.replace(/\d+ minutes/, "N minutes"),
      data: { retryAfterSeconds: Math.round(body.data.retryAfterSeconds / 60) },
    });
    const toUnknown = await login(wrong(unknown));
    const toKnown = await login(wrong(known));
    expect(toUnknown.statusCode).toBe(429);
    expect(strip(toUnknown.json())).toEqual(strip(toKnown.json()));
    expect(await mails()).toBe(0);
  });

  it("are forgotten after a successful login: nine, a success, nine more do not lock", async () => {
    const { email } = DEMO.checker;
    await failures(email, 9);
    expect((await login(DEMO.checker)).statusCode).toBe(200);
    await failures(email, 9);
    expect((await login(DEMO.checker)).statusCode).toBe(200);
    expect(await mails()).toBe(0);
  });

  it("count across every server instance on the database", async () => {
    const second = await createTestApp(suite.testDb);
    try {
      const { email } = DEMO.approver;
      await failures(email, 10, [suite.app, second]);
      expectError(await login(DEMO.approver, suite.app), 429, "ACCOUNT_LOCKED");
      expectError(await login(DEMO.approver, second), 429, "ACCOUNT_LOCKED");
      expect((await sentMail()).to).toBe(email);
    } finally {
      await second.close();
    }
  });

  it("of another e-mail, in another case or with blanks, are the same account's", async () => {
    const email = DEMO.superAdmin.email;
    for (let i = 0; i < 10; i += 1) {
      const variant = i % 2 === 0 ? email.toUpperCase() : `  ${email} `;
      expect((await login(wrong(variant))).statusCode).toBe(401);
    }
    expectError(await login(DEMO.superAdmin), 429, "ACCOUNT_LOCKED");
    await elapse(30);
    expect((await login(DEMO.superAdmin)).statusCode).toBe(200);
  });
});
