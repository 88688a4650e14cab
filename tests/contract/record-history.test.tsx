/**
 * A record's history on its generated detail page, against msw with audit entries as the server
 * writes them (whole snapshots of the record before and after): every change in the module's own
 * words, in both languages. No id behind a linked name (`adminId`, `userId`, an author's id), no
 * field key, no HTML markup: a linked person by name, a field by its label, rich text as text.
 */
import { configure, screen, within } from "@testing-library/react";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { formatDateTime } from "../../src/app/format";
import GeneratedShow from "../../src/app/kit/generated-show";
import { resourceOf } from "../../src/app/kit/resource";
import type { AuditEntry } from "../../src/providers/api-types";
import { businessUpdates } from "../../src/shared/modules/business-updates";
import { helpArticles } from "../../src/shared/modules/help-articles";
import { topUps } from "../../src/shared/modules/top-ups";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "topUp", "helpArticle", "businessUpdate"]);
});

afterEach(async () => {
  await i18next.changeLanguage("en-US");
});

type Snapshot = Record<string, unknown>;

let nextId = 100;
const entry = (
  action: string,
  before: Snapshot | null,
  after: Snapshot,
  overrides: Partial<AuditEntry> = {},
): AuditEntry => ({
  id: nextId++,
  action,
  adminId: 7,
  adminName: "Aisyah Rahman",
  remark: null,
  before,
  after,
  createdAt: "2026-11-27T02:00:00.000Z",
  ...overrides,
});

/** `path` of one record drawn by the kit, its history answering `entries`, newest first. */
async function historyOf(
  module: typeof topUps | typeof helpArticles | typeof businessUpdates,
  record: Snapshot & { id: number },
  entries: AuditEntry[],
) {
  const base = `${API}/api/${module.collection}/${record.id}`;
  server.use(
    mswHttp.get(base, () => HttpResponse.json(record)),
    mswHttp.get(`${base}/audit`, () => HttpResponse.json({ totalCount: entries.length, entries })),
    mswHttp.get(`${API}/api/change-requests/aggregation`, () =>
      HttpResponse.json({ totalCount: 0, changeRequests: [] }),
    ),
  );
  renderPage(`${module.paths.show}/${record.id}`, [resourceOf(module).resource], {
    [`${module.paths.show}/:id`]: <GeneratedShow />,
  });
  const title = i18next.t("kit:history.title");
  const heading = await screen.findByRole("heading", { name: title });
  const history = heading.closest("section")!;
  await within(history).findByText(
    String(i18next.t(`${module.i18n}:history.actions.${entries[0]!.action.replace(/\./g, "_")}`)),
  );
  return history;
}

/** What a history must never show: an id's or a field's key, or HTML markup. */
function expectNoInternals(history: HTMLElement, keys: readonly string[]) {
  const text = history.textContent ?? "";
  for (const key of keys) expect(text).not.toContain(key);
  expect(text).not.toMatch(/<\/?[a-z][a-z0-9]*[^<>]*>/i);
}

const rowOf = (history: HTMLElement, action: string) =>
  within(history).getByText(action).closest("tr")!;

describe("a top-up's history", () => {
  const topUp = {
    reference: "TU20261127A000000077",
    userId: 601,
    accountNumber: "UC000042",
    userName: "Nur Aina",
    amountSen: 2_550,
    balanceAfterSen: 3_550,
    channel: "counter",
    status: "success",
    agentUserId: null,
    agentName: null,
    adminId: 7,
    adminName: "Aisyah Rahman",
    remark: "Cash",
    reversalReference: null,
    reversalRemark: null,
  };
  const reversed = {
    ...topUp,
    status: "reversed",
    reversalReference: "RVTU20261127A000000077",
    reversalRemark: "Wrong wallet",
  };
  const entries = [
    entry("top_up.reverse", topUp, reversed, { adminId: 1, adminName: "Super Administrator" }),
    entry("top_up.create", null, topUp, { remark: "Cash" }),
  ];
  const record = { id: 77, ...reversed, createdAt: "2026-11-27T01:00:00.000Z" };

  it("names the account holder and who took it, never their ids", async () => {
    const history = await historyOf(topUps, record, entries);
    expectNoInternals(history, ["adminId", "agentUserId", "userId", "601", "agentName"]);
    const created = rowOf(history, "Counter top-up");
    expect(created).toHaveTextContent("Account holder: — → Nur Aina");
    expect(created).toHaveTextContent("Taken by: — → Aisyah Rahman");
    expect(created).toHaveTextContent("Amount: — → RM 25.50");
    expect(created).toHaveTextContent("Channel: — → Counter");
    // An agent nobody was, before or after, is no change.
    expect(created).not.toHaveTextContent("Agent");
    expect(rowOf(history, "Reversed")).toHaveTextContent("Status: Successful → Reversed");
  });

  it("says the same in Chinese", async () => {
    await i18next.changeLanguage("cn-ZH");
    const history = await historyOf(topUps, record, entries);
    expectNoInternals(history, ["adminId", "agentUserId", "userId", "601"]);
    const created = rowOf(history, "柜台充值");
    expect(created).toHaveTextContent("账户持有人: — → Nur Aina");
    expect(created).toHaveTextContent("经办人: — → Aisyah Rahman");
    expect(rowOf(history, "已冲正")).toHaveTextContent("状态: 成功 → 已冲正");
  });
});

