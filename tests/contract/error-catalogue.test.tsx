/**
 * Every row of both tables of docs/errors.md, driven through the real HTTP layer (msw answering the
 * console's http client) and the paths Refine takes (authProvider.onError, check, login), drawn by
 * the console's own bridge into antd: what staff read, in both languages, and what happens to the
 * session.
 */
import { App as AntdApp } from "antd";
import { act, render, screen, within } from "@testing-library/react";
import { http as mswHttp, HttpResponse } from "msw";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { ErrorHandlingBridge } from "../../src/app/error-handling-bridge";
import { authProvider } from "../../src/providers/auth";
import { dataProvider } from "../../src/providers/data";
import { configureErrorHandling } from "../../src/providers/error-handler";
import { http } from "../../src/providers/http";
import { getToken, setToken } from "../../src/providers/session";
import { anAdmin, aToken } from "./support/fixtures";
import { initErrorTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server } = useApiServer();

type Language = "en-US" | "cn-ZH";
type Texts = Record<Language, string>;

/** What the administrator is left with after the failure. */
type Effect = "clearTokenAndReload" | "tokenClearedNoReload" | "none";

interface Row {
  row: string;
  /** How the console meets the answer: a change (POST), a read (GET), the login, the check. */
  via: "change" | "read" | "login" | "check";
  answer: (language: Language) => Response;
  /** The toast's headline and detail, or the dialog's title and content; absent: nothing shown. */
  shown?: { title: Texts; detail?: Texts; dialog?: true };
  effect: Effect;
}

const json = (body: Record<string, unknown>, status: number) => () =>
  HttpResponse.json(body, { status });
const message = (text: string, status = 401) => json({ message: text }, status);
const same = (text: string): Texts => ({ "en-US": text, "cn-ZH": text });

const loginExpired: Texts = {
  "en-US": "Login Expired, Please Relogin",
  "cn-ZH": "登录已过期，请重新登录",
};
const unauthorized = {
  title: { "en-US": "User not authorized", "cn-ZH": "用户未获授权" },
  detail: { "en-US": "User not authorized, Please re-login", "cn-ZH": "用户未获授权，请重新登录" },
};
const fetchFailed = {
  title: { "en-US": "Fail to fetch data", "cn-ZH": "获取数据失败" },
  detail: {
    "en-US": "Unexpected error occured when calling api. Please contact admin.",
    "cn-ZH": "调用接口时发生意外错误，请联系管理员。",
  },
};
const listFailed: Texts = {
  "en-US": "Something went wrong while retriving data, please contact our technical support",
  "cn-ZH": "获取数据时出错，请联系我们的技术支持",
};
const unexpected = fetchFailed.detail;

/** docs/errors.md, "Messages the console recognises". */
const CENTRAL_HANDLER: Row[] = [
  {
    row: "JWT expired",
    via: "read",
    answer: message("JWT expired"),
    shown: { title: loginExpired },
    effect: "clearTokenAndReload",
  },
  {
    row: "User not authorise",
    via: "change",
    answer: message("User not authorise"),
    shown: { title: loginExpired },
    effect: "clearTokenAndReload",
  },
  {
    row: "Wrong password",
    via: "login",
    // The server words the text in the language the console asks for (Accept-Language).
    answer: (language) =>
      HttpResponse.json(
        {
          message: "Wrong password",
          data: language === "cn-ZH" ? "电子邮件或密码不正确。" : "Incorrect e-mail or password.",
        },
        { status: 401 },
      ),
    shown: {
      title: { "en-US": "Incorrect e-mail or password.", "cn-ZH": "电子邮件或密码不正确。" },
    },
    effect: "none",
  },
  {
    row: "Unauthorized",
    via: "read",
    answer: message("Unauthorized"),
    shown: unauthorized,
    effect: "clearTokenAndReload",
  },
  {
    row: "Missing credential key",
    via: "read",
    answer: message("Missing credential key"),
    shown: {
      title: { "en-US": "Login Expired, Please re-login", "cn-ZH": "登录已过期，请重新登录" },
    },
    effect: "clearTokenAndReload",
  },
  {
    row: "User not found",
    via: "read",
    answer: message("User not found"),
    shown: {
      title: { "en-US": "User not exits, Please re-login", "cn-ZH": "用户不存在，请重新登录" },
    },
    effect: "clearTokenAndReload",
  },
  {
    row: "User banned from login",
    via: "change",
    answer: message("User banned from login", 403),
    shown: { title: { "en-US": "User is banned from login", "cn-ZH": "该用户已被禁止登录" } },
    effect: "clearTokenAndReload",
  },
  {
    row: "Invalid credential key",
    via: "check",
    answer: message("Invalid credential key"),
    shown: {
      title: {
        "en-US": "Invalid credential, Please re-login",
        "cn-ZH": "凭证无效，请重新登录",
      },
    },
    effect: "clearTokenAndReload",
  },
  {
    row: "User is banned from login. (full stop)",
    via: "login",
    answer: json(
      { message: "User is banned from login.", data: { email: "help@ucsi.example" } },
      403,
    ),
    shown: {
      dialog: true,
      title: { "en-US": "Account banned from login", "cn-ZH": "账户已被禁止登录" },
      detail: {
        "en-US": "This account is prevented from login. Please contact admin at help@ucsi.example.",
        "cn-ZH": "该账户已被禁止登录，请联系管理员：help@ucsi.example。",
      },
    },
    effect: "tokenClearedNoReload",
  },
  {
    row: "any other message",
    via: "change",
    answer: message("Settlement already paid", 409),
    shown: { title: same("Settlement already paid") },
    effect: "none",
  },
  {
    row: "no response",
    via: "read",
    answer: () => HttpResponse.error(),
    shown: fetchFailed,
    effect: "none",
  },
];

