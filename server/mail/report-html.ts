import type { RatioBand } from "../../src/shared/calculator/ratios";
import type { FigureRow, RatioRow, ReportContent } from "./report-content";

/** Every text goes through this: the name is the visitor's own input. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] ?? char,
  );
}

// Mail clients ignore style sheets and flexbox: inline styles on a table layout only.
const FONT = "font-family:Arial,'Helvetica Neue','PingFang SC','Microsoft YaHei',sans-serif";
const CELL = "padding:6px 8px;border-bottom:1px solid #e5e7eb;vertical-align:top;font-size:14px";
const HEADING = "margin:24px 0 8px;font-size:18px;color:#111827";
const SUBHEADING = "padding:12px 8px 4px;font-size:15px;font-weight:bold;color:#374151";
const NEGATIVE = "color:#b91c1c";
const BAND_COLOURS: Record<RatioBand, string> = {
  optimum: "#15803d",
  moderate: "#b45309",
  adverse: "#b91c1c",
  "not-applicable": "#6b7280",
};

const valueCell = (value: string, negative: boolean) =>
  `<td style="${CELL};text-align:right;white-space:nowrap${negative ? `;${NEGATIVE}` : ""}">${escapeHtml(value)}</td>`;

function figureRow(row: FigureRow): string {
  return `<tr><td style="${CELL}">${escapeHtml(row.label)}</td>${valueCell(row.value, row.negative)}</tr>`;
}

function ratioRow(row: RatioRow, optimumLabel: string): string {
  const reason = row.reason
    ? `<div style="font-size:13px;color:#4b5563">${escapeHtml(row.reason)}</div>`
    : "";
  const optimum = `<div style="font-size:13px;color:#4b5563">${escapeHtml(optimumLabel)}: ${escapeHtml(row.optimum)}</div>`;
  const band = `<td style="${CELL};white-space:nowrap;font-weight:bold;color:${BAND_COLOURS[row.band]}">${escapeHtml(row.bandWord)}</td>`;
  return `<tr><td style="${CELL}">${escapeHtml(row.name)}${optimum}${reason}</td>${valueCell(row.value, row.negative)}${band}</tr>`;
}

const subheading = (title: string, columns: number) =>
  `<tr><td colspan="${columns}" style="${SUBHEADING}">${escapeHtml(title)}</td></tr>`;

const table = (rows: string[]) =>
  `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">${rows.join("")}</table>`;

/** The report as an HTML document in the visitor's language. */
export function renderReportHtml(content: ReportContent): string {
  const inputs = content.inputs.sections.flatMap((section) => [
    ...(section.title ? [subheading(section.title, 2)] : []),
    ...section.rows.map(figureRow),
  ]);
  const results = content.results.groups.flatMap((group) => [
    subheading(group.title, 3),
    ...group.rows.map((row) => ratioRow(row, content.results.optimumLabel)),
  ]);
  return [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(content.lang)}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f3f4f6;${FONT}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px"><tr><td style="padding:24px;color:#111827;${FONT}">`,
    `<p style="margin:0 0 12px;font-size:15px">${escapeHtml(content.greeting)}</p>`,
    `<p style="margin:0 0 12px;font-size:15px">${escapeHtml(content.intro)}</p>`,
    `<h2 style="${HEADING}">${escapeHtml(content.inputs.title)}</h2>`,
    table(inputs),
    `<h2 style="${HEADING}">${escapeHtml(content.results.title)}</h2>`,
    table(results),
    `<p style="margin:24px 0 0;font-size:12px;color:#6b7280">${escapeHtml(content.footer)}</p>`,
    "</td></tr></table>",
    "</td></tr></table>",
    "</body>",
    "</html>",
  ].join("\n");
}
