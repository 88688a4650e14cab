/**
 * The page at `/`: the input card, the ten ratios computed as the visitor types, the report
 * dialog and a print view. The figures live in local storage, as typed.
 *
 * Only what the first paint needs is in this chunk: the report dialog (and reCAPTCHA behind it)
 * is fetched when the visitor heads for its button, the print view when the browser is idle or
 * the visitor prints.
 */
import {
  Suspense,
  lazy,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { flushSync } from "react-dom";
import { InputCard } from "./input-card";
import { validateField } from "./field-validation";
import { LoadBoundary } from "./load-boundary";
import { PageHeader } from "./page-header";
import { computeRatios, deriveFigures } from "../shared/calculator/ratios";
import { ResultsPanel } from "./results-panel";
import { EMPTY_FORM, loadFormTexts, saveFormTexts, type FormTexts } from "./storage";
import { useTranslation } from "./translation";
import { CALCULATOR_FIELDS, type CalculatorField } from "../shared/calculator/inputs";
import { amountsFromForm } from "./form-amounts";

const loadReportDialog = () => import("./report-dialog");
const lazyReportDialog = () =>
  lazy(() => loadReportDialog().then(({ ReportDialog }) => ({ default: ReportDialog })));
// A new one after a failed download, so that the next click tries again.
let ReportDialog = lazyReportDialog();

const loadPrintView = () => import("./print-summary");
type PrintView = Awaited<ReturnType<typeof loadPrintView>>["PrintSummary"];

/** Runs `work` once the browser has nothing else to do (soon after, where it cannot tell). */
function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(work, { timeout: 5000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, 1500);
  return () => clearTimeout(id);
}

/**
 * The figures to show once the build's HTML (an empty form) is hydrated: the saved ones, and over
 * them anything the visitor typed into that HTML before the script ran (React keeps those values
 * in the inputs while hydrating; the state must take them over).
 */
function restoredForm(): FormTexts {
  const form = { ...loadFormTexts() };
  for (const { key } of CALCULATOR_FIELDS) {
    const input = document.getElementById(`field-${key}`);
    if (input instanceof HTMLInputElement && input.value !== "") form[key] = input.value;
  }
  return form;
}

export function CalculatorPage({ hydrating = false }: { hydrating?: boolean }) {
  const { t } = useTranslation();
  // The build's HTML has an empty form: hydration starts from it, the visitor's figures follow.
  const [form, setForm] = useState<FormTexts>(() => (hydrating ? EMPTY_FORM : loadFormTexts()));
  const [reportOpen, setReportOpen] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [PrintSummary, setPrintSummary] = useState<PrintView | null>(null);
  const reportButton = useRef<HTMLButtonElement>(null);

  // Right after hydration, before the browser paints again: the second render is the point.
  useLayoutEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the HTML must be matched first
    if (hydrating) setForm(restoredForm());
  }, [hydrating]);

  useEffect(
    () =>
      whenIdle(() =>
        loadPrintView().then(
          (view) => setPrintSummary(() => view.PrintSummary),
          () => undefined,
        ),
      ),
    [],
  );

  const print = useCallback(() => {
    const printNow = () => window.print();
    loadPrintView().then((view) => {
      flushSync(() => setPrintSummary(() => view.PrintSummary));
      printNow();
    }, printNow);
  }, []);

  const reportDialogFailed = useCallback(() => {
    ReportDialog = lazyReportDialog();
    setReportOpen(false);
    setAnnouncement(t("report.failures.network"));
  }, [t]);

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
              onReportIntent={() => void loadReportDialog().catch(() => undefined)}
              onPrint={print}
            />
          </div>
          {PrintSummary && <PrintSummary form={deferredForm} />}
        </main>
      </div>
      {reportOpen && (
        <LoadBoundary fallback={null} onError={reportDialogFailed}>
          <Suspense fallback={null}>
            <ReportDialog form={form} onClose={closeReport} />
          </Suspense>
        </LoadBoundary>
      )}
    </>
  );
}
