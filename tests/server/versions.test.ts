/**
 * Record versions (issue 35, docs/versions.md) through HTTP on a real database: a record's GET
 * answers its ETag and every row of its list its version; an edit or an action based on an old
 * version is refused with 409 VERSION_CONFLICT (the record now, who changed it and when), changing
 * nothing; a malformed If-Match or another record's is refused (400) in the console's language;
 * no header or `*` keeps today's behaviour; the kit bumps the version on every change it makes,
 * a four-eyes approval included; a status guard still answers its own 409 first.
 */
import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import {
  administrators,
  auditLog,
  businesses,
  helpArticles,
  userReports,
} from "../../server/db/schema";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { etagOf, type VersionConflictData } from "../../src/shared/kit/versions";
import cnErrors from "../../locales/cn-ZH/errors.json";
import enErrors from "../../locales/en-US/errors.json";
import { auth, createAdmin, DEMO, login } from "./support/app";
import { approve } from "./support/four-eyes";
import { expectError, useUserDeskSuite } from "./support/user-fixtures";

const suite = useUserDeskSuite();
/** Two administrators of the merchant team (Business, 4), and the super administrators. */
let first = { token: "", id: 0, name: "" };
let second = { token: "", id: 0, name: "" };
let superAdmin = "";
let approver = "";

beforeAll(async () => {
  superAdmin = (await login(suite.app, DEMO.superAdmin)).token;
  approver = (await login(suite.app, DEMO.approver)).token;
  const made = async () => {
    const { token, admin } = await createAdmin(suite.app, superAdmin, [4]);
    const [row] = await suite.db
      .select({ name: administrators.name })
      .from(administrators)
      .where(eq(administrators.id, admin.id));
    return { token, id: admin.id, name: row!.name };
  };
  first = await made();
  second = await made();
}, 60_000);

async function approvedBusiness() {
  const [row] = await suite.db
    .select()
    .from(businesses)
    .where(eq(businesses.status, "approved"))
    .orderBy(businesses.id)
    .limit(1);
  return row!;
}

const readBusiness = async (id: number) => {
  const [row] = await suite.db.select().from(businesses).where(eq(businesses.id, id));
  return row!;
};

const auditCount = async (id: number) => {
  const [row] = await suite.db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.targetTable, "businesses"), eq(auditLog.targetId, String(id))));
  return row!.n;
};

const getBusiness = (id: number, token = first.token) =>
  suite.app.inject({ method: "GET", url: `/v1/api/businesses/${id}`, headers: auth(token) });

const editFee = (
  id: number,
  feeRateBp: number,
  ifMatch?: string | string[],
  token = first.token,
  headers: Record<string, string> = {},
) =>
  suite.app.inject({
    method: "PATCH",
    url: `/v1/api/businesses/${id}`,
    headers: {
      ...auth(token),
      ...headers,
      ...(ifMatch !== undefined && { "if-match": ifMatch }),
    } as Record<string, string | string[]>,
    payload: { feeRateBp },
  });

