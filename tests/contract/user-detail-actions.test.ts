/**
 * The user detail page's calls as the console makes them. Ban, VIP and the URL are the users
 * declaration's actions, sent by the kit (src/app/kit/decision.tsx) at the URL `actionUrl` gives,
 * with the bodies its dialogs build (driven here through the real dialog where the body is the
 * kit's doing: a trimmed remark, an emptied URL); the rules the browser applies before sending
 * are the kit's and the shared schemas'; refusals are explained with `decisionErrorText`. The
 * history keeps its own request (the password reset is drawn in user-detail-panels.test.tsx). All through the real data provider
 * against msw, translated in both languages.
 */
import { screen, waitFor, within } from "@testing-library/react";
import i18next, { type TFunction } from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { createElement } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { auditChanges } from "../../src/app/kit/audit-changes";
import { actionUrl, decisionErrorText } from "../../src/app/kit/decision";
import { bodyOf, issueText } from "../../src/app/kit/form";
import { dataProvider } from "../../src/providers/data";
import { setToken } from "../../src/providers/session";
import { UserActionButtons } from "../../src/resources/users/actions/actions-panel";
import { auditPath } from "../../src/resources/users/actions/requests";
import { remarkProblem, type ActionDecl, type FormDecl } from "../../src/shared/kit/module";
import { users } from "../../src/shared/modules/users";
import { aToken } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderInRefine } from "./support/render";

const { server, requests } = useApiServer();

// antd's dialogs and forms are slow to drive in jsdom.
vi.setConfig({ testTimeout: 20_000 });

/** The real texts in `lng`; answers the console's translate function. */
async function useLanguage(lng: "en-US" | "cn-ZH"): Promise<TFunction> {
  await initPageTexts(["users", "errors", "common", "kit"], { language: lng });
  return i18next.t;
}

/** `users:`-relative translation, as the request helpers take it. */
const usersT = (key: string, options?: Record<string, unknown>) =>
  String(i18next.t(`users:${key}`, options));

const { ban, vip, url } = users.actions;
const urlForm: FormDecl = { body: url.body as FormDecl["body"], audit: url.audit };

/** Sends one action as the kit does: its method, at its URL, with `values`. */
const sendAction = (action: ActionDecl, id: number, values: Record<string, unknown>) =>
  dataProvider.custom!({
    url: actionUrl(users, action, id),
    method: action.method === "POST" ? "post" : "patch",
    payload: values,
  });

/** The error a call failed with (the test fails when it succeeds). */
async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded");
}

const aisyah = {
  id: 42,
  accountNumber: "A0000042",
  name: "Aisyah",
  email: "aisyah@ucsi.example",
  isBanned: false,
  isVip: false,
  url: "https://shop.example/aisyah",
};

/** The kit's buttons of one action on Aisyah, in Refine with the real data provider. */
function renderButtons(only: "ban" | "url", row: Record<string, unknown> = aisyah) {
  const changed = vi.fn();
  const user = renderInRefine(
    createElement(UserActionButtons, {
      row: { ...aisyah, ...row },
      only: [only],
      onDecided: changed,
    }),
  );
  return { user, changed };
}

beforeEach(async () => {
  setToken(aToken());
  await useLanguage("en-US");
});

