/**
 * Printed only: the figures the ratios were computed from, compact, above the page's end. With
 * print.css, the page's print view: a chunk of its own that the page loads when idle or when the
 * visitor asks to print, so neither is on the way to the first paint.
 */
import "./print.css";
import { formatRinggit } from "../shared/calculator/format";
import { CALCULATOR_FIELDS, parseAmount } from "../shared/calculator/inputs";
import type { FormTexts } from "./storage";
import { useTranslation } from "./translation";

/** A valid amount as `RM 1,234.00`; anything else as typed (the form marks it invalid). */
function asRinggit(text: string): string {
  const parsed = parseAmount(text);
  return parsed.ok && parsed.sen !== null ? formatRinggit(parsed.sen) : text.trim();
}

export function PrintSummary({ form }: { form: FormTexts }) {
  const { t } = useTranslation();
  const filled = CALCULATOR_FIELDS.filter((field) => form[field.key].trim() !== "");
  if (filled.length === 0) return null;
  return (
    <section className="calc-print-only calc-print-figures" aria-labelledby="print-figures">
      <h2 id="print-figures">{t("results.figuresTitle")}</h2>
      <dl>
        {filled.map((field) => (
          <div key={field.key}>
            <dt>{t(`fields.${field.key}.label`)}</dt>
            <dd>{field.kind === "amount" ? asRinggit(form[field.key]) : form[field.key].trim()}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
