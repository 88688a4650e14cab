/**
 * Passkeys in the console (issue 33): signing in with a passkey alone or as the second step, the
 * step-up with a passkey, and the passkeys on Setting (added with a name, listed, removed). The
 * browser's ceremony is `@simplewebauthn/browser`, stood in for here; everything else is the real
 * providers and pages against msw answering as the server does.
 */
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntdApp, Button } from "antd";
import { http as mswHttp, HttpResponse } from "msw";
import { useState, type ReactElement } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { CONSOLE_NOTIFICATIONS } from "../../src/app/console-config";
import { ErrorHandlingBridge } from "../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../src/app/notification-provider";
import LoginPage from "../../src/app/pages/login";
import { TwoStepCard } from "../../src/app/setting/two-step-card";
import { StepUpDialog } from "../../src/app/step-up-dialog";
import { authProvider } from "../../src/providers/auth";
import { dataProvider } from "../../src/providers/data";
import { translateApiError } from "../../src/providers/errors";
import { http } from "../../src/providers/http";
import { i18nProvider } from "../../src/providers/i18n";
import {
  describePasskeyFailure,
  PasskeyCeremonyError,
  registerPasskey,
  removePasskey,
  signInWithPasskey,
  stepUpWithPasskey,
} from "../../src/providers/passkey";
import { setSecondFactor } from "../../src/providers/second-factor";
import { getToken, setToken } from "../../src/providers/session";
import type { FactorsDto, PasskeyDto } from "../../src/shared/schemas/auth";
import { anAdmin, aToken } from "./support/fixtures";
import { initPageTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const webauthn = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn<() => boolean>(),
  startAuthentication: vi.fn<(args: { optionsJSON: unknown }) => Promise<unknown>>(),
  startRegistration: vi.fn<(args: { optionsJSON: unknown }) => Promise<unknown>>(),
}));
vi.mock("@simplewebauthn/browser", () => webauthn);

const { server, requests } = useApiServer();
vi.setConfig({ testTimeout: 40_000 });

const admin = anAdmin();
const TICKET = "T".repeat(43);
const REQUEST_OPTIONS = {
  challenge: "c2lnbi1pbg",
  rpId: "localhost",
  userVerification: "required",
};
const CREATION_OPTIONS = { challenge: "bmV3LWtleQ", rp: { id: "localhost", name: "UCSI Wallet" } };
const ASSERTION = {
  id: "Y3JlZA",
  rawId: "Y3JlZA",
  type: "public-key",
  response: { clientDataJSON: "Y2Q", authenticatorData: "YWQ", signature: "c2ln" },
  clientExtensionResults: {},
};
const ATTESTATION = {
  id: "bmV3",
  rawId: "bmV3",
  type: "public-key",
  response: { clientDataJSON: "Y2Q", attestationObject: "YW8", transports: ["internal"] },
  clientExtensionResults: {},
};
const CODES = Array.from({ length: 10 }, (_, i) => `AB${i}C-D3EF-GH4J-KL5M`);
const cancelled = () =>
  Object.assign(new Error("The operation either timed out or was not allowed."), {
    name: "NotAllowedError",
    code: "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY",
  });
const refusal = (code: string, status = 400) =>
  HttpResponse.json({ code, message: code }, { status });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "session", "security", "menu"]);
});

beforeEach(() => {
  webauthn.browserSupportsWebAuthn.mockReturnValue(true);
  webauthn.startAuthentication.mockResolvedValue(ASSERTION);
  webauthn.startRegistration.mockResolvedValue(ATTESTATION);
});

afterEach(() => {
  setSecondFactor(null);
  vi.clearAllMocks();
});

const bodies = async (path: string) =>
  Promise.all(
    requests
      .filter((request) => new URL(request.url).pathname === `/v1${path}`)
      .map(async (request) => {
        const text = await request.clone().text();
        return text === "" ? undefined : (JSON.parse(text) as unknown);
      }),
  );

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