describe("ban and unban", () => {
  it("bans with PATCH /api/users/{id}/ban and the trimmed remark", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/ban`, () => HttpResponse.json({ id: 42 })));
    expect(actionUrl(users, ban, 42)).toBe("/api/users/42/ban");
    const { user, changed } = renderButtons("ban");
    await user.click(screen.getByRole("button", { name: "Ban Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "Ban Aisyah?" });
    await user.type(within(dialog).getByLabelText("Remark"), "  Fraudulent top-ups  ");
    await user.click(within(dialog).getByRole("button", { name: "Ban" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(requests[0]!.method).toBe("PATCH");
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/users/42/ban");
    expect(await requests[0]!.json()).toEqual({ ban: true, remark: "Fraudulent top-ups" });
  });

  it("unbans with { ban: false } and no remark", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/ban`, () => HttpResponse.json({ id: 42 })));
    const { user, changed } = renderButtons("ban", { isBanned: true });
    await user.click(screen.getByRole("button", { name: "Unban Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "Lift the ban on Aisyah?" });
    await user.click(within(dialog).getByRole("button", { name: "Unban" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(await requests[0]!.json()).toEqual({ ban: false });
  });

  it("refuses an empty or over-long remark with the kit's rule, in the users' words", () => {
    expect(remarkProblem(undefined, ban.input)).toBe("required");
    expect(remarkProblem("   ", ban.input)).toBe("required");
    expect(remarkProblem("x".repeat(500), ban.input)).toBeUndefined();
    expect(remarkProblem("x".repeat(501), ban.input)).toBe("tooLong");
    expect(ban.input.max).toBe(500);
    expect(usersT("decision.remarkTooLong", { max: 500 })).toBe(
      "The remark can be at most 500 characters.",
    );
    expect(usersT("decision.remarkRequired")).toBe("Enter a remark: the user is told why.");
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
    const error = await failureOf(sendAction(ban, 42, { ban: true, remark: "again" }));
    expect(decisionErrorText(await useLanguage("en-US"), users, error)).toBe(
      "The user already has this status. The page now shows the current one.",
    );
    expect(decisionErrorText(await useLanguage("cn-ZH"), users, error)).toBe(
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
    const error = await failureOf(sendAction(ban, 42, { ban: true, remark: "x" }));
    expect(decisionErrorText(await useLanguage("en-US"), users, error)).toBe(
      "Some of the information is not valid. Please check it and try again.",
    );
  });
});

describe("VIP", () => {
  it("sets and clears VIP with PATCH /api/users/{id}/vip", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/vip`, () => HttpResponse.json({ id: 42 })));
    expect(vip.method).toBe("PATCH");
    await sendAction(vip, 42, { isVip: true });
    await sendAction(vip, 42, { isVip: false });
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      "PATCH /v1/api/users/42/vip",
      "PATCH /v1/api/users/42/vip",
    ]);
    expect(await requests[0]!.json()).toEqual({ isVip: true });
    expect(await requests[1]!.json()).toEqual({ isVip: false });
  });
});

describe("URL", () => {
  it("saves a trimmed https URL with PATCH /api/users/{id}/url", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/url`, () => HttpResponse.json({ id: 42 })));
    const { user, changed } = renderButtons("url", { url: null });
    await user.click(screen.getByRole("button", { name: "Save URL of Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "The URL of Aisyah" });
    await user.type(
      within(dialog).getByRole("textbox", { name: "URL" }),
      " https://shop.example/aisyah ",
    );
    await user.click(within(dialog).getByRole("button", { name: "Save URL" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(requests[0]!.method).toBe("PATCH");
    expect(new URL(requests[0]!.url).pathname).toBe("/v1/api/users/42/url");
    expect(await requests[0]!.json()).toEqual({ url: "https://shop.example/aisyah" });
  });

  // An emptied nullable input is null (it was once refused, though the help says "Leave empty").
  it("clears the URL with null when the field is emptied", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/url`, () => HttpResponse.json({ id: 42 })));
    const { user, changed } = renderButtons("url");
    await user.click(screen.getByRole("button", { name: "Save URL of Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "The URL of Aisyah" });
    const field = within(dialog).getByRole("textbox", { name: "URL" });
    expect(field).toHaveValue("https://shop.example/aisyah");
    await user.clear(field);
    await user.click(within(dialog).getByRole("button", { name: "Save URL" }));
    expect(
      within(dialog).queryByText("Enter a web address starting with http:// or https://."),
    ).not.toBeInTheDocument();
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(await requests[0]!.json()).toEqual({ url: null });
  });

  it("refuses javascript:, ftp: and schemeless URLs with the shared rule, translated", async () => {
    const problem = (value: string) => {
      const result = bodyOf(urlForm, { url: value });
      return result.success ? undefined : result.error.issues[0]!;
    };
    const t = await useLanguage("cn-ZH");
    for (const value of [
      "javascript:alert(1)",
      "ftp://files.example",
      "shop.example",
      "https://",
    ]) {
      const issue = problem(value);
      expect(issue, value).toBeDefined();
      expect(issueText(t, users, urlForm, "url", issue!)).toBe(
        "请输入以 http:// 或 https:// 开头的网址。",
      );
    }
    expect(problem(`https://a.example/${"x".repeat(2048)}`)).toBeDefined();
    expect(problem("http://a.example")).toBeUndefined();
    expect(bodyOf(urlForm, { url: null }).success).toBe(true);
    expect(requests).toHaveLength(0);
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
    const error = await failureOf(sendAction(url, 42, { url: "https://ok.example" }));
    expect(decisionErrorText(await useLanguage("cn-ZH"), users, error)).toBe(
      "部分信息无效，请检查后重试。",
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
    const address = new URL(requests[0]!.url);
    expect(address.pathname).toBe("/v1/api/users/42/audit");
    expect(Object.fromEntries(address.searchParams)).toEqual({ page: "2", pageSize: "10" });
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
