/**
 * The user detail page's calls, as the console sends them (the same request descriptors the
 * panels use) through the data provider against msw: paths, methods, bodies, and refusals shown
 * translated in both languages.
 */
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeEach, describe, expect, it } from "vitest";

import cnErrors from "../../locales/cn-ZH/errors.json";
import cnUsers from "../../locales/cn-ZH/users.json";
import enErrors from "../../locales/en-US/errors.json";
import enUsers from "../../locales/en-US/users.json";
import { auditChanges } from "../../src/app/kit/audit-changes";
import { dataProvider } from "../../src/providers/data";
import { setToken } from "../../src/providers/session";
import {
  actionErrorText,
  auditPath,
  banRequest,
  remarkProblem,
  resetPasswordRequest,
  urlProblem,
  urlRequest,
  vipRequest,
  type UserActionRequest,
} from "../../src/resources/users/actions/requests";
import { aToken } from "./support/fixtures";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

async function useLanguage(lng: "en-US" | "cn-ZH") {
  await i18next.init({
    lng,
    fallbackLng: "en-US",
    ns: ["users", "errors"],
    defaultNS: "users",
    resources: {
      "en-US": { users: enUsers, errors: enErrors },
      "cn-ZH": { users: cnUsers, errors: cnErrors },
    },
    interpolation: { escapeValue: false },
  });
  await i18next.changeLanguage(lng);
  const t = i18next.getFixedT(lng, "users");
  return (key: string, options?: Record<string, unknown>) => String(t(key, options));
}

const send = (request: UserActionRequest) =>
  dataProvider.custom!({ url: request.url, method: request.method, payload: request.values });

/** The error a call failed with (the test fails when it succeeds). */
async function failureOf(request: UserActionRequest): Promise<unknown> {
  try {
    await send(request);
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded");
}

const user = { id: 42, accountNumber: "A0000042" };

beforeEach(() => setToken(aToken()));

describe("ban and unban", () => {
  it("bans with PATCH /api/users/{id}/ban and the trimmed remark", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/ban`, () => HttpResponse.json({ id: 42 })));
    await send(banRequest(user.id, true, "  Fraudulent top-ups  "));
    expect(requests[0]!.method).toBe("PATCH");
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/users/42/ban");
    expect(await requests[0]!.json()).toEqual({ ban: true, remark: "Fraudulent top-ups" });
  });

  it("unbans with { ban: false } and no remark", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/ban`, () => HttpResponse.json({ id: 42 })));
    await send(banRequest(user.id, false));
    expect(await requests[0]!.json()).toEqual({ ban: false });
  });

  it("refuses an empty or over-long remark before anything is sent", async () => {
    const t = await useLanguage("en-US");
    expect(remarkProblem(undefined)).toBe("actions.remark.required");
    expect(remarkProblem("   ")).toBe("actions.remark.required");
    expect(remarkProblem("x".repeat(500))).toBeUndefined();
    expect(remarkProblem("x".repeat(501))).toBe("actions.remark.tooLong");
    expect(t("actions.remark.tooLong", { max: 500 })).toBe(
      "The remark can be at most 500 characters.",
    );
  });

  it("shows 409 ALREADY_IN_STATE translated, in English and Chinese", async () => {
    server.use(
      mswHttp.patch(`${API}/api/users/42/ban`, () =>
        HttpResponse.json(
          { code: "ALREADY_IN_STATE", message: "The user is already banned" },
          { status: 409 },
        ),
      ),
    );
    const error = await failureOf(banRequest(user.id, true, "again"));
    expect(actionErrorText(error, await useLanguage("en-US"))).toBe(
      "The user already has this status. The page now shows the current one.",
    );
    expect(actionErrorText(error, await useLanguage("cn-ZH"))).toBe(
      "用户已处于该状态。页面现在显示当前状态。",
    );
  });

  it("shows a 400 VALIDATION_ERROR translated", async () => {
    server.use(
      mswHttp.patch(`${API}/api/users/42/ban`, () =>
        HttpResponse.json(
          {
            code: "VALIDATION_ERROR",
            message: "Remark must be at most 500 characters",
            data: { issues: [{ path: ["remark"], message: "too long" }] },
          },
          { status: 400 },
        ),
      ),
    );
    const error = await failureOf(banRequest(user.id, true, "x"));
    expect(actionErrorText(error, await useLanguage("en-US"))).toBe(
      "Some of the information is not valid. Please check it and try again.",
    );
  });
});

describe("VIP", () => {
  it("sets and clears VIP with POST /user-mgmt/set-vip-status by account number", async () => {
    server.use(
      mswHttp.post(`${API}/user-mgmt/set-vip-status`, () => HttpResponse.json({ ok: true })),
    );
    await send(vipRequest(user.accountNumber, true));
    await send(vipRequest(user.accountNumber, false));
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      "POST /v1/user-mgmt/set-vip-status",
      "POST /v1/user-mgmt/set-vip-status",
    ]);
    expect(await requests[0]!.json()).toEqual({ account_number: "A0000042", is_vip: true });
    expect(await requests[1]!.json()).toEqual({ account_number: "A0000042", is_vip: false });
  });
});

