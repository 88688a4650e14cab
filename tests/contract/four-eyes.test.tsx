/**
 * Four eyes (maker-checker) in the console against msw: a change declared to need a second
 * approver says so before it is sent, asks the maker for a reason when it has no remark of its
 * own, sends that reason as the `x-change-reason` header (percent-encoded) and, on the 202 answer,
 * tells the maker the change request's reference instead of "done"; a create form says the
 * threshold and whether this amount is above it; a change request is offered for approval only
 * to someone else than its maker, and for withdrawal only to its maker.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { actionUrl, DecisionDialog } from "../../src/app/kit/decision";
import GeneratedShow from "../../src/app/kit/generated-show";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import { administrators } from "../../src/resources/administrators";
import AdministratorCreate from "../../src/resources/administrators/create";
import { changeRequests } from "../../src/resources/change-requests";
import ChangeRequestList from "../../src/resources/change-requests/list";
import { topUps } from "../../src/resources/top-ups";
import CounterTopUp from "../../src/resources/top-ups/create";
import { CHANGE_REASON_HEADER, type PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import type { ChangeRequestDto } from "../../src/shared/modules/change-requests";
import { settlements } from "../../src/shared/modules/settlements";
import { aHolder, anAdmin, aPolicy } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { captureNotifications, renderInRefine, renderPage } from "./support/render";

const { server, requests } = useApiServer();
const { shown, notifications } = captureNotifications();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await initPageTexts([
    "common",
    "errors",
    "kit",
    "menu",
    "changeRequests",
    "settlement",
    "topUp",
    "walletPolicy",
    "users",
    "admin",
  ]);
});

beforeEach(() => {
  setCurrentAdmin(anAdmin({ id: 7, permissions: [33, 35, 37] }));
});

const pendingAnswer = (reference: string, amountSen: number | null): PendingApprovalAnswer => ({
  status: "pending_approval",
  changeRequest: {
    id: 5,
    reference,
    status: "pending",
    reason: "given",
    amountSen,
    expiresAt: "2026-11-28T02:00:00.000Z",
  },
});

const SETTLEMENT = {
  id: 42,
  invoiceNumber: "INV-202611-000042",
  businessId: 7,
  businessName: "Library Café",
  netSen: 102_032,
  status: "pending",
};

function renderMarkPaid() {
  const markPaid = settlements.actions.markPaid!;
  const user = renderInRefine(
    <DecisionDialog
      module={settlements}
      action={markPaid}
      request={{ action: "markPaid", verb: "mark-paid", rows: [SETTLEMENT] }}
      onDecided={() => undefined}
      onClose={() => undefined}
    />,
    notifications,
  );
  return { user, url: `${API}${actionUrl(settlements, markPaid, SETTLEMENT.id)}` };
}

describe("an action that needs a second approver", () => {
  it("says so, asks for a reason, sends it as a header and names the request it became", async () => {
    const { user, url } = renderMarkPaid();
    server.use(
      mswHttp.post(url, () =>
        HttpResponse.json(pendingAnswer("CR20261127A00000005", 102_032), { status: 202 }),
      ),
    );
    const dialog = await screen.findByRole("dialog");
    expect(
      within(dialog).getByText("This change waits for a second approver before it is applied."),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Bank reference"), "MBB20261127-000042");
    const reason = "Transfer confirmed — 银行已确认";
    await user.type(within(dialog).getByLabelText("Reason for the approver"), reason);
    await user.click(within(dialog).getByRole("button", { name: "Mark paid" }));

    await vi.waitFor(() => expect(requests.some((r) => r.method === "POST")).toBe(true));
    const post = requests.find((r) => r.method === "POST")!;
    expect(post.headers.get(CHANGE_REASON_HEADER)).toBe(encodeURIComponent(reason));
    expect(await post.json()).toEqual({ bankReference: "MBB20261127-000042" });
    await vi.waitFor(() =>
      expect(shown.map((n) => n.message)).toContain(
        "Sent for approval as CR20261127A00000005: another administrator must approve it.",
      ),
    );
    // Not the usual "marked paid": nothing was paid yet.
    expect(shown.map((n) => n.message).join(" ")).not.toMatch(/was marked paid/);
  });

  it("sends nothing without a reason", async () => {
    const { user } = renderMarkPaid();
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Bank reference"), "MBB20261127-000042");
    await user.click(within(dialog).getByRole("button", { name: "Mark paid" }));
    expect(
      await within(dialog).findByText("Please give the approver a reason."),
    ).toBeInTheDocument();
    expect(requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("explains a change already waiting for its checker", async () => {
    const { user, url } = renderMarkPaid();
    server.use(
      mswHttp.post(url, () =>
        HttpResponse.json(
          {
            code: "CHANGE_PENDING",
            message: "A change of this record is waiting for a second approver",
            data: { reference: "CR20261127A00000004" },
          },
          { status: 409 },
        ),
      ),
    );
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Bank reference"), "MBB20261127-000042");
    await user.type(within(dialog).getByLabelText("Reason for the approver"), "Paid today");
    await user.click(within(dialog).getByRole("button", { name: "Mark paid" }));
    expect(
      await screen.findByText(
        /A change of this record is already waiting for a second approver \(CR20261127A00000004\)/,
      ),
    ).toBeInTheDocument();
  });
});

const request = (overrides: Partial<ChangeRequestDto>): ChangeRequestDto => ({
  id: 1,
  reference: "CR20261127A00000001",
  status: "pending",
  module: "top-up-transactions",
  action: "reverse",
  verb: "reverse",
  recordId: 77,
  recordTitle: "TU20261127D00000077",
  amountSen: 25_000,
  reason: "Customer paid twice",
  changes: [{ field: "status", from: "success", to: "reversed" }],
  rule: "always",
  thresholdSen: null,
  makerId: 7,
  makerName: "Aisyah Rahman",
  checkerId: null,
  checkerName: null,
  remark: null,
  decidedAt: null,
  failureCode: null,
  failureMessage: null,
  failedAt: null,
  resultId: null,
  expiresAt: "2026-11-28T02:00:00.000Z",
  createdAt: "2026-11-27T02:00:00.000Z",
  ...overrides,
});

describe("pending approvals", () => {
  const OWN = request({});
  const OTHERS = request({
    id: 2,
    reference: "CR20261127A00000002",
    makerId: 9,
    makerName: "Checker Chan",
    module: "administrators",
    action: "permissions",
    verb: "change_permissions",
    recordTitle: "Finance Officer",
    amountSen: null,
    changes: [],
  });

  function renderList() {
    server.use(
      mswHttp.get(`${API}/api/change-requests/aggregation`, () =>
        HttpResponse.json({ totalCount: 2, changeRequests: [OWN, OTHERS] }),
      ),
      mswHttp.get(`${API}/api/change-requests/options/:field`, () =>
        HttpResponse.json({ options: [] }),
      ),
    );
    return renderPage("/change-requests", [changeRequests.resource], {
      "/change-requests": <ChangeRequestList />,
    });
  }

  it("offers Approve only on others' requests, and Withdraw only on one's own", async () => {
    renderList();
    const own = (await screen.findByText("CR20261127A00000001")).closest("tr")!;
    const others = screen.getByText("CR20261127A00000002").closest("tr")!;
    expect(
      within(own).queryByRole("button", { name: "Approve change request CR20261127A00000001" }),
    ).not.toBeInTheDocument();
    expect(
      within(own).getByRole("button", { name: "Withdraw change request CR20261127A00000001" }),
    ).toBeInTheDocument();
    expect(
      within(others).getByRole("button", { name: "Approve change request CR20261127A00000002" }),
    ).toBeInTheDocument();
    expect(
      within(others).queryByRole("button", { name: "Withdraw change request CR20261127A00000002" }),
    ).not.toBeInTheDocument();
  });

  it("names each request's module and change in that module's words", async () => {
    renderList();
    const own = (await screen.findByText("CR20261127A00000001")).closest("tr")!;
    expect(within(own).getByText("Top Up Transaction")).toBeInTheDocument();
    expect(within(own).getByText("Reverse")).toBeInTheDocument();
    expect(within(own).queryByText("top-up-transactions")).not.toBeInTheDocument();
    const others = screen.getByText("CR20261127A00000002").closest("tr")!;
    expect(within(others).getByText("Change permissions")).toBeInTheDocument();
  });

  it("narrows the list to one's own requests", async () => {
    renderList();
    await screen.findByText("CR20261127A00000001");
    await userEvent.click(screen.getByText("Mine"));
    await vi.waitFor(() => {
      const last = requests.filter((r) => r.url.includes("/change-requests/aggregation")).at(-1);
      const filter = JSON.parse(new URL(last!.url).searchParams.get("filter") ?? "{}") as Record<
        string,
        unknown
      >;
      expect(filter.makerId).toBe(7);
    });
  });

  it("narrows the list to one module, chosen by its name among those with a second approver", async () => {
    renderList();
    await screen.findByText("CR20261127A00000001");
    // No free-text box for a module's internal name.
    expect(screen.queryByRole("textbox", { name: "Module" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole("combobox", { name: "Module" }));
    // antd draws the choices it shows as items titled with their labels.
    const topUps = await screen.findByTitle("Top Up Transaction");
    const names = [...document.querySelectorAll(".ant-select-item-option")].map((item) =>
      item.getAttribute("title"),
    );
    expect(names).toContain("Wallet Policy");
    // A module that never waits for a second approver is not offered.
    expect(names).not.toContain("Statistic");
    expect(names).not.toContain("UCSI Parking");
    await userEvent.click(topUps);
    await vi.waitFor(() => {
      const last = requests.filter((r) => r.url.includes("/change-requests/aggregation")).at(-1);
      const filter = JSON.parse(new URL(last!.url).searchParams.get("filter") ?? "{}") as Record<
        string,
        unknown
      >;
      expect(filter.module).toBe("top-up-transactions");
    });
  });
});

describe("a create form above the policy's threshold", () => {
  const POLICY = aPolicy();
  const HOLDER = aHolder();

  function renderForm() {
    server.use(
      mswHttp.get(`${API}/api/wallet-policy`, () => HttpResponse.json(POLICY)),
      mswHttp.get(`${API}/api/top-up-transactions/account-holder`, () => HttpResponse.json(HOLDER)),
      mswHttp.post(`${API}/api/top-up-transactions`, () =>
        HttpResponse.json(pendingAnswer("CR20261127A00000009", 25_000), { status: 202 }),
      ),
    );
    return renderPage("/top-up-transaction/create", [topUps.resource], {
      "/top-up-transaction/create": <CounterTopUp />,
      "/top-up-transaction": <p>The top-up list</p>,
    });
  }

  it("says the threshold, whether this amount is above it, and asks a reason only then", async () => {
    renderForm();
    expect(
      await screen.findByText("Above RM 200.00 this change waits for a second approver."),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Account number"), "UC000042");
    const amount = screen.getByLabelText("Amount");
    await userEvent.type(amount, "150");
    expect(
      await screen.findByText(
        "This amount, RM 150.00, is not above RM 200.00: it is applied at once.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText("Reason for the approver")).not.toBeInTheDocument();

    await userEvent.clear(amount);
    await userEvent.type(amount, "250");
    expect(
      await screen.findByText(
        "This amount, RM 250.00, is above RM 200.00: it waits for a second approver.",
      ),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Reason for the approver"), "Cash at the desk");
    await userEvent.click(screen.getByRole("button", { name: "Top up" }));
    const review = await screen.findByRole("dialog", { name: "Credit this top-up?" });
    await userEvent.click(await within(review).findByRole("button", { name: "Top up" }));

    await vi.waitFor(() => expect(requests.some((r) => r.method === "POST")).toBe(true));
    const post = requests.find((r) => r.method === "POST")!;
    expect(post.headers.get(CHANGE_REASON_HEADER)).toBe(encodeURIComponent("Cash at the desk"));
    // The reason is no part of the top-up itself.
    expect(await post.json()).toEqual({
      accountNumber: "UC000042",
      amountSen: 25_000,
      channel: "counter",
    });
    expect(
      await screen.findByText(
        "Sent for approval as CR20261127A00000009: another administrator must approve it.",
      ),
    ).toBeInTheDocument();
    // No record was made: back to the list, not to a record's page.
    expect(await screen.findByText("The top-up list")).toBeInTheDocument();
  });
});

describe("a record's page", () => {
  it("lists the record's change requests, filtered to its module and id", async () => {
    const TOP_UP = {
      id: 77,
      reference: "TU20261127D00000077",
      userId: 3,
      accountNumber: "UC000042",
      userName: "Nur Aina",
      amountSen: 25_000,
      balanceAfterSen: 27_050,
      channel: "counter",
      status: "success",
      agentUserId: null,
      agentName: null,
      adminId: 7,
      adminName: "Aisyah Rahman",
      remark: null,
      reversalReference: null,
      reversalRemark: null,
      createdAt: "2026-11-27T02:00:00.000Z",
    };
    server.use(
      mswHttp.get(`${API}/api/top-up-transactions/77`, () => HttpResponse.json(TOP_UP)),
      mswHttp.get(`${API}/api/top-up-transactions/77/audit`, () =>
        HttpResponse.json({ totalCount: 0, entries: [] }),
      ),
      mswHttp.get(`${API}/api/change-requests/aggregation`, () =>
        HttpResponse.json({
          totalCount: 1,
          changeRequests: [request({ recordId: 77, makerId: 9, makerName: "Checker Chan" })],
        }),
      ),
    );
    renderPage("/top-up-transaction/77", [topUps.resource], {
      "/top-up-transaction/:id": <GeneratedShow />,
    });
    expect(await screen.findByText("Change requests")).toBeInTheDocument();
    const link = await screen.findByRole("link", { name: "CR20261127A00000001" });
    expect(link).toHaveAttribute("href", "/change-requests/show/1");
    expect(screen.getByText("Customer paid twice")).toBeInTheDocument();
    const asked = requests.find((r) => r.url.includes("/change-requests/aggregation"))!;
    expect(JSON.parse(new URL(asked.url).searchParams.get("filter")!)).toEqual({
      module: "top-up-transactions",
      recordId: { $gte: 77, $lte: 77 },
    });
  });
});

describe("a new administrator", () => {
  it("waits for a second approver: the reason goes as a header, never in the account", async () => {
    server.use(
      mswHttp.post(`${API}/user-mgmt/check-email-available`, () =>
        HttpResponse.json({ available: true }),
      ),
      mswHttp.post(`${API}/api/administrators`, () =>
        HttpResponse.json(pendingAnswer("CR20261128NEWADMIN01", null), { status: 202 }),
      ),
    );
    renderPage("/manage-admin/create", [administrators.resource], {
      "/manage-admin/create": <AdministratorCreate />,
      "/admin-mgmt": <p>The administrators list</p>,
    });
    expect(
      await screen.findByText("This change waits for a second approver before it is applied."),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Name"), "Farah Lim");
    await userEvent.type(screen.getByLabelText("Email"), "farah@ucsi.example");
    await userEvent.type(screen.getByLabelText("Initial password"), "Campus#Desk2026");
    await userEvent.click(screen.getByRole("checkbox", { name: "User (0)" }));
    await userEvent.click(screen.getByRole("button", { name: "Create administrator" }));
    expect(await screen.findByText("Please give the approver a reason.")).toBeInTheDocument();
    const creations = () => requests.filter((r) => r.url.endsWith("/api/administrators"));
    expect(creations()).toHaveLength(0);

    await userEvent.type(screen.getByLabelText("Reason for the approver"), "New user desk hire");
    await userEvent.click(screen.getByRole("button", { name: "Create administrator" }));
    await vi.waitFor(() => expect(creations()).toHaveLength(1));
    const post = creations()[0]!;
    expect(post.headers.get(CHANGE_REASON_HEADER)).toBe(encodeURIComponent("New user desk hire"));
    expect(await post.json()).toEqual({
      name: "Farah Lim",
      email: "farah@ucsi.example",
      password: "Campus#Desk2026",
      permissions: [0],
    });
    expect(
      await screen.findByText(
        "Sent for approval as CR20261128NEWADMIN01: another administrator must approve it.",
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText("The administrators list")).toBeInTheDocument();
  });
});