/** docs/errors.md, "How the console sorts a failure", and the bad input the issue names. */
const DATA_LAYER: Row[] = [
  {
    row: "error body with a code (no toast by this layer)",
    via: "change",
    answer: json({ code: "EMAIL_TAKEN", message: "E-mail taken" }, 409),
    effect: "none",
  },
  {
    row: "error body with a message",
    via: "change",
    answer: message("You have no permission to access POST Administrator", 403),
    shown: {
      title: {
        "en-US": "You have no permission to access POST Administrator",
        "cn-ZH": "您没有权限访问 POST Administrator",
      },
    },
    effect: "none",
  },
  {
    row: "the message about GET Single User (silently suppressed)",
    via: "read",
    answer: message("You have no permission to access GET Single User", 403),
    effect: "none",
  },
  {
    row: "the text Unauthorized",
    via: "read",
    answer: () => HttpResponse.text("Unauthorized", { status: 401 }),
    shown: unauthorized,
    effect: "clearTokenAndReload",
  },
  {
    row: "any other string body",
    via: "change",
    answer: () => HttpResponse.text("Service temporarily unavailable", { status: 503 }),
    shown: { title: same("Service temporarily unavailable") },
    effect: "none",
  },
  {
    row: "no body, only a status",
    via: "change",
    answer: () => new HttpResponse(null, { status: 502 }),
    shown: { title: { "en-US": "404 Not found", "cn-ZH": "404 未找到" } },
    effect: "none",
  },
  {
    row: "no response at all",
    via: "change",
    answer: () => HttpResponse.error(),
    shown: fetchFailed,
    effect: "none",
  },
  {
    row: "a list fetch fails",
    via: "read",
    answer: json({ code: "INTERNAL_ERROR", message: "Internal server error" }, 500),
    shown: { title: listFailed },
    effect: "none",
  },
  {
    row: "a 500 with an HTML body, on a change",
    via: "change",
    answer: () =>
      new HttpResponse("<!doctype html><h1>500 Internal Server Error</h1>", {
        status: 500,
        headers: { "Content-Type": "text/html" },
      }),
    shown: { title: unexpected },
    effect: "none",
  },
  {
    row: "a 500 with an HTML body, on a list",
    via: "read",
    answer: () =>
      new HttpResponse("<!doctype html><h1>500 Internal Server Error</h1>", {
        status: 500,
        headers: { "Content-Type": "text/html" },
      }),
    shown: { title: listFailed },
    effect: "none",
  },
  {
    row: "a truncated JSON body",
    via: "change",
    answer: () =>
      new HttpResponse('{"message": "Invalid cre', {
        status: 401,
        headers: { "Content-Type": "application/json" },
      }),
    shown: { title: unexpected },
    effect: "none",
  },
];

const reload = vi.fn<() => void>();
const delays: number[] = [];
let restoreHandling: () => void = () => undefined;

beforeEach(() => {
  reload.mockReset();
  delays.length = 0;
  // Reloading is recorded, not done: jsdom cannot navigate, and the test reads the page after.
  restoreHandling = configureErrorHandling({
    reload,
    schedule: (run, delayMs) => {
      delays.push(delayMs);
      run();
    },
  });
});

afterEach(() => restoreHandling());

/** Meets the answer the way the console does on that path. */
async function meet(via: Row["via"], answer: () => Response): Promise<void> {
  if (via === "login") {
    server.use(mswHttp.post(`${API}/api/auth/login`, answer));
    await authProvider.login({ email: "a@ucsi.example", password: "Secret#123" });
  } else if (via === "check") {
    server.use(mswHttp.get(`${API}/api/account/admin`, answer));
    await authProvider.check();
  } else if (via === "read") {
    server.use(mswHttp.get(`${API}/api/administrators/aggregation`, answer));
    const error = await dataProvider
      .getList({ resource: "administrators" })
      .catch((e: unknown) => e);
    await authProvider.onError(error);
  } else {
    server.use(mswHttp.patch(`${API}/api/administrators/7`, answer));
    const error = await dataProvider
      .update({ resource: "administrators", id: 7, variables: { name: "X" } })
      .catch((e: unknown) => e);
    await authProvider.onError(error);
  }
}

