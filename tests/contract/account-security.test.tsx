/**
 * Issue 33 on the Setting page: the administrator sets up an authenticator app (QR code, the key
 * as text, a code from the app), saves the ten recovery codes shown once, makes new ones or
 * removes the app; and sees the sessions open on their account, this one tagged, and ends the
 * others one by one or all at once. Against msw answering as the server does.
 */
import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { SessionsCard } from "../../src/app/setting/sessions-card";
import { TwoStepCard } from "../../src/app/setting/two-step-card";
import type { FactorsDto, SessionDto } from "../../src/shared/schemas/auth";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

// The enrolment story clicks and types a dozen times; on two busy cores that takes its time.
vi.setConfig({ testTimeout: 40_000 });

afterEach(() => {
  vi.restoreAllMocks();
});

beforeAll(async () => {
  await initPageTexts(["common", "errors", "security"]);
});

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const QR_CODE = `data:image/svg+xml;base64,${btoa("<svg xmlns='http://www.w3.org/2000/svg'/>")}`;
const CODES = Array.from(
  { length: 10 },
  (_, i) => `AB${i}C-D3EF-GH4J-KL5${String.fromCharCode(77 + i)}`,
);

const OFF: FactorsDto = { totpSince: null, passkeys: [], recoveryCodesLeft: 0, methods: [] };
const on = (recoveryCodesLeft = 10): FactorsDto => ({
  totpSince: "2026-11-20T02:00:00.000Z",
  passkeys: [],
  recoveryCodesLeft,
  methods: ["totp", "recovery-code"],
});

/** The factors GET answers `factors.now`, which a test changes as the server's state would. */
function serveFactors(first: FactorsDto) {
  const factors = { now: first };
  server.use(mswHttp.get(`${API}/api/account/factors`, () => HttpResponse.json(factors.now)));
  return factors;
}

const sent = (method: string, path: string) =>
  requests.filter(
    (request) => request.method === method && new URL(request.url).pathname === `/v1${path}`,
  );

function renderTwoStep() {
  const user = userEvent.setup();
  renderPage("/", [], { "/": <TwoStepCard /> });
  return user;
}

/** The confirmation that opened, answered with its `ok` button. */
async function confirm(user: ReturnType<typeof userEvent.setup>, ok: string) {
  const popup = await screen.findByRole("tooltip");
  const button = within(popup).getByRole("button", { name: ok });
  await user.click(button);
  return { popup, button };
}

