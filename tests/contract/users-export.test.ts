/**
 * The User list's CSV export: every page of the current filter and sort, 100 per request
 * through the data provider's getList, capped; CSV with a BOM, escaped, formula-safe.
 */
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeEach, describe, expect, it } from "vitest";

import cnUsers from "../../locales/cn-ZH/users.json";
import enUsers from "../../locales/en-US/users.json";
import type { UserDto } from "../../src/providers/api-types";
import { setToken } from "../../src/providers/session";
import {
  csvCell,
  EXPORT_MAX_ROWS,
  exportFileName,
  fetchAllUsers,
  toCsv,
  userCsvColumns,
} from "../../src/resources/users/export/csv";
import { aToken } from "./support/fixtures";
import { API, jsonParam, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();
beforeEach(() => setToken(aToken()));

function aUser(id: number, overrides: Partial<UserDto> = {}): UserDto {
  return {
    id,
    accountNumber: `A${String(id).padStart(7, "0")}`,
    name: `User ${id}`,
    email: `u${id}@ucsi.example`,
    phone: null,
    role: "student",
    approvalStatus: "approved",
    approvalRemark: null,
    isBanned: false,
    banRemark: null,
    isVip: false,
    url: null,
    lastActiveAt: null,
    createdAt: "2026-01-02T03:04:05.000Z",
    updatedAt: "2026-01-02T03:04:05.000Z",
    ...overrides,
  } as UserDto;
}

/**
 * A list of `total` users served page by page, as /api/users/aggregation does; with `countedUpTo`
 * the server stops counting there (`totalCountExact: false`), as the reference server does at 10,000.
 */
function serveUsers(total: number, countedUpTo = Infinity) {
  server.use(
    mswHttp.get(`${API}/api/users/aggregation`, ({ request }) => {
      const { page, pageSize: size } = jsonParam(request, "pagination") as {
        page: number;
        pageSize: number;
      };
      const from = (page - 1) * size;
      const users = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) =>
        aUser(from + i + 1),
      );
      const exact = total <= countedUpTo;
      return HttpResponse.json({
        totalCount: exact ? total : countedUpTo,
        users,
        totalCountExact: exact,
      });
    }),
  );
}

describe("fetching the filtered list", () => {
  it("asks 100 per request, every page, with the list's filters and sort", async () => {
    serveUsers(250);
    const progress: number[] = [];
    const result = await fetchAllUsers({
      filters: [{ field: "role", operator: "eq", value: "rider" }],
      sorters: [{ field: "name", order: "asc" }],
      onProgress: ({ done }) => progress.push(done),
    });
    expect(result.users).toHaveLength(250);
    expect(result.capped).toBe(false);
    expect(requests).toHaveLength(3);
    expect(progress).toEqual([100, 200, 250]);
    expect(requests.map((r) => jsonParam(r, "pagination"))).toEqual([
      { page: 1, pageSize: 100 },
      { page: 2, pageSize: 100 },
      { page: 3, pageSize: 100 },
    ]);
    for (const request of requests) {
      expect(new URL(request.url).pathname).toBe("/v1/api/users/aggregation");
      expect(JSON.stringify(jsonParam(request, "filter"))).toContain("rider");
      expect(JSON.stringify(jsonParam(request, "sort"))).toContain("name");
    }
  });

  it("stops at the cap and says how many matched", async () => {
    serveUsers(450);
    const result = await fetchAllUsers({ filters: [], sorters: [], max: 250 });
    expect(result.users).toHaveLength(250);
    expect(result).toMatchObject({ total: 450, capped: true });
    expect(requests).toHaveLength(3);
    expect(EXPORT_MAX_ROWS).toBe(10_000);
  });

  it("keeps fetching past a total the server only counted up to, and calls the export capped", async () => {
    serveUsers(450, 200);
    const against: number[] = [];
    const everything = await fetchAllUsers({
      filters: [],
      sorters: [],
      onProgress: ({ total }) => against.push(total),
    });
    expect(everything.users).toHaveLength(450);
    expect(against).toEqual([
      EXPORT_MAX_ROWS,
      EXPORT_MAX_ROWS,
      EXPORT_MAX_ROWS,
      EXPORT_MAX_ROWS,
      EXPORT_MAX_ROWS,
    ]);
    expect(everything).toMatchObject({ total: 200, totalExact: false, capped: true });
    requests.length = 0;
    const capped = await fetchAllUsers({ filters: [], sorters: [], max: 300 });
    expect(capped.users).toHaveLength(300);
    expect(capped.capped).toBe(true);
  });

  it("passes a failed page on", async () => {
    server.use(
      mswHttp.get(`${API}/api/users/aggregation`, () =>
        HttpResponse.json({ code: "INVALID_QUERY", message: "bad filter" }, { status: 400 }),
      ),
    );
    await expect(fetchAllUsers({ filters: [], sorters: [] })).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});

describe("the CSV", () => {
  it("escapes commas, quotes and line breaks, and defuses formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("Tan, Mei Ling")).toBe('"Tan, Mei Ling"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+60123456789")).toBe("'+60123456789");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("a=b")).toBe("a=b");
    // Spreadsheets trim leading blanks and take full-width signs for ASCII ones (issue 30).
    expect(csvCell(" =1+1")).toBe("' =1+1");
    expect(csvCell("＝1+1")).toBe("'＝1+1");
    expect(csvCell("＠SUM(A1)")).toBe("'＠SUM(A1)");
  });

  it("has a BOM, translated headers and values, CRLF lines; Chinese names intact", async () => {
    await i18next.init({
      lng: "cn-ZH",
      ns: ["users"],
      defaultNS: "users",
      resources: { "en-US": { users: enUsers }, "cn-ZH": { users: cnUsers } },
      interpolation: { escapeValue: false },
    });
    const t = i18next.getFixedT("cn-ZH", "users");
    const rows = [
      aUser(1, { name: "陈美玲", isVip: true, role: "rider" }),
      aUser(2, { name: "=cmd|' /C calc'!A0", email: null, url: "https://a.example/?q=1,2" }),
    ];
    const csv = toCsv(
      rows,
      userCsvColumns((key, options) => String(t(key, options))),
    );
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const lines = csv.slice(1).split("\r\n");
    expect(lines[0]!.split(",")).toHaveLength(11);
    expect(lines[0]).toContain(String(t("fields.name")));
    expect(lines[1]).toContain("陈美玲");
    expect(lines[1]).toContain(String(t("role.rider")));
    expect(lines[1]).toContain(`${String(t("export.no"))},${String(t("export.yes"))}`);
    expect(lines[2]).toContain("'=cmd|' /C calc'!A0");
    expect(lines[2]).toContain('"https://a.example/?q=1,2"');
    expect(lines[3]).toBe("");
  });

  it("is named users-YYYY-MM-DD.csv", () => {
    expect(exportFileName(new Date(2026, 0, 5, 23, 59))).toBe("users-2026-01-05.csv");
  });
});
