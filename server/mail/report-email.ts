import type { CalculatorAmounts } from "../../src/shared/calculator/inputs";
import type { Language } from "../http/language";
import { reportContent } from "./report-content";
import { renderReportHtml } from "./report-html";
import { renderReportText } from "./report-text";

export interface RenderedReport {
  subject: string;
  text: string;
  html: string;
}

/** The calculator report e-mail in `language`, recomputed from the validated amounts. */
export function renderReportEmail(
  language: Language,
  name: string | undefined,
  amounts: CalculatorAmounts,
): RenderedReport {
  const content = reportContent(language, name, amounts);
  return {
    subject: content.subject,
    text: renderReportText(content),
    html: renderReportHtml(content),
  };
}
