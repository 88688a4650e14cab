/**
 * Content Management's list against msw: publishing sends the article's publish call (with the
 * version it showed) and the list reads again; moving an article sends its direction; a refusal
 * (already first of its category) is said in the staff member's words, in English and in Chinese.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { helpArticles } from "../../src/resources/help-articles";
import HelpArticleList from "../../src/resources/help-articles/list";
import type { HelpArticleDto } from "../../src/shared/modules/help-articles";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 20_000 });
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "helpArticle"]);
});
afterEach(async () => {
  await i18next.changeLanguage("en-US");
});

const ARTICLE: HelpArticleDto & { version: number } = {
  id: 5,
  category: "lost_card",
  position: 1,
  titleEn: "I lost my student card",
  titleZh: "学生证遗失了",
  status: "draft",
  bodyEn: "<p>Freeze it.</p>",
  bodyZh: "<p>冻结。</p>",
  authorId: 1,
  authorName: "Meera Nair",
  publishedAt: null,
  updatedAt: "2026-11-20T02:00:00.000Z",
  version: 2,
};

function serveList(rows: HelpArticleDto[]) {
  server.use(
    mswHttp.get(`${API}/api/help-articles/aggregation`, () =>
      HttpResponse.json({ totalCount: rows.length, totalCountExact: true, helpArticles: rows }),
    ),
  );
}

const openList = () =>
  renderPage("/content-mgmt", [helpArticles.resource], { "/content-mgmt": <HelpArticleList /> });

describe("the help article list", () => {
  it("publishes a draft with its own call, then reads the list again", async () => {
    serveList([ARTICLE]);
    server.use(
      mswHttp.post(`${API}/api/help-articles/5/publish`, () =>
        HttpResponse.json({ ...ARTICLE, status: "published" }),
      ),
    );
    openList();
    const row = (await screen.findByText("I lost my student card")).closest("tr")!;
    const lists = () => requests.filter((r) => r.url.includes("/aggregation")).length;
    const before = lists();
    await userEvent.click(
      within(row).getByRole("button", { name: "Publish I lost my student card" }),
    );
    expect(await screen.findByText(/is published: the wallet app shows it/)).toBeTruthy();
    const publish = requests.find((r) => r.method === "POST")!;
    expect(new URL(publish.url).pathname).toBe("/v1/api/help-articles/5/publish");
    // Based on the article as the list showed it (docs/versions.md).
    expect(publish.headers.get("if-match")).toBe('"help-articles/5/2"');
    await vi.waitFor(() => expect(lists()).toBeGreaterThan(before));
  });

  it("moves an article with its direction, and says why it cannot move, in Chinese too", async () => {
    serveList([ARTICLE]);
    server.use(
      mswHttp.post(`${API}/api/help-articles/5/move`, () =>
        HttpResponse.json(
          { code: "NO_NEIGHBOUR", message: "This help article is already the first" },
          { status: 409 },
        ),
      ),
    );
    await i18next.changeLanguage("cn-ZH");
    openList();
    await screen.findByText("学生证遗失了");
    await userEvent.click(screen.getByRole("button", { name: "上移I lost my student card" }));
    expect(await screen.findByText("该文章已在其分类的最前或最后。")).toBeTruthy();
    const move = requests.find((r) => r.method === "POST")!;
    expect(await move.json()).toEqual({ direction: "up" });
  });
});