describe("setting up an authenticator app", () => {
  function serveEnrolment(confirmAnswer: () => Response) {
    const factors = serveFactors(OFF);
    server.use(
      mswHttp.post(`${API}/api/account/factors/totp`, () =>
        HttpResponse.json({ secret: SECRET, uri: "otpauth://totp/x", qrCode: QR_CODE }),
      ),
      mswHttp.post(`${API}/api/account/factors/totp/confirm`, confirmAnswer),
    );
    return factors;
  }

  it("shows the QR code and the key, confirms a code and shows the recovery codes once", async () => {
    const factors = serveEnrolment(() => {
      factors.now = on();
      return HttpResponse.json({ recoveryCodes: CODES });
    });
    const user = renderTwoStep();
    expect(await screen.findByText(/No authenticator app is set up/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Set up an authenticator app" }));

    const qr = await screen.findByRole("img", {
      name: "QR code to add the UCSI Wallet console to your authenticator app",
    });
    expect(qr).toHaveAttribute("src", QR_CODE);
    expect(screen.getByText("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Copy key" }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);

    const code = screen.getByLabelText("Code from the app");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toHaveAttribute("inputmode", "numeric");
    // As an app shows it, with a blank in the middle.
    await user.type(code, "123 456");
    await user.click(screen.getByRole("button", { name: "Confirm" }));

    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(await sent("POST", "/api/account/factors/totp/confirm")[0]!.json()).toEqual({
      code: "123456",
    });
    expect(
      screen.getByText("Save these codes now: they will not be shown again."),
    ).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Copy all" }));
    expect(await navigator.clipboard.readText()).toBe(`${CODES.join("\n")}\n`);

    await user.click(screen.getByRole("button", { name: "I have saved them" }));
    expect(
      await screen.findByText("Authenticator app set up since 20 Nov 2026"),
    ).toBeInTheDocument();
    expect(screen.getByText("10 recovery codes left")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Recovery codes" })).toBeNull();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
  });

  it("downloads the recovery codes as a text file", async () => {
    serveEnrolment(() => HttpResponse.json({ recoveryCodes: CODES }));
    const saved: Array<{ name: string; text: Promise<string> }> = [];
    const blobs = new Map<string, Blob>();
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.set("blob:codes", blob as Blob);
      return "blob:codes";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ name: this.download, text: blobs.get(this.href)!.text() });
    });
    const user = renderTwoStep();
    await user.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    await user.type(await screen.findByLabelText("Code from the app"), "654321");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    await user.click(await screen.findByRole("button", { name: "Download" }));
    expect(saved.map(({ name }) => name)).toEqual(["ucsi-wallet-recovery-codes.txt"]);
    expect(await saved[0]!.text).toBe(`${CODES.join("\n")}\n`);
  });

  it("says under the input when the code is wrong, and shows no recovery codes", async () => {
    serveEnrolment(() =>
      HttpResponse.json({ code: "WRONG_CODE", message: "The code is not right" }, { status: 400 }),
    );
    const user = renderTwoStep();
    await user.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    await user.type(await screen.findByLabelText("Code from the app"), "000000");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(
      await screen.findByText(
        "The code is not right, or it was already used. Try the code your app shows now.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Code from the app")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByRole("list", { name: "Recovery codes" })).toBeNull();
  });

  it("asks for 6 digits before sending anything", async () => {
    serveEnrolment(() => HttpResponse.json({ recoveryCodes: CODES }));
    const user = renderTwoStep();
    await user.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    await user.type(await screen.findByLabelText("Code from the app"), "12a4");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("The code is 6 digits")).toBeInTheDocument();
    expect(sent("POST", "/api/account/factors/totp/confirm")).toHaveLength(0);
  });

  it("explains a refusal to start in the administrator's words", async () => {
    const factors = serveFactors(OFF);
    server.use(
      mswHttp.post(`${API}/api/account/factors/totp`, () => {
        factors.now = on();
        return HttpResponse.json(
          { code: "TOTP_ENROLLED", message: "An authenticator app is enrolled" },
          { status: 409 },
        );
      }),
    );
    const user = renderTwoStep();
    await user.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    expect(
      await screen.findByText("The authenticator app could not be set up"),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        "An authenticator app is already set up. Remove it first to set up another.",
      ),
    ).toBeInTheDocument();
    expect(
      await screen.findByText("Authenticator app set up since 20 Nov 2026"),
    ).toBeInTheDocument();
  });
});

