/**
 * Issue 33 in the console: the sign-in's second step (the code from the authenticator app, or a
 * recovery code), the step-up dialog a sensitive request waits on, and the idle time every
 * request reports. Through the real auth provider, http client and pages, against msw.
 */
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntdApp, Button, Input } from "antd";
import { http as mswHttp, HttpResponse } from "msw";
import { useState, type ReactElement } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { CONSOLE_NOTIFICATIONS } from "../../src/app/console-config";
import { ErrorHandlingBridge } from "../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../src/app/notification-provider";
import LoginPage from "../../src/app/pages/login";
import { StepUpDialog } from "../../src/app/step-up-dialog";
import { authProvider } from "../../src/providers/auth";
import { dataProvider } from "../../src/providers/data";
import { translateApiError } from "../../src/providers/errors";
import { http } from "../../src/providers/http";
import { i18nProvider } from "../../src/providers/i18n";
import { trackActivity } from "../../src/providers/idle";
import { setSecondFactor } from "../../src/providers/second-factor";
import { getToken, setToken } from "../../src/providers/session";
import { anAdmin, aToken } from "./support/fixtures";
import { initPageTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

const admin = anAdmin();
const TICKET = "T".repeat(43);
// jsdom never ends antd's animation of a spinner leaving, whose icon then names the button too.
const VERIFY = /^(loading)?Verify$/;

beforeAll(async () => {
  await initPageTexts(["common", "errors", "session", "menu"]);
});

afterEach(() => setSecondFactor(null));

function renderConsole(path: string, ui: ReactElement) {
  const user = userEvent.setup();
  render(
    <AntdApp notification={CONSOLE_NOTIFICATIONS}>
      <MemoryRouter initialEntries={[path]}>
        <Refine
          authProvider={authProvider}
          dataProvider={dataProvider}
          routerProvider={routerProvider}
          i18nProvider={i18nProvider}
          notificationProvider={useConsoleNotificationProvider}
          options={{ disableTelemetry: true }}
        >
          <ErrorHandlingBridge />
          <Routes>
            <Route path="/login" element={ui} />
            <Route path="/dashboard" element={<p>The dashboard</p>} />
            <Route path="/form" element={ui} />
          </Routes>
        </Refine>
      </MemoryRouter>
    </AntdApp>,
  );
  return user;
}

const bodies = async (path: string) =>
  Promise.all(
    requests
      .filter((request) => new URL(request.url).pathname === `/v1${path}`)
      .map((request) => request.clone().json() as Promise<unknown>),
  );

/** The password step answered with a ticket for the code step. */
function serveSecondFactor(methods = ["totp", "recovery-code"]) {
  server.use(
    mswHttp.post(`${API}/api/auth/login`, () =>
      HttpResponse.json({ secondFactor: { ticket: TICKET, methods } }),
    ),
    mswHttp.get(`${API}/api/account/admin`, () =>
      getToken() ? HttpResponse.json(admin) : HttpResponse.json({}, { status: 401 }),
    ),
  );
}

async function passwordStep(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText("Email"), admin.email);
  await user.type(screen.getByLabelText("Password"), "Secret#2026");
  await user.click(screen.getByRole("button", { name: "Sign in" }));
  expect(await screen.findByRole("heading", { name: "Confirm it is you" })).toBeVisible();
}

