/**
 * The text rule and the one-file rule where issue 30 found them missing: a bidirectional control
 * (the right-to-left override spoof) is refused in article, announcement and notification bodies
 * and in rider document file names as it is in titles, and never reaches a download's
 * Content-Disposition; an upload that takes one file refuses a second instead of dropping it.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { contentImages, riderDocumentFiles, riders, users } from "../../server/db/schema";
import { contentDisposition } from "../../server/uploads/http";
import { auth, useSignedInApp } from "./support/app";
import { call, expectError } from "./support/user-fixtures";

const suite = useSignedInApp();
const db = () => suite.testDb.database.db;

const RLO = "\u202e";
const BIDI_MESSAGE = "Text must not contain bidirectional override or isolate characters";
/** The bidirectional controls, as the rule lists them. */
const BIDI_CONTROLS = [
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
];

const article = (overrides: Record<string, unknown> = {}) => ({
  category: "parking",
  titleEn: "Where to park",
  titleZh: "停车地点",
  bodyEn: "<p>Block D</p>",
  bodyZh: "<p>D 座</p>",
  ...overrides,
});
const announcement = (overrides: Record<string, unknown> = {}) => ({
  titleEn: "Card terminals",
  titleZh: "刷卡机",
  bodyEn: "<p>New terminals arrive on Monday.</p>",
  bodyZh: "<p>新刷卡机周一到货。</p>",
  audience: "all",
  publishAt: new Date(Date.now() - 86_400_000).toISOString(),
  ...overrides,
});
const notification = (overrides: Record<string, unknown> = {}) => ({
  titleEn: "Library closes early",
  titleZh: "图书馆提早关闭",
  bodyEn: "The library closes at 6 pm.",
  bodyZh: "图书馆下午六点关闭。",
  audience: ["student"],
  sendAt: new Date(Date.now() + 3_600_000).toISOString(),
  ...overrides,
});

/** The refusal a title gets, for `field`. */
function expectRefusedAsTitle(response: Parameters<typeof expectError>[0], field: string) {
  const body = expectError(response, 400, "VALIDATION_ERROR") as unknown as {
    message: string;
    data: { issues: Array<{ path: string; message: string }> };
  };
  expect(body.message).toBe(`Invalid ${field}: ${BIDI_MESSAGE}`);
  expect(body.data.issues[0]).toEqual({ path: field, message: BIDI_MESSAGE });
}

describe("bidirectional controls in bodies", () => {
  it("are refused in a title (the rule the bodies follow)", async () => {
    const response = await call(suite.app, suite.token, "POST", "/api/help-articles", {
      ...article({ titleEn: `Invoice ${RLO}fdp.exe` }),
    });
    expectRefusedAsTitle(response, "titleEn");
  });

  it("are refused in a help article's body, typed or as an entity, on create and edit", async () => {
    for (const [field, body] of [
      ["bodyEn", `<p>Pay at ${RLO}ratnuoc</p>`],
      ["bodyEn", "<p>Pay at &#x202E;ratnuoc</p>"],
      ["bodyZh", "<p>付款 &#8238;ratnuoc</p>"],
      ["bodyEn", '<p><a href="https://example.com">x&#X202e;y</a></p>'],
      [
        "bodyEn",
        `<p><img src="/v1/api/public/content-images/${"a".repeat(32)}" alt="a${RLO}b"></p>`,
      ],
      ...BIDI_CONTROLS.map((control) => ["bodyZh", `<p>a${control}b</p>`]),
    ] as const) {
      const response = await call(
        suite.app,
        suite.token,
        "POST",
        "/api/help-articles",
        article({ [field]: body }),
      );
      expectRefusedAsTitle(response, field);
    }
    const created = await call(suite.app, suite.token, "POST", "/api/help-articles", article());
    expect(created.statusCode, created.body).toBe(201);
    const { id, bodyEn } = created.json<{ id: number; bodyEn: string }>();
    const edited = await call(
      suite.app,
      suite.token,
      "PATCH",
      `/api/help-articles/${id}`,
      article({ bodyEn: `<p>${RLO}</p>` }),
    );
    expectRefusedAsTitle(edited, "bodyEn");
    const after = await call(suite.app, suite.token, "GET", `/api/help-articles/${id}`);
    expect(after.json<{ bodyEn: string }>().bodyEn).toBe(bodyEn);
  });

  it("are refused in a merchant announcement's body", async () => {
    for (const field of ["bodyEn", "bodyZh"]) {
      const response = await call(
        suite.app,
        suite.token,
        "POST",
        "/api/merchant-announcements",
        announcement({ [field]: `<p>Terminal ${RLO}lanimret</p>` }),
      );
      expectRefusedAsTitle(response, field);
    }
    const fine = await call(
      suite.app,
      suite.token,
      "POST",
      "/api/merchant-announcements",
      announcement(),
    );
    expect(fine.statusCode, fine.body).toBe(201);
  });

  it("are refused in an app notification's plain body", async () => {
    for (const field of ["bodyEn", "bodyZh"]) {
      const response = await call(
        suite.app,
        suite.token,
        "POST",
        "/api/app-notifications",
        notification({ [field]: `Closes ${RLO}mp 6` }),
      );
      expectRefusedAsTitle(response, field);
    }
  });
});