describe("a help article's history", () => {
  const draft = {
    bodyEn: "<p>Hello <strong>there</strong></p>",
    bodyZh: "<p>你好</p>",
    status: "draft",
    titleEn: "Where to park",
    titleZh: "停车地点",
    authorId: 1,
    category: "parking",
    position: 3,
    authorName: "Super Administrator",
    publishedAt: null,
  };
  const edited = {
    ...draft,
    titleEn: "Where to park at night",
    bodyEn: "<h2>Night</h2><ul><li>Block D</li><li>Gate <em>B</em></li></ul>",
  };
  const entries = [
    entry("help_article.update", draft, edited),
    entry("help_article.create", null, draft),
  ];
  const record = { id: 5, ...edited, updatedAt: "2026-11-27T02:00:00.000Z" };

  it("names the author, and shows the bodies as text without markup", async () => {
    const history = await historyOf(helpArticles, record, entries);
    expectNoInternals(history, ["authorId", "bodyEn", "<"]);
    const created = rowOf(history, "Created");
    expect(created).toHaveTextContent("Author: — → Super Administrator");
    expect(created).not.toHaveTextContent(/Author: — → 1\b/);
    expect(created).toHaveTextContent("Body (English): — → Hello there");
    expect(created).toHaveTextContent("Category: — → Parking");
    expect(rowOf(history, "Edited")).toHaveTextContent(
      "Body (English): Hello there → Night · Block D · Gate B",
    );
  });

  it("says the same in Chinese", async () => {
    await i18next.changeLanguage("cn-ZH");
    const history = await historyOf(helpArticles, record, entries);
    expectNoInternals(history, ["authorId", "bodyZh"]);
    const created = rowOf(history, "创建");
    expect(created).toHaveTextContent("作者: — → Super Administrator");
    expect(created).toHaveTextContent("正文（中文）: — → 你好");
  });
});

describe("a business update's history", () => {
  const pending = {
    remark: null,
    status: "pending",
    changes: [{ to: "08:00–22:00", from: "09:00–21:00", field: "openingHours" }],
    businessId: 12,
    reviewedAt: null,
    reviewerId: null,
    businessName: "Fresh Fold Laundry",
    reviewerName: null,
  };
  const rejected = {
    ...pending,
    remark: "Opening hours are no longer part of a business",
    status: "rejected",
    reviewedAt: "2026-11-27T02:00:00.105Z",
    reviewerId: 7,
    reviewerName: "Aisyah Rahman",
  };
  const entries = [entry("business_update.reject", pending, rejected, { remark: rejected.remark })];
  const record = {
    id: 11,
    ...rejected,
    createdAt: "2026-11-07T02:00:00.000Z",
    updatedAt: "2026-11-27T02:00:00.105Z",
  };

  it("names who decided, never their id", async () => {
    const history = await historyOf(businessUpdates, record, entries);
    expectNoInternals(history, ["reviewerId", "businessId", "openingHours"]);
    const decided = rowOf(history, "Rejected");
    expect(decided).toHaveTextContent("Decided by: — → Aisyah Rahman");
    expect(decided).toHaveTextContent("Status: Pending → Rejected");
    expect(decided).toHaveTextContent(
      `Decided at: — → ${formatDateTime("2026-11-27T02:00:00.105Z")}`,
    );
    expect(decided).not.toHaveTextContent(/→ 7\b/);
  });

  it("says the same in Chinese", async () => {
    await i18next.changeLanguage("cn-ZH");
    const history = await historyOf(businessUpdates, record, entries);
    expectNoInternals(history, ["reviewerId", "businessId", "openingHours"]);
    expect(rowOf(history, "已拒绝")).toHaveTextContent("审核人: — → Aisyah Rahman");
  });
});