function serveSignIn() {
  server.use(
    mswHttp.post(`${API}/api/auth/passkey/challenge`, () => HttpResponse.json(REQUEST_OPTIONS)),
    mswHttp.get(`${API}/api/account/admin`, () =>
      getToken() ? HttpResponse.json(admin) : HttpResponse.json({}, { status: 401 }),
    ),
  );
}

describe("the passkey calls", () => {
  it("signs in with a passkey alone: a challenge without a ticket, then its answer", async () => {
    const token = aToken();
    serveSignIn();
    server.use(
      mswHttp.post(`${API}/api/auth/login/passkey`, () => HttpResponse.json({ token, admin })),
    );
    await expect(signInWithPasskey()).resolves.toEqual({ token, admin });
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: REQUEST_OPTIONS });
    expect(await bodies("/api/auth/passkey/challenge")).toEqual([{}]);
    expect(await bodies("/api/auth/login/passkey")).toEqual([{ credential: ASSERTION }]);
  });

  it("steps up with a passkey: the session's challenge, then the proof", async () => {
    setToken(aToken());
    server.use(
      mswHttp.post(`${API}/api/auth/step-up/challenge`, () => HttpResponse.json(REQUEST_OPTIONS)),
      mswHttp.post(`${API}/api/auth/step-up`, () => new HttpResponse(null, { status: 204 })),
    );
    await stepUpWithPasskey();
    expect(await bodies("/api/auth/step-up")).toEqual([
      { method: "passkey", credential: ASSERTION },
    ]);
  });

  it("adds a passkey with its name and removes one by its id", async () => {
    setToken(aToken());
    const passkey: PasskeyDto = {
      id: 7,
      name: "YubiKey",
      createdAt: "2026-11-28T02:00:00.000Z",
      lastUsedAt: null,
      synced: false,
    };
    server.use(
      mswHttp.post(`${API}/api/account/passkeys/challenge`, () =>
        HttpResponse.json(CREATION_OPTIONS),
      ),
      mswHttp.post(`${API}/api/account/passkeys`, () =>
        HttpResponse.json({ passkey, recoveryCodes: CODES }, { status: 201 }),
      ),
      mswHttp.delete(
        `${API}/api/account/passkeys/7`,
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    await expect(registerPasskey("YubiKey")).resolves.toEqual({ passkey, recoveryCodes: CODES });
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: CREATION_OPTIONS });
    expect(await bodies("/api/account/passkeys")).toEqual([
      { name: "YubiKey", credential: ATTESTATION },
    ]);
    await removePasskey(7);
    expect(requests.at(-1)?.method).toBe("DELETE");
  });

  it("tells a cancelled or repeated ceremony from the server's refusals", async () => {
    setToken(aToken());
    server.use(
      mswHttp.post(`${API}/api/account/passkeys/challenge`, () =>
        HttpResponse.json(CREATION_OPTIONS),
      ),
    );
    webauthn.startRegistration.mockRejectedValueOnce(cancelled());
    const first = await registerPasskey("Key").catch((error: unknown) => error);
    expect(first).toBeInstanceOf(PasskeyCeremonyError);
    expect(describePasskeyFailure(first, t)).toBe(
      "The passkey request was cancelled or timed out.",
    );
    webauthn.startRegistration.mockRejectedValueOnce(
      Object.assign(new Error("previously registered"), { name: "InvalidStateError" }),
    );
    const second = await registerPasskey("Key").catch((error: unknown) => error);
    expect(describePasskeyFailure(second, t)).toBe("This passkey is already registered.");
    expect(requests.some((r) => new URL(r.url).pathname === "/v1/api/account/passkeys")).toBe(
      false,
    );

    server.use(mswHttp.post(`${API}/api/auth/login/passkey`, () => refusal("PASSKEY_FAILED")));
    serveSignIn();
    const third = await signInWithPasskey().catch((error: unknown) => error);
    expect(describePasskeyFailure(third, t)).toBe("The passkey was not accepted. Try again.");
  });
});

