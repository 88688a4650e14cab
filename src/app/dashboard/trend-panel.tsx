import { useTranslation } from "react-i18next";

import type { DashboardSummary } from "../../shared/schemas/dashboard";
import { ChartCard } from "../statistic/chart-card";
import { trendChart } from "../statistic/chart-data";

type Trend = NonNullable<DashboardSummary["trend"]>;

/**
 * The last 14 days' top-ups and payments (each series only under its code), as small SVG lines:
 * the dashboard is the first screen, so it does without the chart library.
 */
export function TrendPanel({ days }: { days: Trend }) {
  const { t } = useTranslation("dashboard");
  const spec = trendChart(days, {
    topUpSen: t("trend.topUpSen"),
    paymentSen: t("trend.paymentSen"),
  });
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  return (
    <ChartCard
      spec={spec}
      title={t("trend.title")}
      xHeader={t("trend.x")}
      file={`dashboard-trend-${first}-${last}`}
      light
    />
  );
}