describe("a record's version and ETag", () => {
  it("GET one answers a strong ETag naming the record and its version; list rows carry it", async () => {
    const business = await approvedBusiness();
    const response = await getBusiness(business.id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ version: number }>();
    expect(body.version).toBe(business.version);
    expect(response.headers.etag).toBe(etagOf("businesses", business.id, business.version));
    expect(response.headers.etag).toBe(`"businesses/${business.id}/${business.version}"`);
    const list = await suite.app.inject({
      method: "GET",
      url: `/v1/api/businesses/aggregation?pagination=${encodeURIComponent('{"page":1,"pageSize":5}')}`,
      headers: auth(first.token),
    });
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json<{ businesses: Array<{ version: unknown }> }>().businesses;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.version).toEqual(expect.any(Number));
  });

  it("an edit with the current version applies, bumps the version and answers the new ETag", async () => {
    const business = await approvedBusiness();
    const etag = etagOf("businesses", business.id, business.version);
    const response = await editFee(business.id, 111, etag);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ feeRateBp: 111, version: business.version + 1 });
    expect(response.headers.etag).toBe(etagOf("businesses", business.id, business.version + 1));
    expect((await readBusiness(business.id)).version).toBe(business.version + 1);
    // The audit keeps the change, not the version.
    const [entry] = await suite.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.targetTable, "businesses"), eq(auditLog.targetId, String(business.id))),
      )
      .orderBy(auditLog.id);
    expect(Object.keys((entry?.after ?? {}) as object)).not.toContain("version");
  });

  it("a stale If-Match is refused with 409 VERSION_CONFLICT: the record now, who and when; nothing changes", async () => {
    const business = await approvedBusiness();
    const seen = etagOf("businesses", business.id, business.version);
    // The first saves; the second, based on the same version, is refused.
    expect((await editFee(business.id, 222, seen, first.token)).statusCode).toBe(200);
    const before = await readBusiness(business.id);
    const audited = await auditCount(business.id);
    const refused = await editFee(business.id, 333, seen, second.token);
    const body = expectError(refused, 409, "VERSION_CONFLICT") as { data?: unknown };
    const data = body.data as VersionConflictData;
    expect(data.version).toBe(business.version + 1);
    expect(data.yourVersion).toBe(business.version);
    expect(data.etag).toBe(etagOf("businesses", business.id, business.version + 1));
    expect(data.current).toMatchObject({ id: business.id, feeRateBp: 222 });
    expect(data.lastChange).toMatchObject({
      adminId: first.id,
      adminName: first.name,
      action: "business.update",
      after: expect.objectContaining({ feeRateBp: 222 }),
    });
    expect(Date.now() - new Date(data.lastChange!.at).getTime()).toBeLessThan(60_000);
    expect(await readBusiness(business.id)).toEqual(before);
    expect(await auditCount(business.id)).toBe(audited);
    // Re-applied on top, with the version the conflict named: the second's rate is saved.
    const again = await editFee(business.id, 333, data.etag, second.token);
    expect(again.statusCode, again.body).toBe(200);
    expect((await readBusiness(business.id)).feeRateBp).toBe(333);
  });

  it("no If-Match, or *, keeps today's behaviour: the last save wins (the seed's calls)", async () => {
    const business = await approvedBusiness();
    const none = await editFee(business.id, 400);
    expect(none.statusCode, none.body).toBe(200);
    const star = await editFee(business.id, 401, "*");
    expect(star.statusCode, star.body).toBe(200);
    const after = await readBusiness(business.id);
    expect(after.feeRateBp).toBe(401);
    expect(after.version).toBe(business.version + 2);
  });

  it("a malformed If-Match answers 400 IF_MATCH_INVALID in the console's language, changing nothing", async () => {
    const business = await approvedBusiness();
    const before = await readBusiness(business.id);
    const audited = await auditCount(business.id);
    const id = business.id;
    for (const header of [
      "",
      "3",
      `"3"`,
      `W/"businesses/${id}/${business.version}"`,
      `businesses/${id}/${business.version}`,
      `"businesses/${id}/0"`,
      `"businesses/${id}/-1"`,
      `"businesses/${id}/1.5"`,
      `"businesses/${id}/99999999999"`,
      `"businesses/${id}/${business.version}", "businesses/${id}/${business.version}"`,
      `"Businesses/${id}/${business.version}"`,
      `"%/${id}/${business.version}"`,
      `"businesses/${id}/${"9".repeat(5000)}"`,
      `"${"a".repeat(300)}/${id}/1"`,
    ]) {
      expectError(await editFee(id, 555, header), 400, "IF_MATCH_INVALID");
    }
    // Two If-Match headers.
    expectError(
      await editFee(id, 555, [
        etagOf("businesses", id, business.version),
        etagOf("businesses", id, business.version),
      ]),
      400,
      "IF_MATCH_INVALID",
    );
    const cn = await editFee(id, 555, "garbage", first.token, { "accept-language": "cn-ZH" });
    const text = expectError(cn, 400, "IF_MATCH_INVALID").message;
    expect(text).toMatch(/[\u4e00-\u9fff]/);
    // The console shows the catalogue's text in both languages.
    expect(enErrors.codes.IF_MATCH_INVALID).toBeTruthy();
    expect(cnErrors.codes.IF_MATCH_INVALID).toMatch(/[\u4e00-\u9fff]/);
    expect(await readBusiness(id)).toEqual(before);
    expect(await auditCount(id)).toBe(audited);
  });

  it("refuses NUL bytes and a huge header before anything changes", async () => {
    const business = await approvedBusiness();
    const before = await readBusiness(business.id);
    const nul = await editFee(business.id, 556, `"businesses/${business.id}/1\u0000"`).catch(
      (error: unknown) => error,
    );
    // Node refuses a NUL byte in a header before the request is sent (or the server answers 400).
    if (!(nul instanceof Error)) expect((nul as { statusCode: number }).statusCode).toBe(400);
    const huge = await editFee(business.id, 556, `"${"x".repeat(60_000)}"`);
    expect([400, 431]).toContain(huge.statusCode);
    expect(await readBusiness(business.id)).toEqual(before);
  });

  it("another record's version is refused with 400 IF_MATCH_OTHER_RECORD, changing nothing", async () => {
    const business = await approvedBusiness();
    const [other] = await suite.db
      .select()
      .from(businesses)
      .where(and(eq(businesses.status, "approved")))
      .orderBy(businesses.id)
      .offset(1)
      .limit(1);
    const before = await readBusiness(business.id);
    for (const header of [
      etagOf("businesses", other!.id, other!.version),
      etagOf("users", business.id, business.version),
    ]) {
      const body = expectError(
        await editFee(business.id, 557, header),
        400,
        "IF_MATCH_OTHER_RECORD",
      );
      expect(body.message).toBeTruthy();
    }
    expect(cnErrors.codes.IF_MATCH_OTHER_RECORD).toMatch(/[\u4e00-\u9fff]/);
    expect(await readBusiness(business.id)).toEqual(before);
  });
});

