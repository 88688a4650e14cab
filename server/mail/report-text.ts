import type { ReportContent } from "./report-content";

/** The report as plain text, for clients that do not show HTML and for screen readers. */
export function renderReportText(content: ReportContent): string {
  const lines: string[] = [content.greeting, "", content.intro, "", content.inputs.title];
  for (const section of content.inputs.sections) {
    if (section.title) lines.push("", section.title);
    for (const row of section.rows) lines.push(`  ${row.label}: ${row.value}`);
  }
  lines.push("", content.results.title);
  for (const group of content.results.groups) {
    lines.push("", group.title);
    for (const row of group.rows) {
      lines.push(`  ${row.name}: ${row.value} (${row.bandWord})`);
      lines.push(`    ${content.results.optimumLabel}: ${row.optimum}`);
      if (row.reason) lines.push(`    ${row.reason}`);
    }
  }
  lines.push("", "--", content.footer, "");
  return lines.join("\n");
}
