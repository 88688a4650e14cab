/**
 * A user report's resolution under four eyes, in the console against msw: the report's page
 * draws the declared `resolve` action's dialog itself (the kit draws no second Resolve button,
 * on the page or on a list row); the dialog says that a refund above the wallet policy's refund
 * threshold (RM 200) waits for a second approver, asks for a reason once the typed refund is
 * above it, sends that reason as the `x-change-reason` header (percent-encoded, never in the
 * body), and tells the 202 as the change request it became, not as "resolved".
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import GeneratedList from "../../src/app/kit/generated-list";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import { userReports } from "../../src/resources/user-reports";
import UserReportShow from "../../src/resources/user-reports/show";
import { CHANGE_REASON_HEADER, type PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import type { UserReportDto } from "../../src/shared/modules/user-reports";
import { anAdmin, aPolicy, aReport } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "changeRequests", "userReport"]);
});

beforeEach(() => {
  setCurrentAdmin(anAdmin({ id: 7, permissions: [37] }));
});

/** A dispute about a payment of RM 300, in progress: up to RM 300 may be refunded. */
const REPORT = aReport({ paymentAmountSen: 30_000, refundableSen: 30_000 });

const RESOLVE_URL = `${API}/api/user-reports/7/resolve`;

const PENDING: PendingApprovalAnswer = {
  status: "pending_approval",
  changeRequest: {
    id: 11,
    reference: "CR20261128REFUND0011",
    status: "pending",
    reason: "given",
    amountSen: 25_000,
    expiresAt: "2026-11-29T02:00:00.000Z",
  },
};

/** What a report's page reads beside the report: its history, its change requests, the policy. */
function pageHandlers(report: UserReportDto) {
  return [
    mswHttp.get(`${API}/api/user-reports/${report.id}`, () => HttpResponse.json(report)),
    mswHttp.get(`${API}/api/user-reports/${report.id}/audit`, () =>
      HttpResponse.json({ totalCount: 0, entries: [] }),
    ),
    mswHttp.get(`${API}/api/change-requests/aggregation`, () =>
      HttpResponse.json({ totalCount: 0, changeRequests: [] }),
    ),
    mswHttp.get(`${API}/api/wallet-policy`, () => HttpResponse.json(aPolicy())),
  ];
}

function renderReport(report: UserReportDto = REPORT) {
  server.use(...pageHandlers(report));
  renderPage(`/user-report/${report.id}`, [userReports.resource], {
    "/user-report/:id": <UserReportShow />,
  });
}

/** Opens the resolve dialog and types the note. */
async function openResolve(note = "Refunded the double charge") {
  await userEvent.click(await screen.findByRole("button", { name: "Resolve" }));
  const dialog = await screen.findByRole("dialog");
  await userEvent.type(within(dialog).getByLabelText("Resolution note"), note);
  return dialog;
}

const refundInput = (dialog: HTMLElement) =>
  within(dialog).getByLabelText("Refund to the reporter (optional)");
const posts = () => requests.filter((request) => request.method === "POST");

describe("the Resolve button", () => {
  it("is drawn once on a report's page: the kit draws no second one for the declared action", async () => {
    renderReport();
    expect(await screen.findByRole("button", { name: "Resolve" })).toBeInTheDocument();
    // The kit's own buttons are there (reject), but not a second resolve.
    expect(screen.getByRole("button", { name: /Reject/ })).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: /resolve/i })).toHaveLength(1);
  });

  it("is not offered on a list row, where the kit's reject still is", async () => {
    server.use(
      mswHttp.get(`${API}/api/user-reports/aggregation`, () =>
        HttpResponse.json({ totalCount: 1, totalCountExact: true, userReports: [REPORT] }),
      ),
      mswHttp.get(`${API}/api/user-reports/options/:field`, () =>
        HttpResponse.json({ options: [] }),
      ),
    );
    renderPage("/user-report", [userReports.resource], { "/user-report": <GeneratedList /> });
    const row = (await screen.findByText("RPT-000007")).closest("tr")!;
    expect(within(row).getByRole("button", { name: /Reject/ })).toBeInTheDocument();
    expect(within(row).queryByRole("button", { name: /resolve/i })).not.toBeInTheDocument();
  });
});

