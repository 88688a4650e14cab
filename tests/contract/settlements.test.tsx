/**
 * Settlement screens against msw: the summary's totals for the filtered range and its business
 * filter (chosen by name, sent as the business's id), the settlement run (the day sent, its
 * outcome said, a refusal explained in the console's words), and the invoice page (figures in
 * ringgit, an unknown settlement said to be unknown, not a blank sheet).
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import dayjs from "dayjs";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import GeneratedList from "../../src/app/kit/generated-list";
import { resourceOf } from "../../src/app/kit/resource";
import { settlements } from "../../src/resources/settlements";
import InvoicePage from "../../src/resources/settlements/invoice-page";
import SettlementList from "../../src/resources/settlements/list";
import {
  merchantSummary,
  type MerchantDayDto,
  type SettlementDto,
} from "../../src/shared/modules/settlements";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "merchantSummary", "settlement", "invoice"]);
});

const DAY: MerchantDayDto = {
  id: 1,
  day: "2026-11-20",
  businessId: 7,
  businessName: "Library Café",
  paymentCount: 12,
  grossSen: 10_450,
  refundCount: 1,
  refundSen: 450,
  feeSen: 157,
  netSen: 9_843,
};

const SETTLEMENT: SettlementDto = {
  id: 42,
  invoiceNumber: "INV-202611-000042",
  businessId: 7,
  businessName: "Library Café",
  businessRegistrationNumber: "202301234567-A",
  periodStart: "2026-11-16",
  periodEnd: "2026-11-22",
  paymentCount: 120,
  grossSen: 104_500,
  refundCount: 2,
  refundSen: 900,
  feeSen: 1_568,
  netSen: 102_032,
  status: "paid",
  bankName: "Maybank",
  bankAccount: "•••• 9027",
  bankReference: "MBB20261124-000042",
  paidAt: "2026-11-24T02:00:00.000Z",
  createdBy: 1,
  createdByName: "Finance Officer",
  remark: null,
  reviewerId: 1,
  reviewerName: "Finance Officer",
  reviewedAt: "2026-11-24T02:00:00.000Z",
  createdAt: "2026-11-23T02:00:00.000Z",
};

describe("the merchant transaction summary", () => {
  it("shows the totals of the filtered range, and filters by a business chosen by name", async () => {
    server.use(
      mswHttp.get(`${API}/api/merchant-transaction-summary/aggregation`, () =>
        HttpResponse.json({
          totalCount: 1,
          totalCountExact: true,
          merchantTransactionSummary: [DAY],
          totals: {
            paymentCount: 1_204,
            grossSen: 903_120,
            refundCount: 3,
            refundSen: 2_000,
            feeSen: 13_547,
            netSen: 887_573,
          },
        }),
      ),
      mswHttp.get(`${API}/api/merchant-transaction-summary/options/businessId`, ({ request }) => {
        const search = new URL(request.url).searchParams.get("search");
        return HttpResponse.json({
          options: search?.includes("lib") ? [{ value: 7, label: "Library Café" }] : [],
        });
      }),
    );
    renderPage("/merchant-transaction-summary", [resourceOf(merchantSummary).resource], {
      "/merchant-transaction-summary": <GeneratedList />,
    });
    const totals = await screen.findByText("Totals for the filtered range");
    const block = totals.closest(".ant-descriptions") as HTMLElement;
    expect(within(block).getByText("RM 8,875.73")).toBeInTheDocument();
    expect(within(block).getByText("RM 9,031.20")).toBeInTheDocument();
    expect(await screen.findByText("RM 98.43")).toBeInTheDocument();

    await userEvent.type(screen.getByRole("combobox", { name: "Business" }), "lib");
    await userEvent.click(await screen.findByTitle("Library Café"));
    await vi.waitFor(() =>
      expect(
        requests.some(
          (request) =>
            request.url.includes("/aggregation") &&
            String(JSON.stringify(jsonParam(request, "filter"))).includes('"businessId":7'),
        ),
      ).toBe(true),
    );
  });
});

describe("the settlement run", () => {
  function renderList() {
    server.use(
      mswHttp.get(`${API}/api/settlements/aggregation`, () =>
        HttpResponse.json({ totalCount: 1, totalCountExact: true, settlements: [SETTLEMENT] }),
      ),
      mswHttp.get(`${API}/api/settlements/options/businessId`, () =>
        HttpResponse.json({ options: [] }),
      ),
    );
    renderPage("/settlement-record", [settlements.resource], {
      "/settlement-record": <SettlementList />,
    });
  }

  it("sends the chosen day and says what it made", async () => {
    server.use(
      mswHttp.post(`${API}/api/settlements/run`, () =>
        HttpResponse.json({ periodEnd: "2026-11-22", created: 3, items: 57, netSen: 123_456 }),
      ),
    );
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: /Run settlement/ }));
    const dialog = await screen.findByRole("dialog");
    // The day offered is yesterday, the last one that has ended.
    const yesterday = dayjs().subtract(1, "day").format("YYYY-MM-DD");
    expect(within(dialog).getByRole("textbox")).toHaveValue(yesterday);
    await userEvent.click(within(dialog).getByRole("button", { name: "Run" }));
    expect(
      await screen.findByText(
        "3 settlements were created up to 2026-11-22 (57 payments and refunds, net RM 1,234.56).",
      ),
    ).toBeInTheDocument();
    const post = requests.find((request) => request.method === "POST")!;
    expect(await post.json()).toEqual({ periodEnd: yesterday });
  });

  it("explains a period that has not ended in the console's words, in the dialog", async () => {
    server.use(
      mswHttp.post(`${API}/api/settlements/run`, () =>
        HttpResponse.json(
          {
            code: "PERIOD_NOT_ENDED",
            message: "The period must end before today's business day (2026-11-25)",
            data: { today: "2026-11-25" },
          },
          { status: 400 },
        ),
      ),
    );
    renderList();
    await userEvent.click(await screen.findByRole("button", { name: /Run settlement/ }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Run" }));
    expect(
      await within(dialog).findByText(
        "The period must end before today's business day (2026-11-25).",
      ),
    ).toBeInTheDocument();
  });
});

describe("the invoice page", () => {
  it("shows one settlement's figures in ringgit with its invoice number", async () => {
    server.use(mswHttp.get(`${API}/api/settlements/42`, () => HttpResponse.json(SETTLEMENT)));
    renderPage("/settlement-record?id=invoice&settlement=42", [settlements.resource], {
      "/settlement-record": <InvoicePage />,
    });
    expect(await screen.findByTestId("invoice-net")).toHaveTextContent("RM 1,020.32");
    expect(screen.getAllByText("INV-202611-000042").length).toBeGreaterThan(0);
    expect(screen.getByText("Library Café")).toBeInTheDocument();
    expect(screen.getByText("MBB20261124-000042")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Print/ })).toBeInTheDocument();
  });

  it("says an unknown settlement is unknown, and a missing one missing", async () => {
    server.use(
      mswHttp.get(`${API}/api/settlements/999`, () =>
        HttpResponse.json({ code: "NOT_FOUND", message: "Settlement not found" }, { status: 404 }),
      ),
    );
    const first = renderPage(
      "/settlement-record?id=invoice&settlement=999",
      [settlements.resource],
      {
        "/settlement-record": <InvoicePage />,
      },
    );
    expect(await screen.findByText("There is no settlement 999.")).toBeInTheDocument();
    first.unmount();
    renderPage("/settlement-record?id=invoice&settlement=abc", [settlements.resource], {
      "/settlement-record": <InvoicePage />,
    });
    expect(
      await screen.findByText("No settlement was named: open an invoice from a settlement's page."),
    ).toBeInTheDocument();
  });
});
