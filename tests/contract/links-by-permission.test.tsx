/**
 * Links to other records only for who may open them, against msw: a user report's reporter,
 * payment, business and assignee (on its page and in the list) and a dormant account's wallet
 * lead to pages of other modules, each behind its own permission code. An administrator without
 * that code (finance: top-up, settlement, report) sees the text alone, not a link to Access
 * denied; one holding it, a link to the record.
 */
import { configure, screen, within } from "@testing-library/react";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import GeneratedList from "../../src/app/kit/generated-list";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import { dormant } from "../../src/resources/dormant";
import DormantList from "../../src/resources/dormant/list";
import { userReports } from "../../src/resources/user-reports";
import UserReportShow from "../../src/resources/user-reports/show";
import type { UserReportDto } from "../../src/shared/modules/user-reports";
import type { UserDto } from "../../src/shared/modules/users";
import { PERMISSION } from "../../src/shared/permissions";
import { anAdmin, aPolicy } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "userReport", "dormant", "users"]);
});

/** The demo finance login's codes (server/config.ts): no users, businesses or administrators. */
const FINANCE = [PERMISSION.topUp, PERMISSION.settlement, PERMISSION.report];
/** Finance with the codes of the pages a report links to. */
const FINANCE_AND_MORE = [...FINANCE, PERMISSION.user, PERMISSION.business, PERMISSION.admin];

const REPORT: UserReportDto = {
  id: 7,
  reference: "RPT-000007",
  type: "transaction_dispute",
  subject: "Charged twice for one meal",
  description: "The till took my payment twice.",
  reporterId: 42,
  reporterAccountNumber: "W100000042",
  reporterName: "Nur Aina",
  paymentId: 900,
  paymentReference: "PY20261120ABCDEFGHIJ",
  paymentAmountSen: 2_000,
  refundableSen: 2_000,
  businessId: 5,
  businessName: "Library Café",
  status: "in_progress",
  assigneeId: 3,
  assigneeName: "Siti Finance",
  note: null,
  refundSen: null,
  refundReference: null,
  closedAt: null,
  closedBy: null,
  closedByName: null,
  createdAt: "2026-11-20T02:00:00.000Z",
};

/** What leads to another module's page, and where it leads for who may open it. */
const CROSS_LINKS = {
  W100000042: "/user-details/42",
  "Library Café": "/business-details/5",
  "Siti Finance": "/manage-admin/3",
} as const;

function renderReport() {
  server.use(
    mswHttp.get(`${API}/api/user-reports/7`, () => HttpResponse.json(REPORT)),
    mswHttp.get(`${API}/api/user-reports/7/audit`, () =>
      HttpResponse.json({ totalCount: 0, entries: [] }),
    ),
    mswHttp.get(`${API}/api/change-requests/aggregation`, () =>
      HttpResponse.json({ totalCount: 0, changeRequests: [] }),
    ),
    mswHttp.get(`${API}/api/wallet-policy`, () => HttpResponse.json(aPolicy())),
  );
  renderPage("/user-report/7", [userReports.resource], {
    "/user-report/:id": <UserReportShow />,
  });
}

async function renderReportList() {
  server.use(
    mswHttp.get(`${API}/api/user-reports/aggregation`, () =>
      HttpResponse.json({ totalCount: 1, totalCountExact: true, userReports: [REPORT] }),
    ),
    mswHttp.get(`${API}/api/user-reports/options/:field`, () => HttpResponse.json({ options: [] })),
  );
  renderPage("/user-report", [userReports.resource], { "/user-report": <GeneratedList /> });
  return within((await screen.findByRole("link", { name: "RPT-000007" })).closest("tr")!);
}

describe("a user report's page", () => {
  it("shows the reporter, payment, business and assignee as text to finance", async () => {
    setCurrentAdmin(anAdmin({ permissions: FINANCE }));
    renderReport();
    expect(await screen.findByText("PY20261120ABCDEFGHIJ")).toBeInTheDocument();
    for (const text of ["PY20261120ABCDEFGHIJ", ...Object.keys(CROSS_LINKS)]) {
      expect(screen.getByText(text)).toBeInTheDocument();
      expect(screen.queryByRole("link", { name: text })).not.toBeInTheDocument();
    }
  });

  it("links them for an administrator who may open their pages", async () => {
    setCurrentAdmin(anAdmin({ permissions: FINANCE_AND_MORE }));
    renderReport();
    // The disputed payment opens on its own page: that row of the payer's wallet statement.
    expect(await screen.findByRole("link", { name: "PY20261120ABCDEFGHIJ" })).toHaveAttribute(
      "href",
      "/wallet-transaction/900",
    );
    for (const [text, href] of Object.entries(CROSS_LINKS)) {
      expect(screen.getByRole("link", { name: text })).toHaveAttribute("href", href);
    }
  });
});

describe("the user report list", () => {
  it("links each report, and shows the reporter, business and assignee as text to finance", async () => {
    setCurrentAdmin(anAdmin({ permissions: FINANCE }));
    const row = await renderReportList();
    expect(row.getByRole("link", { name: "RPT-000007" })).toHaveAttribute("href", "/user-report/7");
    for (const text of Object.keys(CROSS_LINKS)) {
      expect(row.getByText(text)).toBeInTheDocument();
      expect(row.queryByRole("link", { name: text })).not.toBeInTheDocument();
    }
  });

  it("links them for an administrator who may open their pages", async () => {
    setCurrentAdmin(anAdmin({ permissions: FINANCE_AND_MORE }));
    const row = await renderReportList();
    for (const [text, href] of Object.entries(CROSS_LINKS)) {
      expect(row.getByRole("link", { name: text })).toHaveAttribute("href", href);
    }
  });
});

const SLEEPER: UserDto = {
  id: 9,
  accountNumber: "UC000009",
  name: "Lim Wei",
  email: "lim@example.com",
  phone: null,
  role: "student",
  approvalStatus: "approved",
  approvalRemark: null,
  isBanned: false,
  banRemark: null,
  isVip: false,
  url: null,
  lastActiveAt: "2025-01-01T00:00:00.000Z",
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

async function renderDormant() {
  server.use(
    mswHttp.get(`${API}/api/users/dormant`, () =>
      HttpResponse.json({ totalCount: 1, totalCountExact: true, users: [SLEEPER] }),
    ),
  );
  renderPage("/dormant-account", [dormant.resource], { "/dormant-account": <DormantList /> });
  return within((await screen.findByText("UC000009")).closest("tr")!);
}

describe("the dormant account list", () => {
  it("offers no way to a wallet, nor links the name, to who may not open users", async () => {
    setCurrentAdmin(anAdmin({ permissions: [PERMISSION.dormant] }));
    const row = await renderDormant();
    expect(row.getByText("Lim Wei")).toBeInTheDocument();
    expect(row.queryAllByRole("link")).toHaveLength(0);
    expect(screen.queryByRole("columnheader", { name: "Wallet" })).not.toBeInTheDocument();
  });

  it("leads to the wallet of whoever may open users", async () => {
    setCurrentAdmin(anAdmin({ permissions: [PERMISSION.dormant, PERMISSION.user] }));
    const row = await renderDormant();
    expect(row.getByRole("link", { name: "Wallet of Lim Wei" })).toHaveAttribute(
      "href",
      "/user-details/9",
    );
  });
});
