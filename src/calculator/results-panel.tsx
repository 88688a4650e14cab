/** Results grouped as Cashflow Health, Debt Health and Asset Health, with the report and print
 * actions. */
import type { RefObject } from "react";
import { formatRinggit } from "../shared/calculator/format";
import { RatioCard } from "./ratio-card";
import {
  RATIO_GROUPS,
  type DerivedFigures,
  type RatioKey,
  type RatioResult,
} from "../shared/calculator/ratios";
import { useTranslation } from "./translation";

interface ResultsPanelProps {
  ratios: Record<RatioKey, RatioResult>;
  figures: DerivedFigures;
  hasErrors: boolean;
  reportButton: RefObject<HTMLButtonElement | null>;
  onOpenReport: () => void;
  /** The pointer or focus is on the report button: a moment to fetch the dialog. */
  onReportIntent: () => void;
  onPrint: () => void;
}

export function ResultsPanel({
  ratios,
  figures,
  hasErrors,
  reportButton,
  onOpenReport,
  onReportIntent,
  onPrint,
}: ResultsPanelProps) {
  const { t } = useTranslation();
  return (
    <section id="results" className="calc-results" aria-labelledby="results-title" tabIndex={-1}>
      <div className="calc-results-head">
        <h2 id="results-title">{t("results.title")}</h2>
        <div className="calc-actions">
          <button
            ref={reportButton}
            type="button"
            className="calc-button primary"
            aria-haspopup="dialog"
            onClick={onOpenReport}
            onPointerEnter={onReportIntent}
            onFocus={onReportIntent}
          >
            {t("report.open")}
          </button>
          <button type="button" className="calc-button secondary" onClick={onPrint}>
            {t("results.print")}
          </button>
        </div>
      </div>
      {hasErrors && <p className="calc-warning">{t("results.invalidInputs")}</p>}
      <dl className="calc-totals">
        <div>
          <dt>{t("totals.totalAssets")}</dt>
          <dd data-testid="total-assets">{formatRinggit(figures.totalAssets)}</dd>
        </div>
        <div>
          <dt>{t("totals.totalLiabilities")}</dt>
          <dd data-testid="total-liabilities">{formatRinggit(figures.totalLiabilities)}</dd>
        </div>
        <div>
          <dt>{t("totals.monthlySavings")}</dt>
          <dd className={figures.monthlySavings < 0 ? "negative" : undefined}>
            {formatRinggit(figures.monthlySavings)}
          </dd>
        </div>
      </dl>
      {RATIO_GROUPS.map((group) => (
        <section key={group.key} className="calc-group" aria-labelledby={`group-${group.key}`}>
          <h3 id={`group-${group.key}`}>{t(`results.groups.${group.key}`)}</h3>
          <ul>
            {group.ratios.map((key) => (
              <RatioCard key={key} ratioKey={key} result={ratios[key]} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
