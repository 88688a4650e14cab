import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { authProvider, isLoginError } from "../../src/providers/auth";
import { getCurrentAdmin } from "../../src/providers/current-admin";
import { dataProvider } from "../../src/providers/data";
import { configureErrorHandling, type ErrorNotice } from "../../src/providers/error-handler";
import { changeLanguage } from "../../src/providers/i18n";
import { getToken, setToken } from "../../src/providers/session";
import { anAdmin, aToken } from "./support/fixtures";
import { initErrorTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

const admin = anAdmin();
const notices: ErrorNotice[] = [];
const scheduled: number[] = [];
let restoreHandling: () => void = () => undefined;

beforeAll(async () => {
  await initErrorTexts("en-US");
});

beforeEach(() => {
  restoreHandling = configureErrorHandling({
    notify: (notice) => notices.push(notice),
    schedule: (_run, delayMs) => scheduled.push(delayMs),
    reload: vi.fn<() => void>(),
  });
});

afterEach(() => {
  restoreHandling();
  notices.length = 0;
  scheduled.length = 0;
});

const serveAccount = (answer: () => Response) =>
  server.use(mswHttp.get(`${API}/api/account/admin`, answer));

describe("login", () => {
  it("posts the credentials, stores the token and goes to the dashboard", async () => {
    const token = aToken();
    server.use(mswHttp.post(`${API}/api/auth/login`, () => HttpResponse.json({ token, admin })));
    const result = await authProvider.login({ email: admin.email, password: "Secret123" });
    expect(result).toEqual({ success: true, redirectTo: "/dashboard" });
    expect(await requests[0]!.json()).toEqual({ email: admin.email, password: "Secret123" });
    expect(getToken()).toBe(token);
    expect(document.cookie).toContain(`jwt=${token}`);
    expect(localStorage.getItem("jwt")).toBe(token);
    await expect(authProvider.getIdentity!()).resolves.toEqual(admin);
    expect(requests).toHaveLength(1);
  });

  it("applies the account's saved language at sign-in", async () => {
    const chinese = { ...admin, language: "cn-ZH" as const };
    server.use(
      mswHttp.post(`${API}/api/auth/login`, () =>
        HttpResponse.json({ token: aToken(), admin: chinese }),
      ),
    );
    expect(i18next.language).toBe("en-US");
    await authProvider.login({ email: admin.email, password: "Secret123" });
    expect(i18next.language).toBe("cn-ZH");
    expect(localStorage.getItem("language")).toBe("cn-ZH");
    await changeLanguage("en-US");
  });

  it("shows the server's localised text for a wrong password and stores nothing", async () => {
    localStorage.setItem("language", "cn-ZH");
    server.use(
      mswHttp.post(`${API}/api/auth/login`, ({ request }) =>
        HttpResponse.json(
          {
            message: "Wrong password",
            data:
              request.headers.get("accept-language") === "cn-ZH"
                ? "电子邮件或密码不正确。"
                : "Incorrect e-mail or password.",
          },
          { status: 401 },
        ),
      ),
    );
    const result = await authProvider.login({ email: admin.email, password: "nope" });
    expect(result.success).toBe(false);
    expect(result.error?.message).toBe("电子邮件或密码不正确。");
    expect(result.error?.name).toBe("Login failed");
    expect(getToken()).toBeUndefined();
  });

  it("reports a banned account with the contact e-mail for the dialog and clears the token", async () => {
    setToken(aToken());
    server.use(
      mswHttp.post(`${API}/api/auth/login`, () =>
        HttpResponse.json(
          { message: "User is banned from login.", data: { email: "support@ucsi.example" } },
          { status: 403 },
        ),
      ),
    );
    const result = await authProvider.login({ email: admin.email, password: "Secret123" });
    expect(result.success).toBe(false);
    const error = result.error;
    expect(isLoginError(error) && error.bannedEmail).toBe("support@ucsi.example");
    expect(error?.name).toBe("Account banned from login");
    expect(error?.message).toContain("support@ucsi.example");
    expect(getToken()).toBeUndefined();
  });

  it("translates a refused attempt that carries a code", async () => {
    server.use(
      mswHttp.post(`${API}/api/auth/login`, () =>
        HttpResponse.json({ code: "RATE_LIMITED", message: "Too many requests" }, { status: 429 }),
      ),
    );
    const result = await authProvider.login({ email: admin.email, password: "x" });
    expect(result.error?.message).toBe("Too many attempts. Please wait a minute and try again.");
    expect(notices).toEqual([
      expect.objectContaining({
        message: "Login failed",
        description: "Too many attempts. Please wait a minute and try again.",
      }),
    ]);
  });

  it("says a locked account is locked, and for how many minutes more", async () => {
    server.use(
      mswHttp.post(`${API}/api/auth/login`, () =>
        HttpResponse.json(
          {
            code: "ACCOUNT_LOCKED",
            message: "Too many failed logins for this account",
            data: { retryAfterSeconds: 1_741 },
          },
          { status: 429 },
        ),
      ),
    );
    const result = await authProvider.login({ email: admin.email, password: "x" });
    expect(result.error?.message).toBe(
      "This account is locked after too many failed sign-ins. Try again in 30 minutes, or ask another administrator to reset your password.",
    );
  });
});

describe("check", () => {
  it("without a token sends the visitor to login without calling the API", async () => {
    await expect(authProvider.check()).resolves.toEqual({
      authenticated: false,
      redirectTo: "/login",
    });
    expect(requests).toHaveLength(0);
  });

  it("with a token asks the API who is signed in, sending the cookie as Authorization", async () => {
    const token = aToken();
    setToken(token);
    serveAccount(() => HttpResponse.json(admin));
    await expect(authProvider.check()).resolves.toEqual({ authenticated: true });
    expect(requests[0]!.headers.get("authorization")).toBe(token);
    expect(getCurrentAdmin()).toEqual(admin);
    await expect(authProvider.getPermissions!()).resolves.toEqual({
      permissions: [0, 8],
      isSuperAdmin: false,
    });
    expect(requests).toHaveLength(1);
  });

  it("on an error status clears cookie and storage, says why and reloads to login", async () => {
    setToken(aToken());
    serveAccount(() => HttpResponse.json({ message: "JWT expired" }, { status: 401 }));
    const result = await authProvider.check();
    expect(result).toMatchObject({ authenticated: false, redirectTo: "/login" });
    expect(document.cookie).not.toMatch(/jwt=/);
    expect(localStorage.getItem("jwt")).toBeNull();
    expect(getCurrentAdmin()).toBeNull();
    expect(notices.map((n) => n.message)).toEqual(["Login Expired, Please Relogin"]);
    expect(scheduled).toEqual([500]);
  });

  it("ends the session on any error status, even one the catalogue does not name", async () => {
    setToken(aToken());
    serveAccount(() => new HttpResponse(null, { status: 500 }));
    await expect(authProvider.check()).resolves.toMatchObject({ authenticated: false });
    expect(document.cookie).not.toMatch(/jwt=/);
    expect(localStorage.getItem("jwt")).toBeNull();
    expect(notices.map((n) => n.message)).toEqual([
      "Something went wrong while retriving data, please contact our technical support",
    ]);
    expect(scheduled).toEqual([500]);
  });

  it("keeps the token when the server cannot be reached", async () => {
    const token = aToken();
    setToken(token);
    serveAccount(() => HttpResponse.error());
    const result = await authProvider.check();
    expect(result).toMatchObject({ authenticated: false, redirectTo: "/login" });
    expect(getToken()).toBe(token);
    expect(notices.map((n) => n.message)).toEqual(["Fail to fetch data"]);
    expect(scheduled).toEqual([]);
  });
});

describe("onError", () => {
  const failingList = (status: number, text: string) => {
    server.use(
      mswHttp.get(`${API}/api/administrators/aggregation`, () =>
        HttpResponse.json({ message: text }, { status }),
      ),
    );
    return dataProvider.getList({ resource: "administrators" }).catch((e: unknown) => e);
  };

  it("clears the session and schedules the reload for a dead token", async () => {
    setToken(aToken());
    const result = await authProvider.onError(await failingList(401, "Invalid credential key"));
    expect(result.logout).toBeUndefined();
    expect(getToken()).toBeUndefined();
    expect(notices.map((n) => n.message)).toEqual(["Invalid credential, Please re-login"]);
    expect(scheduled).toEqual([500]);
  });

  it("does not log out on a permission refusal", async () => {
    const token = aToken();
    setToken(token);
    const error = await failingList(403, "You have no permission to access GET Administrators");
    const result = await authProvider.onError(error);
    expect(result.logout).toBeUndefined();
    expect(result.redirectTo).toBeUndefined();
    expect(getToken()).toBe(token);
    expect(scheduled).toEqual([]);
    expect(notices.map((n) => n.message)).toEqual([
      "You have no permission to access GET Administrators",
    ]);
  });
});

describe("logout", () => {
  it("clears the token and goes to login", async () => {
    setToken(aToken());
    server.use(
      mswHttp.post(`${API}/api/auth/logout`, () => new HttpResponse(null, { status: 204 })),
    );
    await expect(authProvider.logout({})).resolves.toEqual({ success: true, redirectTo: "/login" });
    expect(getToken()).toBeUndefined();
    await expect(authProvider.getIdentity!()).resolves.toBeNull();
  });

  it("has the server revoke the token first, with the token it revokes", async () => {
    const token = aToken();
    setToken(token);
    server.use(
      mswHttp.post(`${API}/api/auth/logout`, () => new HttpResponse(null, { status: 204 })),
    );
    await authProvider.logout({});
    const revoke = requests.find((request) => request.url === `${API}/api/auth/logout`);
    expect(revoke?.method).toBe("POST");
    expect(revoke?.headers.get("authorization")).toContain(token);
  });

  it("still forgets the token when the server cannot be reached", async () => {
    setToken(aToken());
    server.use(mswHttp.post(`${API}/api/auth/logout`, () => HttpResponse.error()));
    await expect(authProvider.logout({})).resolves.toEqual({ success: true, redirectTo: "/login" });
    expect(getToken()).toBeUndefined();
  });
});
