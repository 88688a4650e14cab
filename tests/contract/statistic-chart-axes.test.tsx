/**
 * The Statistic screen's charts have readable axes (issue 37, item 12): dates along x in the
 * console's format and language, round values up y with their unit (RM, or a count: never
 * "0.2 users"), a legend when a chart has several series, and the same axes said in words for
 * screen readers (the canvas says nothing). The chart library draws on a canvas jsdom lacks, so
 * its plots are replaced by one that lists the axes it was told to draw: each tick it keeps,
 * labelled as its formatter labels it.
 */
import { configure, screen, within } from "@testing-library/react";
import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import StatisticPage from "../../src/app/statistic/statistic-page";
import { LEDGER_CHANNELS, USER_ROLES } from "../../src/shared/domain";
import {
  STATISTIC_FIGURES,
  type Statistics,
  type StatisticsBucket,
} from "../../src/shared/schemas/statistics";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

vi.mock("@ant-design/plots", () => {
  interface Axis {
    title?: string | false;
    tickFilter?: (tick: never) => boolean;
    labelFormatter?: (tick: never) => string;
    tickMethod?: () => number[];
  }
  interface Props {
    data: Array<{ x: string; series: string }>;
    axis?: { x?: Axis; y?: Axis };
    legend?: unknown;
  }
  /** What a plot would draw: each axis's title and labelled ticks, and whether it has a legend. */
  const Plot = ({ data, axis, legend }: Props) => {
    const xs = [...new Set(data.map((point) => point.x))] as never[];
    const { x = {}, y = {} } = axis ?? {};
    const drawn = {
      x: {
        title: x.title,
        labels:
          x.tickFilter && x.labelFormatter ? xs.filter(x.tickFilter).map(x.labelFormatter) : [],
      },
      y: {
        title: y.title,
        labels:
          y.tickMethod && y.labelFormatter ? y.tickMethod().map(y.labelFormatter as never) : [],
      },
      legend: legend !== false && legend !== undefined,
    };
    return <output data-testid="plot">{JSON.stringify(drawn)}</output>;
  };
  return { Line: Plot, Column: Plot, Bar: Plot };
});

const { server } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "statistic", "users", "topUp"]);
});

afterEach(async () => {
  await i18next.changeLanguage("en-US");
  dayjs.locale("en");
});

const FROM = "2026-10-30";
const TO = "2026-11-28";

/** 30 days: day i tops up RM 1,000 × (i + 1) and signs up i % 3 students and one staff member. */
function answer(): Statistics {
  const zero = Object.fromEntries(STATISTIC_FIGURES.map((figure) => [figure, 0]));
  const series: StatisticsBucket[] = Array.from({ length: 30 }, (_, day) => ({
    ...(zero as Record<(typeof STATISTIC_FIGURES)[number], number>),
    bucket: dayjs(FROM).add(day, "day").format("YYYY-MM-DD"),
    newUsers: (day % 3) + 1,
    activeUsers: 3,
    topUpSen: 100_000 * (day + 1),
    newUsersByRole: {
      ...(Object.fromEntries(USER_ROLES.map((role) => [role, 0])) as Record<string, number>),
      student: day % 3,
      staff: 1,
    } as StatisticsBucket["newUsersByRole"],
    topUpsByChannel: Object.fromEntries(
      LEDGER_CHANNELS.map((channel) => [channel, { count: 0, sen: 0 }]),
    ) as StatisticsBucket["topUpsByChannel"],
  }));
  const compared = { current: 0, previous: 0 };
  return {
    from: FROM,
    to: TO,
    granularity: "day",
    previousFrom: "2026-09-30",
    previousTo: "2026-10-29",
    totals: Object.fromEntries(
      STATISTIC_FIGURES.map((figure) => [figure, compared]),
    ) as Statistics["totals"],
    newUsersByRole: Object.fromEntries(
      USER_ROLES.map((role) => [role, compared]),
    ) as Statistics["newUsersByRole"],
    topUpsByChannel: Object.fromEntries(
      LEDGER_CHANNELS.map((channel) => [channel, { count: compared, sen: compared }]),
    ) as Statistics["topUpsByChannel"],
    topMerchants: [
      {
        businessId: 7,
        businessName: "Library Café",
        paymentCount: 8,
        grossSen: 2_450,
        previousGrossSen: 0,
      },
    ],
    series,
  };
}

