/**
 * The page at `/`: the input card, the ten ratios computed as the visitor types, the report
 * dialog and a print view. The figures live in local storage, as typed.
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { InputCard } from "./input-card";
import { validateField } from "./field-validation";
import { PageHeader } from "./page-header";
import { PrintSummary } from "./print-summary";
import { computeRatios, deriveFigures } from "./ratios";
import { RECAPTCHA_SITE_KEY, ReportDialog } from "./report-dialog";
import { ResultsPanel } from "./results-panel";
import { EMPTY_FORM, loadFormTexts, saveFormTexts, type FormTexts } from "./storage";
import { useTranslation } from "./translation";
import type { CalculatorField } from "./inputs";
import { amountsFromForm } from "./form-amounts";

export function CalculatorPage() {
  const { t } = useTranslation();
  const [form, setForm] = useState<FormTexts>(loadFormTexts);
  const [reportOpen, setReportOpen] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const reportButton = useRef<HTMLButtonElement>(null);

  const changeField = useCallback((field: CalculatorField, text: string) => {
    setForm((current) => {
      const next = { ...current, [field]: text };
      saveFormTexts(next);
      return next;
    });
    setAnnouncement("");
  }, []);

  const clearForm = useCallback(() => {
    setForm(EMPTY_FORM);
    saveFormTexts(EMPTY_FORM);
    setAnnouncement(t("form.cleared"));
  }, [t]);

  // Typing stays responsive: results follow a render behind when the device is slow.
  const deferredForm = useDeferredValue(form);
  const { amounts, hasErrors } = useMemo(() => amountsFromForm(deferredForm), [deferredForm]);
  const ratios = useMemo(() => computeRatios(amounts), [amounts]);
  const figures = useMemo(() => deriveFigures(amounts), [amounts]);
  const errors = useMemo(
    () =>
      Object.fromEntries(
        (Object.keys(form) as CalculatorField[]).map((field) => [
          field,
          validateField(field, form[field]),
        ]),
      ) as Record<CalculatorField, string | undefined>,
    [form],
  );

  const closeReport = useCallback(() => setReportOpen(false), []);

  // Focus goes back to the button that opened the dialog, once the page is no longer inert
  // (focusing it in the same event as closing would hit a still-inert button and do nothing).
  const dialogWasOpen = useRef(false);
  useEffect(() => {
    if (dialogWasOpen.current && !reportOpen) reportButton.current?.focus();
    dialogWasOpen.current = reportOpen;
  }, [reportOpen]);

  return (
    <>
      <div className="calc-page" inert={reportOpen}>
        <a className="calc-skip" href="#results">
          {t("page.skipToResults")}
        </a>
        <PageHeader />
        <main className="calc-main">
          <p className="calc-intro">{t("page.intro")}</p>
          <div className="calc-layout">
            <InputCard
              form={form}
              errors={errors}
              onChange={changeField}
              onClear={clearForm}
              announcement={announcement}
            />
            <ResultsPanel
              ratios={ratios}
              figures={figures}
              hasErrors={hasErrors}
              reportButton={reportButton}
              onOpenReport={() => setReportOpen(true)}
            />
          </div>
          <PrintSummary form={deferredForm} />
        </main>
      </div>
      {reportOpen && (
        <ReportDialog form={form} siteKey={RECAPTCHA_SITE_KEY} onClose={closeReport} />
      )}
    </>
  );
}
