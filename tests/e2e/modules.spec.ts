/**
 * The module kit's browser conformance: every declared module's list (and detail page, where it
 * has one) renders in Chromium against the real server, in English and in Chinese, with its
 * title, its table and no translation key shown raw.
 */
import type { Page } from "@playwright/test";

import { switchLanguage } from "./support/console";
import { expect, test, useSignedInSuperAdmin, useSuperAdminServer } from "./support/fixtures";
import { MODULES } from "./support/modules";

const suite = useSuperAdminServer(70);

test.describe.configure({ mode: "serial" });

/**
 * Signed in once for the whole file, each module's page opened with that session: a login per
 * module passed the server's limit (10 a minute per address and e-mail) as soon as the tests ran
 * faster than one every six seconds, and the tenth module got 429 at the login page.
 */
useSignedInSuperAdmin(suite);

/**
 * A translation key shown as text: `ns:some.key`, or a bare key under one of the kit's groups
 * (`list.title`, `decision.approveFor`, `filters.role.label`, …).
 */
const RAW_KEY =
  /\b[a-z][a-zA-Z]*:[a-z][a-zA-Z_]*(\.[a-zA-Z_]+)+\b|\b(list|fields|decision|filter|filters|export|show|errors)\.[a-zA-Z_.]+\b/;

async function expectNoRawKeys(page: Page) {
  const text = await page.locator("body").innerText();
  expect(text.match(RAW_KEY)?.[0] ?? null).toBeNull();
}

async function expectListRendered(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator(".ant-table")).toBeVisible();
  await expect(page.locator(".ant-table-row, .ant-empty").first()).toBeVisible();
  await expectNoRawKeys(page);
}

/** The id of one record the module's list shows, read through the API. */
async function firstId(path: string, listKey: string): Promise<number | undefined> {
  const answer = await fetch(`${suite.server.url}/v1${path}`, {
    headers: { Authorization: suite.token },
  });
  const body = (await answer.json()) as Record<string, Array<{ id: number }>>;
  return body[listKey]?.[0]?.id;
}

// A detail page only (a ledger row's) has no list: tests/e2e/lookup.spec.ts opens it.
for (const module of MODULES.filter((declared) => !declared.detailOnly)) {
  test(`${module.name}: the list, and its detail page, render in both languages`, async ({
    page,
  }) => {
    await page.goto(`${suite.server.url}${module.paths.list}`);
    await expectListRendered(page);
    const english = await page.getByRole("heading", { level: 1 }).innerText();

    await switchLanguage(page, "中文");
    await expectListRendered(page);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).not.toBe(english);

    if (module.paths.show) {
      const id = await firstId(
        module.listPath ?? `/api/${module.collection}/aggregation`,
        module.queryName,
      );
      expect(id, "a record to open").toBeDefined();
      await page.goto(`${suite.server.url}${module.paths.show}/${id}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoRawKeys(page);
      await switchLanguage(page, "English");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoRawKeys(page);
    }
  });
}
