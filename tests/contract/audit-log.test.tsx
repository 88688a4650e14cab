/**
 * Audit Log, drawn by the kit from its declaration, against msw: each entry's changes in the terms
 * of the module its record belongs to (a top-up's status translated), its record linked to that
 * module's page, and an entry of no module shown by its keys and raw values; the CSV alike.
 */
import { configure, screen, within } from "@testing-library/react";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { displayText } from "../../src/app/kit/cells";
import GeneratedList from "../../src/app/kit/generated-list";
import { resourceOf } from "../../src/app/kit/resource";
import { auditLog, type AuditLogEntryDto } from "../../src/shared/modules/audit-log";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();
configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "auditLog", "topUp"]);
});

const LIST = `${API}/api/audit-log/aggregation`;
const base = {
  adminId: 1,
  adminName: "Super Admin",
  remark: null,
  createdAt: "2026-03-04T05:06:07.000Z",
};
const reversal: AuditLogEntryDto = {
  ...base,
  id: 42,
  area: "topUp",
  action: "top_up.reverse",
  module: "top-up-transactions",
  targetId: "77",
  remark: "Keyed in twice",
  changes: [{ field: "status", from: "success", to: "reversed" }],
};
const setting: AuditLogEntryDto = {
  ...base,
  id: 41,
  adminId: null,
  adminName: null,
  area: "global",
  action: "global_settings.update",
  module: null,
  targetId: "parking",
  changes: [{ field: "value", from: { open: false }, to: { open: true } }],
};

describe("Audit Log list", () => {
  it("shows changes in the record's module's terms and links the record", async () => {
    server.use(
      mswHttp.get(LIST, () => HttpResponse.json({ totalCount: 2, auditLog: [reversal, setting] })),
      mswHttp.get(`${API}/api/audit-log/options/adminId`, () => HttpResponse.json({ options: [] })),
    );
    renderPage("/audit-log", [resourceOf(auditLog).resource], { "/audit-log": <GeneratedList /> });
    const link = await screen.findByRole("link", { name: "77" });
    expect(link).toHaveAttribute("href", "/top-up-transaction/77");
    const row = within(link.closest("tr")!);
    expect(row.getByRole("rowheader", { name: "Status" })).toBeInTheDocument();
    expect(row.getByText("Successful")).toBeInTheDocument();
    expect(row.getByText("Reversed")).toBeInTheDocument();
    expect(row.getByText("Top Up")).toBeInTheDocument();
    // No module: the record is plain text, the values as JSON, the administrator the system.
    const other = within(screen.getByText("parking").closest("tr")!);
    expect(other.queryByRole("link", { name: "parking" })).toBeNull();
    expect(other.getByText('{"open":true}')).toBeInTheDocument();
    expect(other.getByText("System")).toBeInTheDocument();
    const request = requests.find((candidate) => candidate.url.startsWith(`${LIST}?`));
    expect(jsonParam(request, "sort")).toEqual({ id: -1 });
  });

  it("writes the same words into the CSV", () => {
    const t = i18next.t.bind(i18next);
    expect(displayText(t, auditLog, "changes", reversal.changes, reversal)).toBe(
      "Status: Successful → Reversed",
    );
    expect(displayText(t, auditLog, "changes", setting.changes, setting)).toBe(
      'value: {"open":false} → {"open":true}',
    );
  });
});