describe("signing in with a passkey", () => {
  it("signs in with a passkey alone from the sign-in page", async () => {
    const token = aToken();
    serveSignIn();
    server.use(
      mswHttp.post(`${API}/api/auth/login/passkey`, () => HttpResponse.json({ token, admin })),
    );
    const user = renderConsole("/login", <LoginPage />);
    await user.click(await screen.findByRole("button", { name: "Continue with a passkey" }));
    expect(await screen.findByText("The dashboard")).toBeInTheDocument();
    expect(getToken()).toBe(token);
  });

  it("says so when the passkey prompt is cancelled, and sends nothing more", async () => {
    serveSignIn();
    webauthn.startAuthentication.mockRejectedValueOnce(cancelled());
    const user = renderConsole("/login", <LoginPage />);
    await user.click(await screen.findByRole("button", { name: "Continue with a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The passkey request was cancelled or timed out.",
    );
    expect(getToken()).toBeUndefined();
    expect(requests.some((r) => r.url.endsWith("/api/auth/login/passkey"))).toBe(false);
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
  });

  it("says why the server refused the passkey", async () => {
    serveSignIn();
    server.use(mswHttp.post(`${API}/api/auth/login/passkey`, () => refusal("PASSKEY_FAILED")));
    const user = renderConsole("/login", <LoginPage />);
    await user.click(await screen.findByRole("button", { name: "Continue with a passkey" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(t("errors:codes.PASSKEY_FAILED"));
  });

  it("offers no passkey where the browser cannot use one", async () => {
    webauthn.browserSupportsWebAuthn.mockReturnValue(false);
    renderConsole("/login", <LoginPage />);
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Continue with a passkey" })).toBeNull();
  });

  async function passwordStep(methods: string[]) {
    serveSignIn();
    server.use(
      mswHttp.post(`${API}/api/auth/login`, () =>
        HttpResponse.json({ secondFactor: { ticket: TICKET, methods } }),
      ),
    );
    const user = renderConsole("/login", <LoginPage />);
    await user.type(await screen.findByLabelText("Email"), admin.email);
    await user.type(screen.getByLabelText("Password"), "Secret#2026");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Confirm it is you" })).toBeVisible();
    return user;
  }

  it("offers the passkey first at the second step, with the codes as alternatives", async () => {
    const token = aToken();
    server.use(
      mswHttp.post(`${API}/api/auth/login/second-factor`, () =>
        HttpResponse.json({ token, admin }),
      ),
    );
    const user = await passwordStep(["passkey", "totp", "recovery-code"]);
    expect(screen.queryByLabelText("Code from the authenticator app")).toBeNull();
    expect(
      screen.getByRole("button", { name: "Use the code from the authenticator app instead" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Use a recovery code instead" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /^(loading)?Use a passkey$/ }));
    expect(await screen.findByText("The dashboard")).toBeInTheDocument();
    expect(getToken()).toBe(token);
    expect(await bodies("/api/auth/passkey/challenge")).toEqual([{ ticket: TICKET }]);
    expect(await bodies("/api/auth/login/second-factor")).toEqual([
      { ticket: TICKET, method: "passkey", credential: ASSERTION },
    ]);
  });

  it("says a cancelled passkey on the step, and takes the app's code instead", async () => {
    server.use(
      mswHttp.post(`${API}/api/auth/login/second-factor`, () =>
        HttpResponse.json({ token: aToken(), admin }),
      ),
    );
    webauthn.startAuthentication.mockRejectedValueOnce(cancelled());
    const user = await passwordStep(["passkey", "totp", "recovery-code"]);
    await user.click(screen.getByRole("button", { name: /^(loading)?Use a passkey$/ }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The passkey request was cancelled or timed out.",
    );
    expect(screen.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
    await user.click(
      screen.getByRole("button", { name: "Use the code from the authenticator app instead" }),
    );
    await user.type(screen.getByLabelText("Code from the authenticator app"), "123456");
    expect(screen.getByRole("button", { name: "Use a passkey instead" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: /^(loading)?Verify$/ }));
    expect(await screen.findByText("The dashboard")).toBeInTheDocument();
    expect(await bodies("/api/auth/login/second-factor")).toEqual([
      { ticket: TICKET, method: "totp", code: "123456" },
    ]);
  });
});

/** A page's save that the server refuses until a step-up; it shows the answer or the refusal. */
function PolicyForm() {
  const [outcome, setOutcome] = useState("");
  const save = () =>
    http.post<{ id: number }>("/api/wallet-policies", { name: "Exam week" }).then(
      ({ data }) => setOutcome(`Saved policy ${data.id}`),
      (error: unknown) => setOutcome(translateApiError(error, t)),
    );
  return (
    <>
      <StepUpDialog />
      <Button onClick={() => void save()}>Save policy</Button>
      <output>{outcome}</output>
    </>
  );
}

describe("step-up with a passkey", () => {
  function serveStepUp() {
    let proven = false;
    server.use(
      mswHttp.get(`${API}/api/account/admin`, () => HttpResponse.json(admin)),
      mswHttp.post(`${API}/api/wallet-policies`, () =>
        proven
          ? HttpResponse.json({ id: 12 }, { status: 201 })
          : HttpResponse.json(
              {
                code: "STEP_UP_REQUIRED",
                message: "Step up",
                data: { methods: ["passkey", "totp", "recovery-code"] },
              },
              { status: 403 },
            ),
      ),
      mswHttp.post(`${API}/api/auth/step-up/challenge`, () => HttpResponse.json(REQUEST_OPTIONS)),
      mswHttp.post(`${API}/api/auth/step-up`, () => {
        proven = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
  }

  it("proves it with a passkey, then sends the request again", async () => {
    setToken(aToken());
    serveStepUp();
    const user = renderConsole("/form", <PolicyForm />);
    await user.click(await screen.findByRole("button", { name: "Save policy" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm who you are to continue" });
    await user.click(within(dialog).getByRole("button", { name: "Use a passkey" }));
    expect(await screen.findByText("Saved policy 12")).toBeInTheDocument();
    expect(await bodies("/api/auth/step-up")).toEqual([
      { method: "passkey", credential: ASSERTION },
    ]);
    expect(await bodies("/api/wallet-policies")).toHaveLength(2);
  });

  it("says a cancelled passkey in the dialog, which stays for another try", async () => {
    setToken(aToken());
    serveStepUp();
    webauthn.startAuthentication.mockRejectedValueOnce(cancelled());
    const user = renderConsole("/form", <PolicyForm />);
    await user.click(await screen.findByRole("button", { name: "Save policy" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm who you are to continue" });
    await user.click(within(dialog).getByRole("button", { name: "Use a passkey" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "The passkey request was cancelled or timed out.",
    );
    expect(requests.some((r) => r.url.endsWith("/api/auth/step-up"))).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: /Use a passkey$/ }));
    expect(await screen.findByText("Saved policy 12")).toBeInTheDocument();
  });
});

describe("passkeys on Setting", () => {
  const YUBIKEY: PasskeyDto = {
    id: 7,
    name: "YubiKey",
    createdAt: "2026-11-20T02:00:00.000Z",
    lastUsedAt: null,
    synced: false,
  };
  const PHONE: PasskeyDto = {
    id: 8,
    name: "Phone",
    createdAt: "2026-11-21T02:00:00.000Z",
    lastUsedAt: "2026-11-27T02:00:00.000Z",
    synced: true,
  };
  const factorsWith = (passkeys: PasskeyDto[]): FactorsDto => ({
    totpSince: null,
    passkeys,
    recoveryCodesLeft: passkeys.length > 0 ? 10 : 0,
    methods: passkeys.length > 0 ? ["passkey", "recovery-code"] : [],
  });

  function serveFactors(first: FactorsDto) {
    const factors = { now: first };
    server.use(mswHttp.get(`${API}/api/account/factors`, () => HttpResponse.json(factors.now)));
    return factors;
  }

  function renderCard() {
    setToken(aToken());
    const user = userEvent.setup();
    renderPage("/", [], { "/": <TwoStepCard /> });
    return user;
  }

  it("lists each passkey with when it was added and used, synced ones tagged", async () => {
    serveFactors(factorsWith([YUBIKEY, PHONE]));
    renderCard();
    const list = await screen.findByRole("list", { name: "Your passkeys" });
    const [yubikey, phone] = within(list).getAllByRole("listitem");
    expect(yubikey).toHaveTextContent("YubiKey");
    expect(yubikey).toHaveTextContent("never used");
    expect(within(yubikey!).queryByText("Synced")).toBeNull();
    expect(phone).toHaveTextContent("Phone");
    expect(phone).toHaveTextContent("last used");
    expect(within(phone!).getByText("Synced")).toBeInTheDocument();
    expect(screen.getByText("10 recovery codes left")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "New recovery codes" })).toBeInTheDocument();
  });

  it("adds a first passkey with a name and shows its recovery codes once", async () => {
    const factors = serveFactors(factorsWith([]));
    server.use(
      mswHttp.post(`${API}/api/account/passkeys/challenge`, () =>
        HttpResponse.json(CREATION_OPTIONS),
      ),
      mswHttp.post(`${API}/api/account/passkeys`, () => {
        factors.now = factorsWith([YUBIKEY]);
        return HttpResponse.json({ passkey: YUBIKEY, recoveryCodes: CODES }, { status: 201 });
      }),
    );
    const user = renderCard();
    expect(await screen.findByText("No passkey is added.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add a passkey" }));
    const name = screen.getByLabelText("Name of the passkey");
    expect(name).not.toHaveValue("");
    await user.clear(name);
    await user.type(name, "YubiKey");
    await user.click(screen.getByRole("button", { name: "Continue" }));
    const codes = await screen.findByRole("list", { name: "Recovery codes" });
    expect(within(codes).getAllByRole("listitem")).toHaveLength(10);
    expect(await bodies("/api/account/passkeys")).toEqual([
      { name: "YubiKey", credential: ATTESTATION },
    ]);
    await user.click(screen.getByRole("button", { name: "I have saved them" }));
    const list = await screen.findByRole("list", { name: "Your passkeys" });
    expect(list).toHaveTextContent("YubiKey");
  });

  it("says so when the authenticator already holds a passkey of the account", async () => {
    serveFactors(factorsWith([YUBIKEY]));
    server.use(
      mswHttp.post(`${API}/api/account/passkeys/challenge`, () =>
        HttpResponse.json(CREATION_OPTIONS),
      ),
      mswHttp.post(`${API}/api/account/passkeys`, () => refusal("PASSKEY_EXISTS", 409)),
    );
    const user = renderCard();
    await user.click(await screen.findByRole("button", { name: "Add a passkey" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("This passkey is already registered.")).toBeInTheDocument();
    expect(screen.getByText("The passkey could not be added")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Recovery codes" })).toBeNull();
  });

  it("removes a passkey after a confirmation, or says why it must stay", async () => {
    const factors = serveFactors(factorsWith([YUBIKEY, PHONE]));
    let removals = 0;
    server.use(
      mswHttp.delete(`${API}/api/account/passkeys/:id`, ({ params }) => {
        if (++removals > 1) return refusal("SECOND_FACTOR_REQUIRED", 409);
        factors.now = factorsWith(factors.now.passkeys.filter((p) => p.id !== Number(params.id)));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = renderCard();
    await user.click(await screen.findByRole("button", { name: "Remove the passkey YubiKey" }));
    const popup = await screen.findByRole("tooltip");
    expect(popup).toHaveTextContent("Remove this passkey?");
    await user.click(within(popup).getByRole("button", { name: "Remove" }));
    expect(await screen.findByText("The passkey was removed")).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(screen.queryByRole("button", { name: "Remove the passkey YubiKey" })).toBeNull(),
    );
    expect(requests.find((r) => r.method === "DELETE")?.url).toMatch(
      /\/api\/account\/passkeys\/7$/,
    );

    await user.click(screen.getByRole("button", { name: "Remove the passkey Phone" }));
    const again = (await screen.findAllByRole("tooltip")).at(-1)!;
    await user.click(within(again).getByRole("button", { name: "Remove" }));
    expect(await screen.findByText(t("errors:codes.SECOND_FACTOR_REQUIRED"))).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Remove the passkey Phone" })).toBeInTheDocument();
  });
});