describe("a refund above the refund threshold", () => {
  it("says the threshold, asks a reason once the refund is above it, sends it as a header and names the request", async () => {
    server.use(mswHttp.post(RESOLVE_URL, () => HttpResponse.json(PENDING, { status: 202 })));
    renderReport();
    const dialog = await openResolve();
    expect(
      await within(dialog).findByText("Above RM 200.00 this change waits for a second approver."),
    ).toBeInTheDocument();
    expect(within(dialog).queryByLabelText("Reason for the approver")).not.toBeInTheDocument();

    // At the threshold: applied at once, no reason asked.
    await userEvent.type(refundInput(dialog), "200");
    expect(
      await within(dialog).findByText(
        "This amount, RM 200.00, is not above RM 200.00: it is applied at once.",
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByLabelText("Reason for the approver")).not.toBeInTheDocument();

    // Above it: it waits, and the approver is given a reason.
    await userEvent.clear(refundInput(dialog));
    await userEvent.type(refundInput(dialog), "250");
    expect(
      await within(dialog).findByText(
        "This amount, RM 250.00, is above RM 200.00: it waits for a second approver.",
      ),
    ).toBeInTheDocument();
    const reason = "Bank statement shows two debits — 银行记录两次扣款";
    await userEvent.type(within(dialog).getByLabelText("Reason for the approver"), reason);
    const changeRequestReads = () =>
      requests.filter((request) => request.url.includes("/change-requests/aggregation")).length;
    const readsBefore = changeRequestReads();
    await userEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));

    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    const post = posts()[0]!;
    expect(post.headers.get(CHANGE_REASON_HEADER)).toBe(encodeURIComponent(reason));
    expect(await post.json()).toEqual({ note: "Refunded the double charge", refundSen: 25_000 });
    expect(
      await screen.findByText(
        "Sent for approval as CR20261128REFUND0011: another administrator must approve it.",
      ),
    ).toBeInTheDocument();
    // Nothing was resolved or refunded yet.
    expect(screen.queryByText(/Report RPT-000007 was resolved/)).not.toBeInTheDocument();
    // The report's change requests are read again: the new one shows on its page.
    await vi.waitFor(() => expect(changeRequestReads()).toBeGreaterThan(readsBefore));
  });

  it("sends nothing without the reason", async () => {
    renderReport();
    const dialog = await openResolve();
    await userEvent.type(refundInput(dialog), "250");
    await userEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
    expect(
      await within(dialog).findByText("Please give the approver a reason."),
    ).toBeInTheDocument();
    expect(posts()).toEqual([]);
  });

  it("applies a refund at or below it at once: no reason, no header, told as resolved", async () => {
    server.use(
      mswHttp.post(RESOLVE_URL, () =>
        HttpResponse.json({ ...REPORT, status: "resolved", refundSen: 15_000 }),
      ),
    );
    renderReport();
    const dialog = await openResolve();
    await userEvent.type(refundInput(dialog), "150");
    await userEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
    expect(
      await screen.findByText("Report RPT-000007 was resolved and RM 150.00 was refunded."),
    ).toBeInTheDocument();
    const post = posts()[0]!;
    expect(post.headers.get(CHANGE_REASON_HEADER)).toBeNull();
    expect(await post.json()).toEqual({ note: "Refunded the double charge", refundSen: 15_000 });
  });

  it("says nothing of four eyes when no refund can be given (not a transaction dispute)", async () => {
    const report: UserReportDto = {
      ...REPORT,
      type: "app_problem",
      paymentId: null,
      paymentReference: null,
      paymentAmountSen: null,
      refundableSen: null,
      businessId: null,
      businessName: null,
    };
    server.use(
      mswHttp.post(RESOLVE_URL, () => HttpResponse.json({ ...report, status: "resolved" })),
    );
    renderReport(report);
    const dialog = await openResolve("Fixed in app 2.4");
    expect(within(dialog).queryByText(/second approver/)).not.toBeInTheDocument();
    expect(
      within(dialog).queryByLabelText("Refund to the reporter (optional)"),
    ).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
    expect(await screen.findByText("Report RPT-000007 was resolved.")).toBeInTheDocument();
    expect(requests.some((request) => request.url.includes("/wallet-policy"))).toBe(false);
  });
});
