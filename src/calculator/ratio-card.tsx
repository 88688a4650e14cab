/** One ratio: name, figure in its unit, band (colour and word), Optimum, one-line explanation. */
import { memo } from "react";
import { formatMonths, formatRatioValue } from "../shared/calculator/format";
import { RATIOS, type RatioKey, type RatioResult } from "../shared/calculator/ratios";
import { useTranslation } from "./translation";

/** The figure as shown: a number in its unit, or a word when there is no number to show. */
function useDisplayedValue(key: RatioKey, result: RatioResult): string {
  const { t } = useTranslation();
  const { unit } = RATIOS[key];
  if (result.value === null) {
    if (result.reason === "no-target") return t("results.setTarget");
    if (result.reason === "no-expenses" && result.band === "optimum") {
      return `∞ ${t("results.unlimited")}`;
    }
    return t("results.noFigure");
  }
  if (unit === "months") return t("units.months", { value: formatMonths(result.value) });
  return formatRatioValue(unit, result.value);
}

export const RatioCard = memo(function RatioCard({
  ratioKey,
  result,
}: {
  ratioKey: RatioKey;
  result: RatioResult;
}) {
  const { t } = useTranslation();
  const shown = useDisplayedValue(ratioKey, result);
  const negative = result.value !== null && result.value < 0;
  const nameId = `ratio-${ratioKey}`;
  return (
    <li className={`calc-ratio band-${result.band}`} aria-labelledby={nameId}>
      <div className="calc-ratio-head">
        <h4 id={nameId}>{t(`ratios.${ratioKey}.name`)}</h4>
        <span className="calc-band" data-testid={`band-${ratioKey}`}>
          <span className="calc-dot" aria-hidden="true" />
          {t(`bands.${result.band}`)}
        </span>
      </div>
      <p className={`calc-value${negative ? " negative" : ""}`} data-testid={`value-${ratioKey}`}>
        {shown}
      </p>
      <p className="calc-optimum">
        {t("results.optimumLine", { value: t(`ratios.${ratioKey}.optimum`) })}
      </p>
      <p className="calc-explanation">
        {result.reason ? t(`reasons.${result.reason}`) : t(`ratios.${ratioKey}.explanation`)}
      </p>
    </li>
  );
});
