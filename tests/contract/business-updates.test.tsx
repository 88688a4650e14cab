/**
 * Business Update requests and a business's recent payments, drawn by the kit from their
 * declarations, against msw: what the console asks for, how it shows old → new in the business's
 * own words, the decision's call and its translated refusal, and the payments list's call.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { formatDateTime } from "../../src/app/format";
import { resourceOf } from "../../src/app/kit/resource";
import GeneratedList from "../../src/app/kit/generated-list";
import GeneratedShow from "../../src/app/kit/generated-show";
import {
  businessUpdates,
  type BusinessUpdateRequestDto,
} from "../../src/shared/modules/business-updates";
import { businesses, type BusinessDto } from "../../src/shared/modules/businesses";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "business", "businessUpdate", "payments"]);
});

const LIST = `${API}/api/business-update-requests/aggregation`;

function aRequest(overrides: Partial<BusinessUpdateRequestDto> = {}): BusinessUpdateRequestDto {
  return {
    id: 11,
    businessId: 7,
    businessName: "Library Café",
    changes: [
      { field: "name", from: "Library Café", to: "Library Café & Bakery" },
      { field: "category", from: "cafe", to: "canteen" },
      { field: "bankAccount", from: "•••• 1234", to: "•••• 9027" },
    ],
    status: "pending",
    remark: null,
    reviewerId: null,
    reviewerName: null,
    reviewedAt: null,
    createdAt: "2026-03-04T05:06:07.000Z",
    updatedAt: "2026-03-04T05:06:07.000Z",
    ...overrides,
  };
}

function renderAt(path: string) {
  const modules = [resourceOf(businessUpdates), resourceOf(businesses)];
  return renderPage(
    path,
    modules.map((module) => module.resource),
    { "/business-update": <GeneratedList />, "/business-details/:id": <GeneratedShow /> },
  );
}

const serveList = (rows = [aRequest()]) =>
  server.use(
    mswHttp.get(LIST, () =>
      HttpResponse.json({ totalCount: rows.length, businessUpdateRequests: rows }),
    ),
  );

describe("Business Update list", () => {
  it("asks for pending requests, newest first, and shows each change old → new in the business's words", async () => {
    serveList();
    renderAt("/business-update");
    const link = await screen.findByRole("link", { name: "Library Café" });
    expect(link).toHaveAttribute("href", "/business-details/7");
    const request = requests.find((candidate) => candidate.url.startsWith(`${LIST}?`));
    expect(jsonParam(request, "filter")).toEqual({ status: "pending" });
    expect(jsonParam(request, "sort")).toEqual({ createdAt: -1 });
    const row = within(link.closest("tr")!);
    // Labels and values as the business module words them: the category translated.
    expect(row.getByRole("rowheader", { name: "Business" })).toBeInTheDocument();
    expect(row.getByText("Library Café & Bakery")).toBeInTheDocument();
    expect(row.getByRole("rowheader", { name: "Category" })).toBeInTheDocument();
    expect(row.getByText("Café")).toBeInTheDocument();
    expect(row.getByText("Canteen")).toBeInTheDocument();
    expect(row.getByText("•••• 9027")).toBeInTheDocument();
    // A date is one unit in a narrow column: it never wraps inside itself.
    expect(row.getByText(formatDateTime("2026-03-04T05:06:07.000Z"))).toHaveStyle({
      whiteSpace: "nowrap",
    });
  });

  it("goes to the last page from a page past the end, instead of saying there are none", async () => {
    server.use(
      mswHttp.get(LIST, ({ request }) => {
        const { page } = JSON.parse(new URL(request.url).searchParams.get("pagination")!) as {
          page: number;
        };
        return HttpResponse.json({
          totalCount: 13,
          businessUpdateRequests: page === 2 ? [aRequest()] : [],
        });
      }),
    );
    renderAt("/business-update?currentPage=99");
    expect(await screen.findByRole("link", { name: "Library Café" })).toBeInTheDocument();
    const pages = requests
      .filter((candidate) => candidate.url.startsWith(`${LIST}?`))
      .map((candidate) => (jsonParam(candidate, "pagination") as { page: number }).page);
    expect(pages).toEqual([99, 2]);
    expect(screen.queryByText("There are no update requests with this status.")).toBeNull();
  });

  it("names a field businesses no longer have in words, never by its key", async () => {
    serveList([
      aRequest({
        changes: [
          { field: "openingHours", from: "09:00–21:00", to: "08:00–22:00" },
          { field: "deliveryRadius", from: "1 km", to: "2 km" },
        ],
      }),
    ]);
    renderAt("/business-update");
    const hours = await screen.findByRole("rowheader", { name: "Opening hours (no longer kept)" });
    expect(within(hours.closest("tr")!).getByText("08:00–22:00")).toBeInTheDocument();
    const unknown = screen.getByRole("rowheader", { name: "A field no longer kept" });
    expect(within(unknown.closest("tr")!).getByText("2 km")).toBeInTheDocument();
    expect(screen.queryByText(/openingHours|deliveryRadius/)).toBeNull();
  });

  it("approves with the remark, the dialog showing what changes", async () => {
    serveList();
    server.use(
      mswHttp.patch(`${API}/api/business-update-requests/11/approval-action`, () =>
        HttpResponse.json(aRequest({ status: "approved", remark: "Signage checked" })),
      ),
    );
    renderAt("/business-update");
    await userEvent.click(
      await screen.findByRole("button", { name: "Approve the update of Library Café" }),
    );
    const dialog = await screen.findByRole("dialog", {
      name: "Apply these changes to Library Café?",
    });
    expect(within(dialog).getByText("Library Café & Bakery")).toBeInTheDocument();
    await userEvent.type(
      within(dialog).getByRole("textbox", { name: "Remark" }),
      "Signage checked",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText("The update of Library Café was applied.")).toBeInTheDocument();
    const patch = requests.find((candidate) => candidate.method === "PATCH")!;
    expect(await patch.json()).toEqual({ action: "approve", remark: "Signage checked" });
  });

  it.each([
    [
      "BUSINESS_CHANGED_SINCE",
      { field: "name" },
      "The business's name has changed since the merchant asked, so this request cannot be applied. Reject it and ask the merchant to send a new one.",
    ],
    [
      "UPDATE_FIELD_REMOVED",
      { field: "openingHours" },
      "This request changes a field a business no longer has. Reject it instead.",
    ],
  ])("explains a 409 %s in the console's words", async (code, data, text) => {
    serveList();
    server.use(
      mswHttp.patch(`${API}/api/business-update-requests/11/approval-action`, () =>
        HttpResponse.json({ code, message: "server words", data }, { status: 409 }),
      ),
    );
    renderAt("/business-update");
    await userEvent.click(
      await screen.findByRole("button", { name: "Approve the update of Library Café" }),
    );
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Remark" }), "ok");
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve" }));
    // Each failed record is listed by name with its reason.
    expect(await screen.findByText(`Library Café: ${text}`)).toBeInTheDocument();
  });
});

describe("a business's recent payments", () => {
  const business: BusinessDto = {
    id: 7,
    name: "Library Café",
    registrationNumber: "202300012345-A",
    category: "cafe",
    status: "approved",
    ownerUserId: 5,
    ownerName: "Nur Aina",
    ownerAccountNumber: "UC000005",
    feeRateBp: 200,
    bankName: "Maybank",
    bankAccount: "•••• 1234",
    remark: null,
    reviewerId: null,
    reviewerName: null,
    reviewedAt: null,
    createdAt: "2026-01-04T05:06:07.000Z",
    updatedAt: "2026-01-04T05:06:07.000Z",
  };

  it("asks for one page of the business's payments, newest first, and shows each paid amount", async () => {
    const PAYMENTS = `${API}/api/businesses/7/payments`;
    server.use(
      mswHttp.get(`${API}/api/businesses/7`, () => HttpResponse.json(business)),
      mswHttp.get(`${API}/api/businesses/7/audit`, () =>
        HttpResponse.json({ totalCount: 0, entries: [] }),
      ),
      mswHttp.get(PAYMENTS, () =>
        HttpResponse.json({
          totalCount: 1,
          payments: [
            {
              id: 90,
              createdAt: "2026-03-04T04:30:00.000Z",
              reference: "PAY20260304D00000090",
              payerId: 12,
              payerName: "Lim Wei",
              payerAccountNumber: "UC000012",
              amountSen: 1250,
              status: "reversed",
            },
          ],
        }),
      ),
    );
    renderAt("/business-details/7");
    const payer = await screen.findByRole("link", { name: "Lim Wei" });
    expect(payer).toHaveAttribute("href", "/user-details/12");
    const row = within(payer.closest("tr")!);
    expect(row.getByText("RM 12.50")).toBeInTheDocument();
    expect(row.getByText("Refunded")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Recent payments" })).toBeInTheDocument();
    const request = requests.find((candidate) => candidate.url.startsWith(`${PAYMENTS}?`));
    expect(jsonParam(request, "pagination")).toEqual({ page: 1, pageSize: 10 });
    expect(jsonParam(request, "sort")).toEqual({ createdAt: -1 });
  });
});