function notices(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(".ant-notification-notice")];
}

async function play(row: Row, language: Language) {
  await initErrorTexts(language);
  localStorage.setItem("language", language);
  const token = aToken();
  setToken(token);
  const view = render(
    <AntdApp>
      <ErrorHandlingBridge />
    </AntdApp>,
  );
  await act(() => meet(row.via, () => row.answer(language)));
  return { token, view };
}

function describeTable(name: string, rows: Row[]) {
  describe(name, () => {
    describe.each(["en-US", "cn-ZH"] as const)("in %s", (language) => {
      it.each(rows.map((row) => [row.row, row] as const))("%s", async (_, row) => {
        const { token } = await play(row, language);
        const { shown } = row;

        if (shown?.dialog) {
          const dialog = await screen.findByRole("dialog");
          expect(dialog).toHaveAccessibleName(shown.title[language]);
          expect(within(dialog).getByText(shown.detail![language])).toBeInTheDocument();
          expect(notices()).toHaveLength(0);
        } else if (shown) {
          await vi.waitFor(() => expect(notices()).toHaveLength(1));
          const [notice] = notices();
          expect(within(notice!).getByText(shown.title[language])).toBeInTheDocument();
          if (shown.detail)
            expect(within(notice!).getByText(shown.detail[language])).toBeInTheDocument();
          expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
        } else {
          // Nothing may appear: give a late toast the chance to show itself before checking.
          await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
          expect(notices()).toHaveLength(0);
          expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
        }

        if (row.effect === "none") {
          expect(getToken()).toBe(token);
          expect(document.cookie).toContain(`jwt=${token}`);
          expect(localStorage.getItem("jwt")).toBe(token);
        } else {
          expect(getToken()).toBeUndefined();
          expect(document.cookie).not.toMatch(/jwt=/);
          expect(localStorage.getItem("jwt")).toBeNull();
        }
        if (row.effect === "clearTokenAndReload") {
          expect(reload).toHaveBeenCalledTimes(1);
          expect(delays).toEqual([500]);
        } else {
          expect(reload).not.toHaveBeenCalled();
        }
      });
    });
  });
}

describeTable("docs/errors.md: central handler driven by the server message", CENTRAL_HANDLER);
describeTable("docs/errors.md: response handling in the data layer", DATA_LAYER);

describe("docs/errors.md: the list-failure toast", () => {
  it.each([
    ["en-US", "Administrators: " + listFailed["en-US"]],
    ["cn-ZH", "管理员：" + listFailed["cn-ZH"]],
  ] as const)("names the list when the view gives its title (%s)", async (language, text) => {
    await initErrorTexts(language);
    render(
      <AntdApp>
        <ErrorHandlingBridge />
      </AntdApp>,
    );
    server.use(
      mswHttp.get(`${API}/api/administrators/aggregation`, () =>
        HttpResponse.json({ code: "INTERNAL_ERROR", message: "boom" }, { status: 500 }),
      ),
    );
    const prefix = language === "cn-ZH" ? "管理员" : "Administrators";
    const error = await dataProvider
      .getList({ resource: "administrators", meta: { errorPrefix: prefix } })
      .catch((e: unknown) => e);
    await act(() => authProvider.onError(error));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it("keeps its own wording for a read that is not a list fetch fault", async () => {
    // A refusal is the server speaking to staff: it is shown as it is, not as a fault.
    await initErrorTexts("en-US");
    render(
      <AntdApp>
        <ErrorHandlingBridge />
      </AntdApp>,
    );
    server.use(
      mswHttp.get(`${API}/api/users/3`, () =>
        HttpResponse.json(
          { message: "You have no permission to access GET Administrators" },
          { status: 403 },
        ),
      ),
    );
    const error = await http.get("/api/users/3").catch((e: unknown) => e);
    await act(() => authProvider.onError(error));
    expect(
      await screen.findByText("You have no permission to access GET Administrators"),
    ).toBeInTheDocument();
  });
});

describe("the session check", () => {
  it("keeps the administrator's info for the whole app when the account call answers", async () => {
    setToken(aToken());
    server.use(mswHttp.get(`${API}/api/account/admin`, () => HttpResponse.json(anAdmin())));
    await expect(authProvider.check()).resolves.toEqual({ authenticated: true });
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ name: "Aisyah Rahman" });
  });
});