describe("signing in with a second factor", () => {
  it("asks for the app's code after the password, then signs in", async () => {
    serveSecondFactor();
    const token = aToken();
    server.use(
      mswHttp.post(`${API}/api/auth/login/second-factor`, () =>
        HttpResponse.json({ token, admin }),
      ),
    );
    const user = renderConsole("/login", <LoginPage />);
    await passwordStep(user);
    expect(getToken()).toBeUndefined();
    const code = screen.getByLabelText("Code from the authenticator app");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toHaveFocus();
    await user.type(code, "123456");
    await user.click(screen.getByRole("button", { name: VERIFY }));
    expect(await screen.findByText("The dashboard")).toBeInTheDocument();
    expect(getToken()).toBe(token);
    expect(await bodies("/api/auth/login/second-factor")).toEqual([
      { ticket: TICKET, method: "totp", code: "123456" },
    ]);
  });

  it("takes a recovery code instead, and says why a code was refused", async () => {
    serveSecondFactor();
    let attempts = 0;
    server.use(
      mswHttp.post(`${API}/api/auth/login/second-factor`, () =>
        ++attempts === 1
          ? HttpResponse.json({ code: "WRONG_CODE", message: "Wrong code" }, { status: 400 })
          : HttpResponse.json({ token: aToken(), admin }),
      ),
    );
    const user = renderConsole("/login", <LoginPage />);
    await passwordStep(user);
    await user.click(screen.getByRole("button", { name: "Use a recovery code instead" }));
    const field = screen.getByLabelText("Recovery code");
    await user.type(field, "abcd-efgh-ijkl-mnop");
    await user.click(screen.getByRole("button", { name: VERIFY }));
    expect(await screen.findByText(t("errors:codes.WRONG_CODE"))).toBeInTheDocument();
    expect(screen.getByLabelText("Recovery code")).toHaveValue("abcd-efgh-ijkl-mnop");
    await user.clear(field);
    await user.type(field, "ABCD-EFGH-IJKL-MNOQ");
    await user.click(screen.getByRole("button", { name: VERIFY }));
    expect(await screen.findByText("The dashboard")).toBeInTheDocument();
    expect(await bodies("/api/auth/login/second-factor")).toEqual([
      { ticket: TICKET, method: "recovery-code", code: "abcd-efgh-ijkl-mnop" },
      { ticket: TICKET, method: "recovery-code", code: "ABCD-EFGH-IJKL-MNOQ" },
    ]);
  });

  it("goes back to the password with the reason when the sign-in expired", async () => {
    serveSecondFactor(["totp"]);
    server.use(
      mswHttp.post(`${API}/api/auth/login/second-factor`, () =>
        HttpResponse.json(
          { code: "LOGIN_TICKET_EXPIRED", message: "Sign in again" },
          { status: 400 },
        ),
      ),
    );
    const user = renderConsole("/login", <LoginPage />);
    await passwordStep(user);
    expect(screen.queryByRole("button", { name: "Use a recovery code instead" })).toBeNull();
    await user.type(screen.getByLabelText("Code from the authenticator app"), "654321");
    await user.click(screen.getByRole("button", { name: VERIFY }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      t("errors:codes.LOGIN_TICKET_EXPIRED"),
    );
    expect(screen.getByRole("heading", { name: "Sign in to the back office" })).toBeVisible();
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
    expect(getToken()).toBeUndefined();
  });
});

/** A page's form whose save is a sensitive request; it shows the answer, or the refusal. */
function PolicyForm() {
  const [name, setName] = useState("");
  const [outcome, setOutcome] = useState("");
  const save = () =>
    http.post<{ id: number }>("/api/wallet-policies", { name }).then(
      ({ data }) => setOutcome(`Saved policy ${data.id}`),
      (error: unknown) => setOutcome(translateApiError(error, t)),
    );
  return (
    <>
      <StepUpDialog />
      <Input aria-label="Policy name" value={name} onChange={(e) => setName(e.target.value)} />
      <Button onClick={() => void save()}>Save policy</Button>
      <output>{outcome}</output>
    </>
  );
}

function serveStepUp(methods: string[]) {
  let proven = false;
  server.use(
    mswHttp.get(`${API}/api/account/admin`, () => HttpResponse.json(admin)),
    mswHttp.post(`${API}/api/wallet-policies`, () =>
      proven
        ? HttpResponse.json({ id: 12 }, { status: 201 })
        : HttpResponse.json(
            { code: "STEP_UP_REQUIRED", message: "Step up", data: { methods } },
            { status: 403 },
          ),
    ),
    mswHttp.post(`${API}/api/auth/step-up`, async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      if (code !== "246810" && code !== "Secret#2026") {
        return HttpResponse.json({ code: "WRONG_CODE", message: "Wrong code" }, { status: 400 });
      }
      proven = true;
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

describe("step-up", () => {
  it("asks for the code, then sends the request again and hands over its answer", async () => {
    setToken(aToken());
    serveStepUp(["totp", "recovery-code"]);
    const user = renderConsole("/form", <PolicyForm />);
    await user.type(await screen.findByLabelText("Policy name"), "Exam week");
    await user.click(screen.getByRole("button", { name: "Save policy" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm who you are to continue" });
    expect(dialog).toBeInTheDocument();
    const code = screen.getByLabelText("Code from the authenticator app");
    await user.type(code, "111111");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText(t("errors:codes.WRONG_CODE"))).toBeInTheDocument();
    expect(screen.getByRole("dialog")).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, "246810");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("Saved policy 12")).toBeInTheDocument();
    expect(screen.getByLabelText("Policy name")).toHaveValue("Exam week");
    expect(await bodies("/api/wallet-policies")).toEqual([
      { name: "Exam week" },
      { name: "Exam week" },
    ]);
    expect(await bodies("/api/auth/step-up")).toEqual([
      { method: "totp", code: "111111" },
      { method: "totp", code: "246810" },
    ]);
  });

  it("asks once for requests refused together, and asks for the password when that is all", async () => {
    setToken(aToken());
    serveStepUp(["password"]);
    const answers: unknown[] = [];
    const user = renderConsole("/form", <StepUpDialog />);
    const both = Promise.all([
      http.post<{ id: number }>("/api/wallet-policies", { n: 1 }),
      http.post<{ id: number }>("/api/wallet-policies", { n: 2 }),
    ]).then((done) => answers.push(...done.map(({ data }) => data)));
    await screen.findByRole("dialog");
    expect(screen.getAllByRole("dialog")).toHaveLength(1);
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");
    await user.type(password, "Secret#2026");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    await both;
    expect(answers).toEqual([{ id: 12 }, { id: 12 }]);
    expect(await bodies("/api/auth/step-up")).toEqual([
      { method: "password", code: "Secret#2026" },
    ]);
  });

  it("gives the caller the refusal when cancelled, and keeps what was typed", async () => {
    setToken(aToken());
    serveStepUp(["totp"]);
    const user = renderConsole("/form", <PolicyForm />);
    await user.type(await screen.findByLabelText("Policy name"), "Exam week");
    await user.click(screen.getByRole("button", { name: "Save policy" }));
    await screen.findByRole("dialog");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(await screen.findByText(t("errors:codes.STEP_UP_REQUIRED"))).toBeInTheDocument();
    expect(screen.getByLabelText("Policy name")).toHaveValue("Exam week");
    expect(await bodies("/api/wallet-policies")).toHaveLength(1);
    expect(requests.some((r) => r.url.endsWith("/api/auth/step-up"))).toBe(false);
  });
});

describe("idle time", () => {
  it("sends the seconds since the last key press with every request", async () => {
    const stop = trackActivity();
    const now = vi.spyOn(Date, "now");
    try {
      const start = Date.UTC(2026, 0, 5, 9, 0, 0);
      now.mockReturnValue(start);
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "a" }));
      now.mockReturnValue(start + 42_500);
      server.use(mswHttp.get(`${API}/api/auth/session`, () => HttpResponse.json({})));
      await http.get("/api/auth/session");
      expect(requests.at(-1)?.headers.get("x-idle-seconds")).toBe("42");
    } finally {
      now.mockRestore();
      stop();
    }
  });
});
