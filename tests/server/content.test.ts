/**
 * Content Management (12) and Merchant Announcement (16) through HTTP on a real database: the
 * editor's create and edit, publish / unpublish, reorder, image uploads, the public reads with
 * their ETag, the announcement states from the dates, and bad input refused with nothing changed.
 */
import { describe, expect, it } from "vitest";

import { BODY_MAX_BYTES } from "../../src/shared/modules/content";
import { createAdmin, DEMO, login, useSignedInApp } from "./support/app";
import { auditEntries, call, expectError, expectNoPermission } from "./support/user-fixtures";

const suite = useSignedInApp();
const DAY = 86_400_000;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

const article = (overrides: Record<string, unknown> = {}) => ({
  category: "parking",
  titleEn: "Where to park at night",
  titleZh: "夜间停车地点",
  bodyEn: "<h2>Night</h2><ul><li>Block D</li></ul>",
  bodyZh: "<h2>夜间</h2><ul><li>D 座</li></ul>",
  ...overrides,
});

/** A multipart body with one file part. */
function multipart(field: string, filename: string, type: string, content: Buffer) {
  const boundary = "----content-test-boundary";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

async function upload(token: string, field: string, type: string, content: Buffer) {
  const { payload, headers } = multipart(field, "picture.png", type, content);
  return suite.app.inject({
    method: "POST",
    url: "/v1/api/help-articles/images",
    headers: { ...headers, authorization: token },
    payload,
  });
}

async function publicArticles(lang: string, headers: Record<string, string> = {}) {
  return suite.app.inject({
    method: "GET",
    url: `/v1/api/public/help-articles?lang=${lang}`,
    headers,
  });
}

describe("help articles", () => {
  it("creates a draft at the end of its category, with its audit entry", async () => {
    const response = await call(suite.app, suite.token, "POST", "/api/help-articles", article());
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json<{ id: number; status: string; position: number }>();
    expect(created.status).toBe("draft");
    const list = await call(
      suite.app,
      suite.token,
      "GET",
      `/api/help-articles/aggregation?filter=${encodeURIComponent('{"category":"parking"}')}&pagination=${encodeURIComponent('{"page":1,"pageSize":100}')}`,
    );
    const positions = list
      .json<{ helpArticles: Array<{ id: number; position: number }> }>()
      .helpArticles.map((row) => row.position);
    expect(created.position).toBe(Math.max(...positions));
    const [entry] = await auditEntries(suite.testDb.database.db, "help_articles", created.id);
    expect(entry).toMatchObject({ action: "help_article.create" });
  });

  it("searches titles in both languages", async () => {
    for (const term of ["park at night", "夜间停车"]) {
      const response = await call(
        suite.app,
        suite.token,
        "GET",
        `/api/help-articles/aggregation?filter=${encodeURIComponent(JSON.stringify({ $search: term }))}`,
      );
      const rows = response.json<{ helpArticles: Array<{ titleEn: string }> }>().helpArticles;
      expect(rows.map((row) => row.titleEn)).toContain("Where to park at night");
    }
  });

  it("publishes, serves it publicly in each language with an ETag, and takes it back", async () => {
    const { id } = (
      await call(
        suite.app,
        suite.token,
        "POST",
        "/api/help-articles",
        article({ titleEn: "Gate B hours" }),
      )
    ).json<{ id: number }>();
    const before = await publicArticles("en-US");
    expect(before.statusCode).toBe(200);
    const etag = String(before.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(before.headers["cache-control"]).toContain("public");
    expect((await publicArticles("en-US", { "if-none-match": etag })).statusCode).toBe(304);

    const published = await call(
      suite.app,
      suite.token,
      "POST",
      `/api/help-articles/${id}/publish`,
    );
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toMatchObject({ status: "published" });
    expectError(
      await call(suite.app, suite.token, "POST", `/api/help-articles/${id}/publish`),
      409,
      "ALREADY_PUBLISHED",
    );

    // The old ETag no longer matches: the client gets the new list.
    const after = await publicArticles("en-US", { "if-none-match": etag });
    expect(after.statusCode).toBe(200);
    const english = after.json<{ articles: Array<{ id: number; title: string; body: string }> }>();
    expect(english.articles.find((a) => a.id === id)).toMatchObject({
      title: "Gate B hours",
      body: "<h2>Night</h2><ul><li>Block D</li></ul>",
    });
    const chinese = (await publicArticles("cn-ZH")).json<{
      articles: Array<{ id: number; title: string }>;
    }>();
    expect(chinese.articles.find((a) => a.id === id)?.title).toBe("夜间停车地点");
    // Published only, in the help centre's order of categories.
    const categories = english.articles.map((a) => (a as unknown as { category: string }).category);
    expect(categories.indexOf("parking")).toBeGreaterThan(categories.lastIndexOf("top_up"));

    await call(suite.app, suite.token, "POST", `/api/help-articles/${id}/unpublish`);
    const gone = (await publicArticles("en-US")).json<{ articles: Array<{ id: number }> }>();
    expect(gone.articles.map((a) => a.id)).not.toContain(id);
    const entries = await auditEntries(suite.testDb.database.db, "help_articles", id);
    expect(entries.map((e) => e.action)).toEqual([
      "help_article.unpublish",
      "help_article.publish",
      "help_article.create",
    ]);
  });

  it("refuses an unknown language with 400", async () => {
    expect((await publicArticles("fr")).statusCode).toBe(400);
  });

  it("moves an article up and down within its category only", async () => {
    const ids: number[] = [];
    for (const title of ["First", "Second"]) {
      const response = await call(
        suite.app,
        suite.token,
        "POST",
        "/api/help-articles",
        article({ category: "refunds", titleEn: title }),
      );
      ids.push(response.json<{ id: number }>().id);
    }
    const [first, second] = ids as [number, number];
    const moved = await call(suite.app, suite.token, "POST", `/api/help-articles/${second}/move`, {
      direction: "up",
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const read = async (id: number) =>
      (await call(suite.app, suite.token, "GET", `/api/help-articles/${id}`)).json<{
        position: number;
      }>().position;
    expect(await read(second)).toBeLessThan(await read(first));
    expectError(
      await call(suite.app, suite.token, "POST", `/api/help-articles/${first}/move`, {
        direction: "down",
      }),
      409,
      "NO_NEIGHBOUR",
    );
    expect(
      (
        await call(suite.app, suite.token, "POST", `/api/help-articles/${first}/move`, {
          direction: "sideways",
        })
      ).statusCode,
    ).toBe(400);
  });

  it("refuses an empty title and a body over 200 kB, changing nothing", async () => {
    const { id } = (
      await call(suite.app, suite.token, "POST", "/api/help-articles", article())
    ).json<{ id: number }>();
    const before = (await call(suite.app, suite.token, "GET", `/api/help-articles/${id}`)).json();
    const huge = `<p>${"a".repeat(BODY_MAX_BYTES)}</p>`;
    for (const body of [
      article({ titleEn: "   " }),
      article({ titleZh: "" }),
      article({ bodyEn: huge }),
      article({ bodyZh: "" }),
    ]) {
      const response = await call(
        suite.app,
        suite.token,
        "PATCH",
        `/api/help-articles/${id}`,
        body,
      );
      expectError(response, 400, "VALIDATION_ERROR");
    }
    const tooLarge = await call(
      suite.app,
      suite.token,
      "POST",
      "/api/help-articles",
      article({ bodyZh: huge }),
    );
    expect(tooLarge.json<{ message: string }>().message).toContain("200 kB");
    expect((await call(suite.app, suite.token, "GET", `/api/help-articles/${id}`)).json()).toEqual(
      before,
    );
  });

  it("edits both languages, cleaning the body again", async () => {
    const { id } = (
      await call(suite.app, suite.token, "POST", "/api/help-articles", article())
    ).json<{ id: number }>();
    const response = await call(
      suite.app,
      suite.token,
      "PATCH",
      `/api/help-articles/${id}`,
      article({ bodyEn: '<p onclick="x()">Edited <a href="javascript:x()">here</a></p>' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ bodyEn: string }>().bodyEn).toBe(
      '<p>Edited <a target="_blank" rel="noopener noreferrer nofollow">here</a></p>',
    );
  });

  it("uploads an image, serves it without a session, and refuses what is not an image", async () => {
    const response = await upload(suite.token, "image", "image/png", PNG);
    expect(response.statusCode, response.body).toBe(201);
    const { src } = response.json<{ src: string }>();
    expect(src).toMatch(/^\/v1\/api\/public\/content-images\/[0-9a-f]{32}$/);
    const served = await suite.app.inject({ method: "GET", url: src });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(PNG)).toBe(true);

    // Its source survives the sanitiser.
    const created = await call(
      suite.app,
      suite.token,
      "POST",
      "/api/help-articles",
      article({ bodyEn: `<p><img src="${src}" alt="map"></p>` }),
    );
    expect(created.json<{ bodyEn: string }>().bodyEn).toContain(`src="${src}"`);

    const html = Buffer.from("<html><script>alert(1)</script></html>");
    expectError(await upload(suite.token, "image", "image/png", html), 400, "INVALID_IMAGE");
    expectError(
      await upload(
        suite.token,
        "image",
        "image/png",
        Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]),
      ),
      413,
      "IMAGE_TOO_LARGE",
    );
    expectError(await upload(suite.token, "file", "image/png", PNG), 400, "INVALID_IMAGE");
    expect(
      (
        await suite.app.inject({
          method: "GET",
          url: "/v1/api/public/content-images/" + "0".repeat(32),
        })
      ).statusCode,
    ).toBe(404);
  });

  it("needs Content Management (12) for changes and uploads", async () => {
    const { token } = await createAdmin(suite.app, suite.token, [16]);
    expectNoPermission(
      await call(suite.app, token, "POST", "/api/help-articles/1/publish"),
      "POST",
      "Help Article",
    );
    expectNoPermission(
      await upload(token, "image", "image/png", PNG),
      "POST",
      "Help Article Image",
    );
    expect((await publicArticles("en-US")).statusCode).toBe(200);
  });
});

describe("merchant announcements", () => {
  const announcement = (overrides: Record<string, unknown> = {}) => ({
    titleEn: "Card terminals",
    titleZh: "刷卡机",
    bodyEn: "<p>New terminals arrive on Monday.</p>",
    bodyZh: "<p>新刷卡机周一到货。</p>",
    audience: "all",
    publishAt: new Date(Date.now() - DAY).toISOString(),
    expiresAt: new Date(Date.now() + DAY).toISOString(),
    ...overrides,
  });
  const create = (overrides: Record<string, unknown> = {}) =>
    call(suite.app, suite.token, "POST", "/api/merchant-announcements", announcement(overrides));
  const live = async (query = "") =>
    (
      await suite.app.inject({
        method: "GET",
        url: `/v1/api/public/merchant-announcements${query}`,
      })
    )
      .json<{ announcements: Array<{ id: number }> }>()
      .announcements.map((a) => a.id);

  it("derives the state from the dates, and serves only the live ones publicly", async () => {
    const ids: Record<string, number> = {};
    for (const [state, publishAt, expiresAt] of [
      ["live", -DAY, DAY],
      ["scheduled", DAY, 2 * DAY],
      ["expired", -2 * DAY, -DAY],
    ] as const) {
      const response = await create({
        titleEn: `State ${state}`,
        publishAt: new Date(Date.now() + publishAt).toISOString(),
        expiresAt: new Date(Date.now() + expiresAt).toISOString(),
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ state });
      ids[state] = response.json<{ id: number }>().id;
    }
    const publicIds = await live();
    expect(publicIds).toContain(ids.live);
    // Staff's facts are not the merchant app's: who wrote it, its state, its version.
    const answer = await suite.app.inject({ url: "/v1/api/public/merchant-announcements" });
    const [first] = answer.json<{ announcements: Array<Record<string, unknown>> }>().announcements;
    expect(Object.keys(first!)).toEqual(expect.arrayContaining(["id", "titleEn"]));
    for (const staffOnly of ["authorId", "authorName", "state", "version"]) {
      expect(first).not.toHaveProperty(staffOnly);
    }
    expect(publicIds).not.toContain(ids.scheduled);
    expect(publicIds).not.toContain(ids.expired);
    const expired = await call(
      suite.app,
      suite.token,
      "GET",
      `/api/merchant-announcements/aggregation?filter=${encodeURIComponent('{"state":"expired"}')}&pagination=${encodeURIComponent('{"page":1,"pageSize":100}')}`,
    );
    const rows = expired.json<{ merchantAnnouncements: Array<{ id: number; state: string }> }>();
    expect(rows.merchantAnnouncements.map((r) => r.id)).toContain(ids.expired);
    expect(rows.merchantAnnouncements.every((r) => r.state === "expired")).toBe(true);
  });

  it("serves a category's announcements to its merchants only, pinned first", async () => {
    const canteen = (
      await create({ titleEn: "For canteens", audience: "categories", categories: ["canteen"] })
    ).json<{ id: number }>().id;
    const pinned = (await create({ titleEn: "Pinned", pinned: true })).json<{ id: number }>().id;
    expect(await live("?category=canteen")).toContain(canteen);
    expect(await live("?category=laundry")).not.toContain(canteen);
    expect((await live("?category=laundry"))[0]).toBe(pinned);
  });

  it("refuses an expiry before the publish date and a category audience without categories", async () => {
    const before = await live();
    expectError(
      await create({
        publishAt: new Date(Date.now() + DAY).toISOString(),
        expiresAt: new Date(Date.now()).toISOString(),
      }),
      400,
      "VALIDATION_ERROR",
    );
    expectError(await create({ audience: "categories", categories: [] }), 400, "VALIDATION_ERROR");
    expectError(await create({ titleEn: "" }), 400, "VALIDATION_ERROR");
    expect(await live()).toEqual(before);
  });

  it("edits an announcement, clearing its expiry when the form leaves it out", async () => {
    const { id } = (await create()).json<{ id: number }>();
    const edited = await call(
      suite.app,
      suite.token,
      "PATCH",
      `/api/merchant-announcements/${id}`,
      announcement({ expiresAt: undefined, bodyEn: "<p>Changed<script>x()</script></p>" }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      expiresAt: null,
      bodyEn: "<p>Changed</p>",
      state: "live",
    });
  });

  it("needs Announcement (16)", async () => {
    const token = (await login(suite.app, DEMO.finance)).token;
    expectNoPermission(
      await call(suite.app, token, "POST", "/api/merchant-announcements", announcement()),
      "POST",
      "Merchant Announcement",
    );
  });
});
