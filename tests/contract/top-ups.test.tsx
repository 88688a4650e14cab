/**
 * The counter top-up against msw: the policy in force beside the form, whose wallet the typed
 * number names (and a number no wallet has), a confirmation naming the holder and the amount
 * before anything is sent, the amount typed in ringgit and sent in sen with the fixed channel,
 * and a refusal by the policy explained in the console's words with the limit in ringgit.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { csvHeader, csvText } from "../../src/app/kit/cells";
import { topUps } from "../../src/resources/top-ups";
import CounterTopUp from "../../src/resources/top-ups/create";
import { walletPolicy } from "../../src/resources/wallet-policy";
import WalletPolicyPage from "../../src/resources/wallet-policy/page";
import { topUps as topUpsModule } from "../../src/shared/modules/top-ups";
import { aHolder, aPolicy } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 40_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "topUp", "walletPolicy", "users"]);
});

const POLICY = aPolicy();

const HOLDER = aHolder();

function renderForm() {
  server.use(
    mswHttp.get(`${API}/api/wallet-policy`, () => HttpResponse.json(POLICY)),
    mswHttp.get(`${API}/api/top-up-transactions/account-holder`, ({ request }) =>
      new URL(request.url).searchParams.get("accountNumber") === HOLDER.accountNumber
        ? HttpResponse.json(HOLDER)
        : HttpResponse.json({ code: "NOT_FOUND", message: "Account not found" }, { status: 404 }),
    ),
  );
  return renderPage("/top-up-transaction/create", [topUps.resource], {
    "/top-up-transaction/create": <CounterTopUp />,
  });
}

/** Types the top-up (and, above the policy's four-eyes threshold, the reason for the approver). */
async function fillAndSubmit(amount: string, reason?: string) {
  await userEvent.type(await screen.findByLabelText("Account number"), "UC000042");
  await userEvent.type(screen.getByLabelText("Amount"), amount);
  if (reason !== undefined) {
    await userEvent.type(await screen.findByLabelText("Reason for the approver"), reason);
  }
  await userEvent.click(screen.getByRole("button", { name: "Top up" }));
  const review = await screen.findByRole("dialog", { name: "Credit this top-up?" });
  expect(
    await within(review).findByText(
      `Credit RM ${amount === "600" ? "600.00" : "12.50"} to Nur Aina (UC000042)?`,
    ),
  ).toBeInTheDocument();
  expect(requests.some((request) => request.method === "POST")).toBe(false);
  await userEvent.click(within(review).getByRole("button", { name: "Top up" }));
}

describe("the counter top-up", () => {
  it("names whose wallet the typed number is, or that no wallet has it", async () => {
    renderForm();
    const account = await screen.findByLabelText("Account number");
    expect(
      screen.getByText("Type the account number to see whose wallet it is."),
    ).toBeInTheDocument();
    await userEvent.type(account, "UC000099");
    expect(await screen.findByText("No wallet has this account number.")).toBeInTheDocument();
    await userEvent.clear(account);
    await userEvent.type(account, "UC000042");
    expect(await screen.findByText("Nur Aina")).toBeInTheDocument();
    expect(screen.getByText("RM 20.50")).toBeInTheDocument();
  });

  it("shows the policy in force and sends the amount in sen with the counter channel", async () => {
    server.use(
      mswHttp.post(`${API}/api/top-up-transactions`, () =>
        HttpResponse.json({ id: 77, reference: "TU20260101D00000077" }, { status: 201 }),
      ),
    );
    renderForm();
    expect((await screen.findAllByText("RM 1,500.00")).length).toBeGreaterThan(0);
    await fillAndSubmit("12.50");
    await vi.waitFor(() =>
      expect(requests.some((request) => request.method === "POST")).toBe(true),
    );
    const post = requests.find((request) => request.method === "POST")!;
    expect(await post.json()).toEqual({
      accountNumber: "UC000042",
      amountSen: 1250,
      channel: "counter",
    });
    // The toast rises at the bottom, off the page header's buttons.
    await vi.waitFor(() =>
      expect(document.querySelector(".ant-notification-bottom")).toHaveTextContent(
        "Top-up TU20260101D00000077 was credited.",
      ),
    );
  });

  it("explains a refusal by the policy with the limit in ringgit", async () => {
    server.use(
      mswHttp.post(`${API}/api/top-up-transactions`, () =>
        HttpResponse.json(
          {
            code: "POLICY_MAX_TOP_UP",
            message: "The amount is above the policy's maximum top-up",
            data: { limitSen: 50_000 },
          },
          { status: 400 },
        ),
      ),
    );
    renderForm();
    // RM 600 is above the policy's RM 200: it would wait for a second approver, so a reason is
    // asked for; the policy refuses it before any request is made.
    await fillAndSubmit("600", "Parent paid at the counter");
    expect(
      await screen.findByText("A top-up can be at most RM 500.00 (wallet policy)."),
    ).toBeInTheDocument();
    expect(screen.getByText("The top-up was refused; nothing was credited")).toBeInTheDocument();
  });
});

describe("the wallet policy page", () => {
  it("says what the policy is once, above the policy in force, not again above its versions", async () => {
    server.use(
      mswHttp.get(`${API}/api/wallet-policy`, () => HttpResponse.json(POLICY)),
      mswHttp.get(`${API}/api/wallet-policies/aggregation`, () =>
        HttpResponse.json({ totalCount: 1, walletPolicies: [POLICY] }),
      ),
    );
    renderPage("/wallet-policy", [walletPolicy.resource], {
      "/wallet-policy": <WalletPolicyPage />,
    });
    expect((await screen.findAllByText("RM 1,500.00")).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/^The limits every top-up and payment must keep/)).toHaveLength(1);
  });
});

describe("the list's CSV", () => {
  it("exports amounts as numbers a spreadsheet can sum, with the unit in the header", () => {
    const t = i18next.t;
    expect(csvHeader(t, topUpsModule, "amountSen")).toBe("Amount (RM)");
    expect(csvText(t, topUpsModule, "amountSen", 6_250)).toBe("62.50");
    expect(csvText(t, topUpsModule, "amountSen", 123_456_789)).toBe("1234567.89");
    // Anything else as the screen shows it.
    expect(csvHeader(t, topUpsModule, "channel")).toBe("Channel");
    expect(csvText(t, topUpsModule, "channel", "counter")).toBe("Counter");
  });
});
