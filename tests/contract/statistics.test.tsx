/**
 * The Statistic screen against msw: what it asks (the range of a preset, the granularity), the
 * figures against the previous period, a refused range explained in the console's words, and a
 * chart's CSV: the rows its table shows. The chart library draws on a canvas jsdom lacks, so
 * the lazily loaded chart module is replaced by one that lists what it was given.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import dayjs from "dayjs";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { chartCsv, statisticCharts, type ChartSpec } from "../../src/app/statistic/chart-data";
import StatisticPage, { presetRange } from "../../src/app/statistic/statistic-page";
import { LEDGER_CHANNELS, USER_ROLES } from "../../src/shared/domain";
import type { Statistics, StatisticsBucket } from "../../src/shared/schemas/statistics";
import { initPageTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

vi.mock("../../src/app/statistic/charts", () => ({
  default: ({ spec }: { spec: ChartSpec }) => (
    <output data-testid={`chart-${spec.key}`}>{spec.points.length} points</output>
  ),
}));

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "statistic", "users", "topUp"]);
});

const zeroByRole = Object.fromEntries(USER_ROLES.map((role) => [role, 0])) as Record<
  (typeof USER_ROLES)[number],
  number
>;
const zeroByChannel = () =>
  Object.fromEntries(LEDGER_CHANNELS.map((c) => [c, { count: 0, sen: 0 }])) as Record<
    (typeof LEDGER_CHANNELS)[number],
    { count: number; sen: number }
  >;

function bucket(day: string, topUpSen: number, students: number): StatisticsBucket {
  return {
    bucket: day,
    newUsers: students,
    activeUsers: 3,
    topUps: 2,
    topUpSen,
    payments: 4,
    paymentSen: 1_000,
    refunds: 0,
    refundSen: 0,
    settlementsPaid: 0,
    settlementSen: 0,
    newUsersByRole: { ...zeroByRole, student: students },
    topUpsByChannel: { ...zeroByChannel(), fpx: { count: 2, sen: topUpSen } },
  };
}

function answer(from: string, to: string, topUpSen = 15_000): Statistics {
  const compared = (current: number, previous: number) => ({ current, previous });
  return {
    from,
    to,
    granularity: "day",
    previousFrom: "2026-10-01",
    previousTo: "2026-10-30",
    totals: {
      newUsers: compared(5, 5),
      activeUsers: compared(4, 2),
      topUps: compared(4, 0),
      topUpSen: compared(topUpSen, 10_000),
      payments: compared(8, 10),
      paymentSen: compared(2_000, 2_000),
      refunds: compared(0, 0),
      refundSen: compared(0, 0),
      settlementsPaid: compared(0, 0),
      settlementSen: compared(0, 0),
    },
    newUsersByRole: Object.fromEntries(
      USER_ROLES.map((role) => [role, compared(role === "student" ? 5 : 0, 0)]),
    ) as Statistics["newUsersByRole"],
    topUpsByChannel: Object.fromEntries(
      LEDGER_CHANNELS.map((c) => [
        c,
        {
          count: compared(c === "fpx" ? 4 : 0, 0),
          sen: compared(c === "fpx" ? topUpSen : 0, 0),
        },
      ]),
    ) as Statistics["topUpsByChannel"],
    topMerchants: [
      {
        businessId: 7,
        businessName: "Library Café, Block B",
        paymentCount: 8,
        grossSen: 2_000,
        previousGrossSen: 2_000,
      },
    ],
    series: [bucket(from, topUpSen - 5_000, 2), bucket(to, 5_000, 3)],
  };
}

const statisticsRequests = () =>
  requests.filter((request) => new URL(request.url).pathname === "/v1/api/statistics");
const lastQuery = () => {
  const params = new URL(statisticsRequests().at(-1)!.url).searchParams;
  return Object.fromEntries(params.entries());
};

function serve() {
  server.use(
    mswHttp.get(`${API}/api/statistics`, ({ request }) => {
      const params = new URL(request.url).searchParams;
      const from = params.get("from")!;
      const to = params.get("to")!;
      if (dayjs(to).diff(dayjs(from), "year") >= 3) {
        return HttpResponse.json(
          { code: "RANGE_TOO_LONG", message: "Invalid to: The range is longer than 3 years" },
          { status: 400 },
        );
      }
      // A week's range has more top-ups than a month's in this fixture: the figures change.
      return HttpResponse.json(answer(from, to, from === to ? 9_900 : 15_000));
    }),
  );
}

describe("the Statistic screen", () => {
  it("asks for the last 30 days by day and shows each figure against the previous period", async () => {
    serve();
    renderPage("/statistic", [], { "/statistic": <StatisticPage /> });
    const kpis = await screen.findByRole("region", { name: "Totals of the range" });
    const toppedUp = within(kpis).getByText("Topped up").closest("[data-figure]") as HTMLElement;
    expect(within(toppedUp).getByText("RM 150.00")).toBeInTheDocument();
    expect(within(toppedUp).getByText("50.0% more than the previous period")).toBeInTheDocument();
    expect(within(toppedUp).getByText("Previous period: RM 100.00")).toBeInTheDocument();
    const payments = within(kpis).getByText("Payments").closest("[data-figure]") as HTMLElement;
    expect(within(payments).getByText("20.0% less than the previous period")).toBeInTheDocument();
    const topUps = within(kpis).getByText("Top-ups").closest("[data-figure]") as HTMLElement;
    expect(within(topUps).getByText("None in the previous period")).toBeInTheDocument();
    expect(lastQuery()).toEqual({ ...presetRange("30days"), granularity: "day" });
    // Each chart got its rows: the money chart four lines over two days.
    expect(await screen.findByTestId("chart-money")).toHaveTextContent("8 points");
    expect(screen.getByTestId("chart-merchants")).toHaveTextContent("2 points");
  });

  it("asks again when the preset or the grouping changes, and the figures follow", async () => {
    serve();
    renderPage("/statistic", [], { "/statistic": <StatisticPage /> });
    await screen.findByText("RM 150.00");
    await userEvent.click(screen.getByText("Today"));
    await vi.waitFor(() => expect(lastQuery()).toMatchObject(presetRange("today")));
    expect(await screen.findByText("RM 99.00")).toBeInTheDocument();
    await userEvent.click(screen.getByText("Week"));
    await vi.waitFor(() => expect(lastQuery().granularity).toBe("week"));
    await userEvent.click(screen.getByText("Last month"));
    await vi.waitFor(() => expect(lastQuery()).toMatchObject(presetRange("lastMonth")));
  });

  it("explains a refused range in the console's words", async () => {
    serve();
    renderPage("/statistic?preset=custom&from=2020-01-01&to=2026-01-01&granularity=month", [], {
      "/statistic": <StatisticPage />,
    });
    expect(await screen.findByText("The statistics could not be loaded")).toBeInTheDocument();
    expect(
      screen.getByText("The date range is too long: choose a range shorter than 3 years."),
    ).toBeInTheDocument();
    expect(lastQuery()).toEqual({ from: "2020-01-01", to: "2026-01-01", granularity: "month" });
  });

  it("shows a chart as a table of the same rows its CSV holds", async () => {
    serve();
    renderPage("/statistic", [], { "/statistic": <StatisticPage /> });
    await screen.findByTestId("chart-merchants");
    const panel = screen
      .getByRole("heading", { name: "Top merchants by gross (RM)" })
      .closest("section") as HTMLElement;
    await userEvent.click(within(panel).getByText("Table"));
    const rows = await within(panel).findAllByRole("row");
    expect(rows.map((row) => row.textContent)).toEqual([
      "MerchantThis periodPrevious period",
      "Library Café, Block BRM 20.00RM 20.00",
    ]);
    const data = answer("2026-10-31", "2026-11-29");
    const spec = statisticCharts(data, t).find((chart) => chart.key === "merchants")!;
    expect(chartCsv(spec, "Merchant")).toBe(
      '\uFEFFMerchant,This period,Previous period\r\n"Library Café, Block B",20.00,20.00\r\n',
    );
  });
});