describe("an authenticator app set up", () => {
  it("warns when 3 or fewer recovery codes are left, and not before", async () => {
    const factors = serveFactors(on(4));
    renderTwoStep();
    expect(await screen.findByText("4 recovery codes left")).toBeInTheDocument();
    expect(screen.queryByText(/Few recovery codes are left/)).toBeNull();
    cleanup();
    factors.now = on(3);
    renderTwoStep();
    expect(await screen.findByText("3 recovery codes left")).toBeInTheDocument();
    expect(screen.getByText(/Few recovery codes are left/)).toBeInTheDocument();
  });

  it("makes new recovery codes after a confirmation, shown once", async () => {
    const NEW = CODES.map((code) => code.replace("AB", "ZZ"));
    serveFactors(on(2));
    server.use(
      mswHttp.post(`${API}/api/account/factors/recovery-codes`, () =>
        HttpResponse.json({ recoveryCodes: NEW }),
      ),
    );
    const user = renderTwoStep();
    await user.click(await screen.findByRole("button", { name: "New recovery codes" }));
    const { popup } = await confirm(user, "Make new codes");
    expect(popup).toHaveTextContent("Your current recovery codes stop working at once.");
    const list = await screen.findByRole("list", { name: "Recovery codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(NEW);
    expect(sent("POST", "/api/account/factors/recovery-codes")).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "I have saved them" }));
    expect(await screen.findByText("2 recovery codes left")).toBeInTheDocument();
    expect(screen.queryByText(NEW[0]!)).toBeNull();
  });

  it("removes the app after a red confirmation", async () => {
    const factors = serveFactors(on());
    server.use(
      mswHttp.delete(`${API}/api/account/factors/totp`, () => {
        factors.now = OFF;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = renderTwoStep();
    const remove = await screen.findByRole("button", { name: "Remove the authenticator app" });
    expect(remove).toHaveClass("ant-btn-dangerous");
    await user.click(remove);
    expect(sent("DELETE", "/api/account/factors/totp")).toHaveLength(0);
    const { popup, button } = await confirm(user, "Remove");
    expect(popup).toHaveTextContent("Remove the authenticator app?");
    expect(button).toHaveClass("ant-btn-dangerous");
    expect(await screen.findByText("The authenticator app was removed")).toBeInTheDocument();
    expect(sent("DELETE", "/api/account/factors/totp")).toHaveLength(1);
    expect(await screen.findByText(/No authenticator app is set up/)).toBeInTheDocument();
  });
});

describe("the sessions card", () => {
  const CHROME =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  const FIREFOX =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
  const session = (id: string, device: string, current: boolean, idle: number): SessionDto => ({
    id,
    address: current ? "10.0.0.7" : "203.0.113.9",
    device,
    createdAt: minutesAgo(idle + 60),
    lastSeenAt: minutesAgo(idle),
    current,
  });
  const THIS = session("11111111-1111-4111-8111-111111111111", CHROME, true, 0);
  const PHONE = session("22222222-2222-4222-8222-222222222222", FIREFOX, false, 5);
  const SCRIPT = session("33333333-3333-4333-8333-333333333333", "curl/8.11.0", false, 180);

  function serveSessions(first: SessionDto[]) {
    const sessions = { now: first };
    server.use(
      mswHttp.get(`${API}/api/account/sessions`, () => HttpResponse.json({ data: sessions.now })),
    );
    return sessions;
  }

  function renderSessions() {
    const user = userEvent.setup();
    renderPage("/", [], { "/": <SessionsCard /> });
    return user;
  }

  const items = async () =>
    within(await screen.findByRole("list", { name: "Open sessions" })).getAllByRole("listitem");

  it("lists the sessions readably, this one tagged and without an End button", async () => {
    serveSessions([THIS, PHONE, SCRIPT]);
    renderSessions();
    const [mine, phone, script] = await items();
    expect(mine).toHaveTextContent("Chrome on Linux");
    expect(within(mine!).getByText("This device")).toBeInTheDocument();
    expect(mine).toHaveTextContent("10.0.0.7");
    expect(within(mine!).queryByRole("button")).toBeNull();
    expect(phone).toHaveTextContent("Firefox on Windows");
    expect(phone).toHaveTextContent("5 minutes ago");
    expect(within(phone!).queryByText("This device")).toBeNull();
    expect(script).toHaveTextContent("curl");
    expect(script).toHaveTextContent("3 hours ago");
    expect(
      within(phone!).getByRole("button", {
        name: "End the session of Firefox on Windows, last active 5 minutes ago",
      }),
    ).toBeInTheDocument();
  });

  it("ends one other session after a confirmation, and lists what is left", async () => {
    const sessions = serveSessions([THIS, PHONE]);
    server.use(
      mswHttp.delete(`${API}/api/account/sessions/:id`, () => {
        sessions.now = [THIS];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = renderSessions();
    const [, phone] = await items();
    await user.click(within(phone!).getByRole("button", { name: /^End the session of/ }));
    expect(sent("DELETE", `/api/account/sessions/${PHONE.id}`)).toHaveLength(0);
    await confirm(user, "End");
    expect(await screen.findByText("The session was ended")).toBeInTheDocument();
    expect(sent("DELETE", `/api/account/sessions/${PHONE.id}`)).toHaveLength(1);
    expect(await screen.findByText("This is your only session.")).toBeInTheDocument();
    expect(await items()).toHaveLength(1);
  });

  it("signs out everywhere else after a confirmation", async () => {
    const sessions = serveSessions([THIS, PHONE, SCRIPT]);
    server.use(
      mswHttp.post(`${API}/api/account/sessions/end-others`, () => {
        sessions.now = [THIS];
        return HttpResponse.json({ ended: 2 });
      }),
    );
    const user = renderSessions();
    await items();
    await user.click(screen.getByRole("button", { name: "Sign out everywhere else" }));
    await confirm(user, "Sign out everywhere else");
    expect(await screen.findByText("2 other sessions were ended")).toBeInTheDocument();
    expect(sent("POST", "/api/account/sessions/end-others")).toHaveLength(1);
    expect(await screen.findByText("This is your only session.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Sign out everywhere else" })).toBeNull();
  });
});
