/**
 * Content (issue 13), against the real started server: an article written in the full-page editor
 * with a heading, a list, a link and an image in both languages, published, is served by the
 * public endpoint; leaving the editor with unsaved changes asks first; a stored article full of
 * XSS payloads opens with no script running; an announcement past its expiry shows as expired.
 */
import { XSS_PAYLOADS } from "../support/xss-payloads";
import { logIn } from "./support/console";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { e2ePort } from "./support/ports";
import { demoLogins, startServer, type RunningServer } from "./support/server";

const PORT = e2ePort(100);
let server: RunningServer;
let superAdmin: { email: string; password: string };

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

// Typing in two editors is slow on a loaded machine: each story gets five minutes.
test.describe.configure({ mode: "serial", timeout: 300_000 });

async function token(): Promise<string> {
  const session = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(superAdmin),
  });
  return ((await session.json()) as { token: string }).token;
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const answer = await fetch(`${server.url}/v1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", Authorization: await token() },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

test.beforeAll(async () => {
  test.setTimeout(Number(process.env.E2E_SERVER_START_MS ?? 90_000) + 30_000);
  server = await startServer({
    port: PORT,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  const login = demoLogins(server.output()).get("super administrator");
  if (!login) throw new Error(`no demo logins printed:\n${server.output()}`);
  superAdmin = login;
});

test.afterAll(async () => {
  await server?.stop();
});

test("an article written with a heading, a list, a link and an image in both languages, published, is served publicly", async ({
  page,
}) => {
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.getByRole("navigation").getByRole("link", { name: "Content Management" }).click();
  await expect(page.getByRole("heading", { name: "Content Management" })).toBeVisible();
  await expect(
    page.getByRole("link", { name: "Why is my account waiting for approval?" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "New article" }).click();
  await expect(page).toHaveURL(/[?&]id=create-edit-help-centre-editor$/);
  await expect(page.getByRole("heading", { name: "New help article" })).toBeVisible();

  // Nothing typed yet: the rules speak before anything is sent.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Title (English) is required.")).toBeVisible();

  await page.getByLabel("Category").click();
  await page.getByTitle("Parking", { exact: true }).click();
  const languages = [
    {
      name: "English",
      title: "Night parking at Block D",
      heading: "After 10 pm",
      item: "Use the upper deck",
      link: "Parking map",
    },
    {
      name: "Chinese",
      title: "D 座夜间停车",
      heading: "晚上十点以后",
      item: "请使用上层停车场",
      link: "停车地图",
    },
  ];
  for (const text of languages) {
    const column = page.getByRole("region", { name: text.name });
    await column.getByRole("textbox", { name: /Title/ }).fill(text.title);
    const body = column.getByRole("textbox", { name: /Body/ });
    await body.click();
    await column.getByRole("button", { name: "H2 heading", exact: true }).click();
    await page.keyboard.type(text.heading);
    await page.keyboard.press("Enter");
    await column.getByRole("button", { name: "Bulleted list" }).click();
    await page.keyboard.type(text.item);
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type(text.link);
    for (let i = 0; i < text.link.length; i += 1) await page.keyboard.press("Shift+ArrowLeft");
    await column.getByRole("button", { name: "Link", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Link" });
    await dialog
      .getByRole("textbox", { name: "Link address" })
      .fill("https://ucsi.example/parking");
    await dialog.getByRole("button", { name: "Apply" }).click();
    await expect(dialog).toBeHidden();
    // The caret is back in the text (not on the toolbar's Link button).
    await expect(body).toBeFocused();
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await column.getByTestId("rich-text-image-input").setInputFiles({
      name: "map.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    await expect(body.locator("img")).toHaveCount(1);
  }

  // Leaving now asks first; staying keeps every word.
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain("unsaved changes");
    void dialog.dismiss();
  });
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "New help article" })).toBeVisible();

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/content-details\/\d+$/);
  const id = Number(page.url().split("/").pop());
  await expect(page.getByText("Night parking at Block D was saved.")).toBeVisible();
  const preview = page.getByRole("region", { name: "Chinese" });
  await expect(preview.getByRole("heading", { name: "晚上十点以后" })).toBeVisible();
  await expect(preview.getByRole("listitem")).toHaveText("请使用上层停车场");
  await expect(preview.getByRole("link", { name: "停车地图" })).toHaveAttribute(
    "href",
    "https://ucsi.example/parking",
  );
  await expect(preview.getByRole("img", { name: "map" })).toBeVisible();

  await page.getByRole("button", { name: "Publish Night parking at Block D" }).click();
  await expect(page.getByText("Night parking at Block D is published")).toBeVisible();

  for (const [lang, text] of [
    ["en-US", languages[0]!],
    ["cn-ZH", languages[1]!],
  ] as const) {
    const answer = await fetch(`${server.url}/v1/api/public/help-articles?lang=${lang}`);
    const { articles } = (await answer.json()) as {
      articles: Array<{ id: number; title: string; body: string }>;
    };
    const article = articles.find((candidate) => candidate.id === id);
    expect(article?.title).toBe(text.title);
    expect(article?.body).toContain(`<h2>${text.heading}</h2>`);
    expect(article?.body).toMatch(new RegExp(`<ul><li><p>${text.item}</p></li></ul>`));
    expect(article?.body).toContain('href="https://ucsi.example/parking"');
    expect(article?.body).toMatch(/<img src="\/v1\/api\/public\/content-images\/[0-9a-f]{32}"/);
  }
});

test("a stored article full of XSS payloads opens with no script running", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const payloads = XSS_PAYLOADS.filter((payload) => !payload.includes("\u0000"))
    .map((payload) => payload.replace(/alert\([^)]*\)/g, "window.__xss=1"))
    .join("\n");
  const { id } = await post<{ id: number }>("/api/help-articles", {
    category: "account",
    titleEn: "Payload gallery",
    titleZh: "载荷集合",
    bodyEn: `<p>Readable text</p>${payloads}`,
    bodyZh: `<p>可读文字</p>${payloads}`,
  });
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/content-details/${id}`);
  await expect(
    page.getByRole("region", { name: "English" }).getByText("Readable text"),
  ).toBeVisible();
  await page
    .getByRole("link", { name: /click|hover|overlay|opener/ })
    .first()
    .hover()
    .catch(() => {});
  await page.waitForTimeout(500);
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
  ).toBeUndefined();
  expect(dialogs).toEqual([]);
  // The editor draws the same stored body through its schema: nothing runs there either.
  await page.goto(`${server.url}/content-mgmt?id=create-edit-help-centre-editor&article=${id}`);
  await expect(page.getByRole("textbox", { name: "Body (English)" })).toContainText(
    "Readable text",
  );
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
  ).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("an announcement past its expiry shows as expired; an expiry before publish is refused", async ({
  page,
}) => {
  const now = Date.now();
  const { id } = await post<{ id: number }>("/api/merchant-announcements", {
    titleEn: "Card terminal swap today",
    titleZh: "今日更换刷卡机",
    bodyEn: "<p>Terminals are swapped until noon.</p>",
    bodyZh: "<p>中午前更换刷卡机。</p>",
    audience: "all",
    publishAt: new Date(now - 60_000).toISOString(),
    expiresAt: new Date(now + 3_600_000).toISOString(),
  });
  await logIn(page, server.url, superAdmin.email, superAdmin.password);
  await page.goto(`${server.url}/merchant-announcement/${id}`);
  const details = page.locator(".ant-descriptions");
  await expect(details.getByText("Live", { exact: true })).toBeVisible();
  const live = async () =>
    (
      (await (await fetch(`${server.url}/v1/api/public/merchant-announcements`)).json()) as {
        announcements: Array<{ id: number }>;
      }
    ).announcements.map((a) => a.id);
  expect(await live()).toContain(id);

  // Its hour passes: the expiry is moved to a second ago in the database (the state is read
  // from the dates at each request, so nothing else needs to happen for it to show as expired).
  await withDatabase(server.dataDir, (client) =>
    client.query(
      `update merchant_announcements set expires_at = now() - interval '1 second' where id = $1`,
      [id],
    ),
  );
  await expect
    .poll(
      async () => {
        await page.reload();
        return details
          .getByText("Expired", { exact: true })
          .waitFor({ timeout: 4_000 })
          .then(
            () => true,
            () => false,
          );
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(true);
  expect(await live()).not.toContain(id);

  // The list shows it among the expired ones.
  await page.goto(`${server.url}/merchant-announcement`);
  const row = page
    .locator(".ant-table-row")
    .filter({ hasText: "Card terminal swap today" })
    .first();
  await expect(row.getByText("Expired", { exact: true })).toBeVisible();

  // Editing it to expire before it is published is refused, under the input.
  await page.goto(`${server.url}/merchant-announcement/${id}/edit`);
  const expiry = page.getByLabel("Expires at");
  await expiry.click();
  await expiry.fill("2020-01-01 10:00");
  await expiry.press("Enter");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Expires at must be after Publish at.")).toBeVisible();
  await expect(page).toHaveURL(/\/edit$/);
});