describe("bidirectional controls in rider document names", () => {
  const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(100, 0x20)]);
  const ACCOUNT = "RT0030001";
  let riderId = 0;

  beforeAll(async () => {
    const [user] = await db()
      .insert(users)
      .values({ accountNumber: ACCOUNT, name: "Rider Bidi", role: "rider" })
      .returning();
    riderId = user!.id;
    await db().insert(riders).values({
      userId: riderId,
      vehicleType: "motorcycle",
      plate: "WA 1234",
      licenceNumber: "D12345678",
    });
  });

  async function editRider(fileName: string) {
    const form = new FormData();
    form.append("account_number", ACCOUNT);
    form.append("vehicle_type", "motorcycle");
    form.append("plate", "WA 1234");
    form.append("licence_number", "D12345678");
    form.append(
      "documents",
      new Blob([new Uint8Array(PDF)], { type: "application/pdf" }),
      fileName,
    );
    const encoded = new Response(form);
    return suite.app.inject({
      method: "POST",
      url: "/v1/user-mgmt/edit-rider-details",
      headers: { ...auth(suite.token), "content-type": encoded.headers.get("content-type")! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
  }

  /** The rider's document list (stored documents have ids). */
  async function storedDocuments() {
    const [row] = await db()
      .select({ documents: riders.documents })
      .from(riders)
      .where(eq(riders.userId, riderId));
    return row!.documents as Array<{ id?: string; fileName: string }>;
  }

  it("refuses an upload whose file name holds one, with the title's words, storing nothing", async () => {
    for (const control of BIDI_CONTROLS) {
      const body = expectError(
        await editRider(`invoice${control}fdp.exe.pdf`),
        400,
        "VALIDATION_ERROR",
      );
      expect(body.message).toBe(
        "Invalid documents: File name must not contain bidirectional override or isolate characters",
      );
    }
    expect(await storedDocuments()).toEqual([]);
    const fileCount = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(riderDocumentFiles)
      .where(eq(riderDocumentFiles.riderUserId, riderId));
    expect(fileCount[0]?.n).toBe(0);
  });

  it("never sends one in Content-Disposition, even for a name stored before", async () => {
    expect((await editRider("licence.pdf")).statusCode).toBe(200);
    const [document] = await storedDocuments();
    // A name stored before uploads refused them.
    await db().execute(sql`
      update riders set documents = jsonb_set(documents, '{0,fileName}',
        to_jsonb(${`invoice${RLO}fdp.exe.pdf`}::text))
      where user_id = ${riderId}`);
    const response = await suite.app.inject({
      method: "GET",
      url: `/v1/user-mgmt/rider-document?account_number=${ACCOUNT}&document_id=${document!.id}`,
      headers: auth(suite.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const header = String(response.headers["content-disposition"]);
    expect(header).toBe(
      "attachment; filename=\"invoicefdp.exe.pdf\"; filename*=UTF-8''invoicefdp.exe.pdf",
    );
    for (const control of BIDI_CONTROLS) {
      const disposition = contentDisposition(`a${control}b.pdf`);
      expect(decodeURIComponent(disposition)).not.toContain(control);
      expect(disposition).toContain("filename*=UTF-8''ab.pdf");
    }
  });
});

describe("an upload that takes one file", () => {
  const PNG = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  );

  /** A multipart form with the given fields and files, as a browser encodes it. */
  async function form(
    fields: Record<string, string>,
    files: Array<{ field: string; name: string; type: string; content: Buffer }>,
  ) {
    const data = new FormData();
    for (const [key, value] of Object.entries(fields)) data.append(key, value);
    for (const file of files) {
      data.append(
        file.field,
        new Blob([new Uint8Array(file.content)], { type: file.type }),
        file.name,
      );
    }
    const encoded = new Response(data);
    return {
      payload: Buffer.from(await encoded.arrayBuffer()),
      headers: { "content-type": encoded.headers.get("content-type")! },
    };
  }

  const imageCount = async () =>
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(contentImages)
    )[0]!.n;

  it("refuses two images in a one-image upload (400 TOO_MANY_FILES), storing neither", async () => {
    const before = await imageCount();
    for (const collection of ["help-articles", "merchant-announcements"]) {
      const { payload, headers } = await form({}, [
        { field: "image", name: "one.png", type: "image/png", content: PNG },
        { field: "image", name: "two.png", type: "image/png", content: PNG },
      ]);
      const response = await suite.app.inject({
        method: "POST",
        url: `/v1/api/${collection}/images`,
        headers: { ...headers, ...auth(suite.token) },
        payload,
      });
      const body = expectError(response, 400, "TOO_MANY_FILES");
      expect(body.message).toBe('Send one file only: the "image" field takes one file per upload');
    }
    expect(await imageCount()).toBe(before);
    // One image is still taken.
    const { payload, headers } = await form({}, [
      { field: "image", name: "one.png", type: "image/png", content: PNG },
    ]);
    const one = await suite.app.inject({
      method: "POST",
      url: "/v1/api/help-articles/images",
      headers: { ...headers, ...auth(suite.token) },
      payload,
    });
    expect(one.statusCode, one.body).toBe(201);
    expect(await imageCount()).toBe(before + 1);
  });

  it("refuses two files in a UCSI ID import the same way", async () => {
    const csv = Buffer.from("ucsi_id,type,account_number\r\n");
    const { payload, headers } = await form({ dryRun: "true" }, [
      { field: "file", name: "one.csv", type: "text/csv", content: csv },
      { field: "file", name: "two.csv", type: "text/csv", content: csv },
    ]);
    const response = await suite.app.inject({
      method: "POST",
      url: "/v1/api/ucsi-ids/import",
      headers: { ...headers, ...auth(suite.token) },
      payload,
    });
    const body = expectError(response, 400, "TOO_MANY_FILES");
    expect(body.message).toBe('Send one file only: the "file" field takes one file per upload');
  });
});