describe("URL", () => {
  it("saves a trimmed https URL with PATCH /api/users/{id}/url", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/url`, () => HttpResponse.json({ id: 42 })));
    await send(urlRequest(user.id, " https://shop.example/aisyah "));
    expect(requests[0]!.method).toBe("PATCH");
    expect(await requests[0]!.json()).toEqual({ url: "https://shop.example/aisyah" });
  });

  it("clears the URL with null when the field is emptied", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/url`, () => HttpResponse.json({ id: 42 })));
    await send(urlRequest(user.id, "  "));
    expect(await requests[0]!.json()).toEqual({ url: null });
  });

  it("refuses javascript:, ftp: and schemeless URLs with the shared rule, translated", async () => {
    for (const url of ["javascript:alert(1)", "ftp://files.example", "shop.example", "https://"]) {
      expect(urlProblem(url)).toBe("actions.url.invalid");
    }
    expect(urlProblem(`https://a.example/${"x".repeat(2048)}`)).toBe("actions.url.tooLong");
    expect(urlProblem("")).toBeUndefined();
    expect(urlProblem("http://a.example")).toBeUndefined();
    expect((await useLanguage("cn-ZH"))("actions.url.invalid")).toBe(
      "请输入以 http:// 或 https:// 开头的网址。",
    );
  });

  it("shows the server's 400 translated when it refuses a URL anyway", async () => {
    server.use(
      mswHttp.patch(`${API}/api/users/42/url`, () =>
        HttpResponse.json(
          { code: "VALIDATION_ERROR", message: "URL must be an absolute http:// or https://" },
          { status: 400 },
        ),
      ),
    );
    const error = await failureOf(urlRequest(user.id, "https://ok.example"));
    expect(actionErrorText(error, await useLanguage("cn-ZH"))).toBe("部分信息无效，请检查后重试。");
  });
});

describe("reset password", () => {
  it("posts the account number and reads when the link expires", async () => {
    server.use(
      mswHttp.post(`${API}/user-mgmt/reset-user-password`, () =>
        HttpResponse.json(
          { status: "sent", expires_at: "2026-11-21T11:00:00.000Z" },
          { status: 202 },
        ),
      ),
    );
    const { data } = await send(resetPasswordRequest(user.accountNumber));
    expect(await requests[0]!.json()).toEqual({ account_number: "A0000042" });
    expect(data).toEqual({ status: "sent", expires_at: "2026-11-21T11:00:00.000Z" });
    const t = await useLanguage("en-US");
    expect(t("actions.reset.sent", { email: "a@x.example", until: "21/11/2026 19:00" })).toBe(
      "A one-time reset link was e-mailed to a@x.example. It works until 21/11/2026 19:00.",
    );
  });

  it("shows 409 NO_EMAIL translated in both languages", async () => {
    server.use(
      mswHttp.post(`${API}/user-mgmt/reset-user-password`, () =>
        HttpResponse.json(
          {
            code: "NO_EMAIL",
            message: "This user has no e-mail address to send the reset link to",
          },
          { status: 409 },
        ),
      ),
    );
    const error = await failureOf(resetPasswordRequest(user.accountNumber));
    expect(actionErrorText(error, await useLanguage("en-US"))).toBe(
      "This user has no e-mail address, so no reset link can be sent.",
    );
    expect(actionErrorText(error, await useLanguage("cn-ZH"))).toBe(
      "该用户没有电子邮件地址，无法发送重置链接。",
    );
  });
});

describe("history", () => {
  it("reads GET /api/users/{id}/audit with page and pageSize", async () => {
    const answer = { totalCount: 0, entries: [] };
    server.use(mswHttp.get(`${API}/api/users/42/audit`, () => HttpResponse.json(answer)));
    const { data } = await dataProvider.custom!({
      url: auditPath(42),
      method: "get",
      query: { page: 2, pageSize: 10 },
    });
    expect(data).toEqual(answer);
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe("/v1/api/users/42/audit");
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: "2", pageSize: "10" });
  });

  it("lists only the fields an entry changed, before and after", () => {
    expect(
      auditChanges(
        { isBanned: false, banRemark: null, isVip: false, email: "a@x.example" },
        { isBanned: true, banRemark: "Fraud", isVip: false, email: "a@x.example" },
      ),
    ).toEqual([
      { field: "banRemark", before: null, after: "Fraud" },
      { field: "isBanned", before: false, after: true },
    ]);
    expect(auditChanges(null, null)).toEqual([]);
  });
});