interface Drawn {
  x: { title: string; labels: string[] };
  y: { title: string; labels: string[] };
  legend: boolean;
}

/** The chart under `heading`: what its plot draws, and the chart's name for screen readers. */
async function chart(heading: string) {
  const panel = (await screen.findByRole("heading", { name: heading })).closest(
    "section",
  ) as HTMLElement;
  const plot = await within(panel).findByTestId("plot");
  return {
    drawn: JSON.parse(plot.textContent!) as Drawn,
    described: within(panel).getByRole("img").getAttribute("aria-label"),
  };
}

function showStatistics() {
  server.use(mswHttp.get(`${API}/api/statistics`, () => HttpResponse.json(answer())));
  renderPage(`/statistic?preset=custom&from=${FROM}&to=${TO}&granularity=day`, [], {
    "/statistic": <StatisticPage />,
  });
}

/** Every eighth day back from the last: four dates fit under a chart. */
const SHOWN_DAYS = ["2026-11-04", "2026-11-12", "2026-11-20", TO];

describe("the Statistic screen's chart axes", () => {
  it("label dates along x, ringgit up y in round steps, and name the series", async () => {
    showStatistics();
    const money = await chart("Money in and out (RM)");
    expect(money.drawn).toEqual({
      x: {
        title: "Day",
        labels: ["04 Nov 2026", "12 Nov 2026", "20 Nov 2026", "28 Nov 2026"],
      },
      y: { title: "RM", labels: ["RM 0", "RM 10,000", "RM 20,000", "RM 30,000"] },
      legend: true,
    });
    expect(money.described).toBe(
      "Money in and out (RM): Topped up, Paid to merchants, Refunded, Settled to merchants. " +
        "Day axis: 04 Nov 2026, 12 Nov 2026, 20 Nov 2026, 28 Nov 2026. " +
        "RM axis: RM 0, RM 10,000, RM 20,000, RM 30,000. The table view lists every value.",
    );
  });

  it("count new users in whole steps up to the highest stack, not in fractions", async () => {
    showStatistics();
    const { drawn } = await chart("New users by role");
    // Two students and one staff member at most in a day: 0 to 3, one by one.
    expect(drawn.y).toEqual({ title: "Count", labels: ["0", "1", "2", "3"] });
    expect(drawn.x.labels).toHaveLength(SHOWN_DAYS.length);
    expect(drawn.legend).toBe(true);

    // RM 24.50 at most: steps of RM 10.
    const merchants = await chart("Top merchants by gross (RM)");
    expect(merchants.drawn.x).toEqual({ title: "Merchant", labels: ["Library Café"] });
    expect(merchants.drawn.y.labels).toEqual(["RM 0", "RM 10", "RM 20", "RM 30"]);
  });

  it("write the dates the Chinese way in Chinese", async () => {
    await i18next.changeLanguage("cn-ZH");
    dayjs.locale("zh-cn");
    showStatistics();
    const money = await chart("资金流入与流出（RM）");
    expect(money.drawn.x.title).toBe("日期");
    expect(money.drawn.x.labels).toEqual(
      SHOWN_DAYS.map(
        (day) =>
          `${Number(day.slice(0, 4))}年${Number(day.slice(5, 7))}月${Number(day.slice(8))}日`,
      ),
    );
    expect(money.drawn.y.title).toBe("RM");
    expect((await chart("按角色的新用户")).drawn.y.title).toBe("数量");
  });
});