describe("the OpenAPI document", () => {
  it("states the optional If-Match of a change and the ETag of the record's answers", async () => {
    const response = await suite.app.inject({ method: "GET", url: "/v1/docs/json" });
    expect(response.statusCode).toBe(200);
    type Operation = {
      parameters?: Array<{ in: string; name: string; required?: boolean }>;
      responses: Record<string, { headers?: Record<string, unknown> }>;
    };
    const paths = response.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
    const edit = paths["/v1/api/businesses/{id}"]!.patch!;
    const ifMatch = edit.parameters?.find((p) => p.in === "header" && p.name === "if-match");
    expect(ifMatch).toBeDefined();
    expect(ifMatch!.required).not.toBe(true);
    expect(edit.responses["200"]!.headers).toHaveProperty("ETag");
    expect(paths["/v1/api/businesses/{id}"]!.get!.responses["200"]!.headers).toHaveProperty("ETag");
    const suspend = paths["/v1/api/businesses/{id}/suspend"]!.post!;
    expect(suspend.parameters?.some((p) => p.in === "header" && p.name === "if-match")).toBe(true);
  });
});

describe("actions", () => {
  it("an action bumps the version and checks If-Match; its status guard answers first", async () => {
    const business = await approvedBusiness();
    const stale = etagOf("businesses", business.id, business.version);
    const suspended = await suite.app.inject({
      method: "POST",
      url: `/v1/api/businesses/${business.id}/suspend`,
      headers: { ...auth(first.token), "if-match": stale },
      payload: { remark: "Versions test" },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toMatchObject({ status: "suspended", version: business.version + 1 });
    // Suspending again with the now stale version: the guard's own 409 comes first.
    const again = await suite.app.inject({
      method: "POST",
      url: `/v1/api/businesses/${business.id}/suspend`,
      headers: { ...auth(second.token), "if-match": stale },
      payload: { remark: "Versions test" },
    });
    expectError(again, 409, "BUSINESS_NOT_APPROVED");
    // Reinstating with the stale version: the guard passes, the version refuses.
    const before = await readBusiness(business.id);
    const reinstate = await suite.app.inject({
      method: "POST",
      url: `/v1/api/businesses/${business.id}/reinstate`,
      headers: { ...auth(second.token), "if-match": stale },
      payload: { remark: "Versions test" },
    });
    expectError(reinstate, 409, "VERSION_CONFLICT");
    expect(await readBusiness(business.id)).toEqual(before);
    const current = etagOf("businesses", business.id, business.version + 1);
    const done = await suite.app.inject({
      method: "POST",
      url: `/v1/api/businesses/${business.id}/reinstate`,
      headers: { ...auth(second.token), "if-match": current },
      payload: { remark: "Versions test" },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: "approved", version: business.version + 2 });
  });

  it("a four-eyes change: a stale maker is refused at once; the approval applied later bumps the version", async () => {
    const target = await createAdmin(suite.app, superAdmin, [0]);
    const [row] = await suite.db
      .select({ version: administrators.version })
      .from(administrators)
      .where(eq(administrators.id, target.admin.id));
    const version = row!.version;
    const make = (ifMatch: string) =>
      suite.app.inject({
        method: "PATCH",
        url: `/v1/api/administrators/${target.admin.id}/permissions`,
        headers: {
          ...auth(superAdmin),
          [CHANGE_REASON_HEADER]: "Joins%20the%20merchant%20team",
          "if-match": ifMatch,
        },
        payload: { permissions: [0, 4] },
      });
    expectError(
      await make(etagOf("administrators", target.admin.id, version + 5)),
      409,
      "VERSION_CONFLICT",
    );
    const held = await make(etagOf("administrators", target.admin.id, version));
    expect(held.statusCode, held.body).toBe(202);
    const requestId = held.json<{ changeRequest: { id: number } }>().changeRequest.id;
    const decided = await approve(suite.app, approver, requestId);
    expect(decided.statusCode, decided.body).toBe(200);
    const [after] = await suite.db
      .select({ version: administrators.version, permissions: administrators.permissions })
      .from(administrators)
      .where(eq(administrators.id, target.admin.id));
    expect(after).toEqual({ version: version + 1, permissions: [0, 4] });
  });
});

describe("a module's own change routes (outside the kit's)", () => {
  /** POSTs `path` of record `id` with If-Match `ifMatch` as the super administrator. */
  const change = (url: string, ifMatch: string, payload?: object) =>
    suite.app.inject({
      method: "POST",
      url,
      headers: { ...auth(superAdmin), "if-match": ifMatch },
      ...(payload && { payload }),
    });

  it("publishing and moving a help article check If-Match and answer the new ETag", async () => {
    const [draft] = await suite.db
      .select()
      .from(helpArticles)
      .where(eq(helpArticles.status, "draft"))
      .orderBy(helpArticles.id)
      .limit(1);
    const { id, version } = draft!;
    const url = `/v1/api/help-articles/${id}`;
    const stale = await change(`${url}/publish`, etagOf("help-articles", id, version + 1));
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: "VERSION_CONFLICT", data: { version } });
    const other = await change(`${url}/publish`, etagOf("help-articles", id + 1, version));
    expect(other.json().code).toBe("IF_MATCH_OTHER_RECORD");
    const [unchanged] = await suite.db.select().from(helpArticles).where(eq(helpArticles.id, id));
    expect(unchanged).toMatchObject({ status: "draft", version });

    const published = await change(`${url}/publish`, etagOf("help-articles", id, version));
    expect(published.statusCode, published.body).toBe(200);
    expect(published.headers.etag).toBe(etagOf("help-articles", id, version + 1));
    // The move was based on the version before the publishing: refused, the order unchanged.
    const moved = await change(`${url}/move`, etagOf("help-articles", id, version), {
      direction: "down",
    });
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json().code).toBe("VERSION_CONFLICT");
    const [after] = await suite.db.select().from(helpArticles).where(eq(helpArticles.id, id));
    expect(after).toMatchObject({
      status: "published",
      version: version + 1,
      position: draft!.position,
    });
  });

  it("assigning and starting a user report check If-Match; the status guard answers first", async () => {
    const [open] = await suite.db
      .select()
      .from(userReports)
      .where(eq(userReports.status, "open"))
      .orderBy(userReports.id)
      .limit(1);
    const { id, version } = open!;
    const [admin] = await suite.db
      .select({ id: administrators.id })
      .from(administrators)
      .where(eq(administrators.email, DEMO.superAdmin.email));
    const url = `/v1/api/user-reports/${id}`;
    const stale = await change(`${url}/assign`, etagOf("user-reports", id, version + 5), {
      assigneeId: admin!.id,
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().code).toBe("VERSION_CONFLICT");
    const assigned = await change(`${url}/assign`, etagOf("user-reports", id, version), {
      assigneeId: admin!.id,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.headers.etag).toBe(etagOf("user-reports", id, version + 1));
    const started = await change(`${url}/start`, assigned.headers.etag as string, {});
    expect(started.statusCode, started.body).toBe(200);
    // Started again on the old version: the guard (not open any more) speaks first.
    const again = await change(`${url}/start`, assigned.headers.etag as string, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("REPORT_TRANSITION");
  });
});
