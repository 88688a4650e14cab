import { Spin } from "antd";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";

import type { DashboardSummary } from "../../shared/schemas/dashboard";
import { ModuleTexts } from "../module-texts";
import { ChartCard } from "../statistic/chart-card";
import { trendChart } from "../statistic/chart-data";

type Trend = NonNullable<DashboardSummary["trend"]>;

function Trend({ days }: { days: Trend }) {
  const { t } = useTranslation("statistic");
  const spec = trendChart(days, t);
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  return (
    <ChartCard
      spec={spec}
      title={t("charts.trend.title")}
      xHeader={t("charts.trend.x")}
      file={`dashboard-trend-${first}-${last}`}
      height={240}
    />
  );
}

/**
 * The last 14 days' top-ups and payments: its words (the statistic namespace) and the chart
 * library load after the dashboard's figures, so the first screen does not wait for them.
 */
export function TrendPanel({ days }: { days: Trend }) {
  return (
    <Suspense fallback={<Spin />}>
      <ModuleTexts>
        <Trend days={days} />
      </ModuleTexts>
    </Suspense>
  );
}
