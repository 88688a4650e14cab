/**
 * Issue 33, item 2: an administrator a second factor is required of, signed in with the password
 * alone, sees only the enrolment until an authenticator app is set up and its recovery codes
 * saved; then the console. Against msw answering as the server does.
 */
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { EnrolmentGate } from "../../src/app/enrolment-gate";
import type { FactorsDto, SessionState } from "../../src/shared/schemas/auth";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server } = useApiServer();
vi.setConfig({ testTimeout: 40_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "security", "session"]);
});

const state = (enrolmentRequired: boolean): SessionState => ({
  idleMinutes: 15,
  stepUpMinutes: 5,
  expiresAt: "2026-11-28T20:00:00.000Z",
  verifiedAt: "2026-11-28T08:00:00.000Z",
  stepUpMethods: ["password"],
  enrolmentRequired,
});

function serve(required: { now: boolean }) {
  const off: FactorsDto = { totpSince: null, passkeys: [], recoveryCodesLeft: 0, methods: [] };
  server.use(
    mswHttp.get(`${API}/api/auth/session`, () => HttpResponse.json(state(required.now))),
    mswHttp.get(`${API}/api/account/factors`, () => HttpResponse.json(off)),
    mswHttp.post(`${API}/api/account/factors/totp`, () =>
      HttpResponse.json({
        secret: "JBSWY3DPEHPK3PXP",
        uri: "otpauth://totp/x",
        qrCode: `data:image/svg+xml;base64,${btoa("<svg xmlns='http://www.w3.org/2000/svg'/>")}`,
      }),
    ),
    mswHttp.post(`${API}/api/account/factors/totp/confirm`, () => {
      required.now = false;
      return HttpResponse.json({ recoveryCodes: ["AAAA-BBBB-CCCC-DDDD"] });
    }),
  );
}

const console = <div>The console</div>;

describe("the enrolment gate", () => {
  it("lets an administrator who needs nothing more straight into the console", async () => {
    serve({ now: false });
    renderPage("/", [], { "/": <EnrolmentGate>{console}</EnrolmentGate> });
    expect(await screen.findByText("The console")).toBeInTheDocument();
  });

  it("shows only the enrolment until the app is set up and the codes saved", async () => {
    const user = userEvent.setup();
    serve({ now: true });
    renderPage("/", [], { "/": <EnrolmentGate>{console}</EnrolmentGate> });
    expect(
      await screen.findByRole("heading", { name: "Set up two-step sign-in" }),
    ).toBeInTheDocument();
    expect(screen.queryByText("The console")).toBeNull();
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Set up an authenticator app" }));
    await user.type(await screen.findByLabelText("Code from the app"), "123456");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    await user.click(await screen.findByRole("button", { name: "I have saved them" }));
    expect(await screen.findByText("The console")).toBeInTheDocument();
  });
});
