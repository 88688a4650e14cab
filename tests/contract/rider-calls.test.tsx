/**
 * The rider calls of the user detail page, as they cross the wire (msw): details, verification,
 * the multipart edit with documents, attendance and document downloads; the checks the browser
 * makes before any request; and the server's refusals in the staff's language.
 */
import dayjs from "dayjs";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it } from "vitest";

import cnRiders from "../../locales/cn-ZH/riders.json";
import enRiders from "../../locales/en-US/riders.json";
import { dataProvider } from "../../src/providers/data";
import { ApiError } from "../../src/providers/errors";
import { setToken } from "../../src/providers/session";
import { downloadFile } from "../../src/app/components/download";
import { riderErrorNotification, riderErrorText } from "../../src/resources/users/rider/errors";
import {
  attendanceRangeProblem,
  defaultAttendanceRange,
  documentProblem,
  RIDER_ATTENDANCE_URL,
  RIDER_DETAILS_URL,
  RIDER_EDIT_URL,
  RIDER_VERIFICATION_URL,
  riderAttendanceQuery,
  riderDetailsQuery,
  riderEditForm,
  riderVerificationBody,
} from "../../src/resources/users/rider/requests";
import { DOCUMENT_MAX_BYTES } from "../../src/shared/riders";
import { aToken } from "./support/fixtures";
import { initErrorTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

beforeAll(async () => {
  await initErrorTexts("en-US");
  i18next.addResourceBundle("en-US", "riders", enRiders);
  i18next.addResourceBundle("cn-ZH", "riders", cnRiders);
});

const ok = () => HttpResponse.json({});
const last = () => requests.at(-1)!;
const params = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
const coded = (status: number, code: string, message: string) => () =>
  HttpResponse.json({ code, message }, { status });

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("rider details", () => {
  it("asks GET /user-mgmt/get-rider-details with the account number and user_type=rider", async () => {
    server.use(mswHttp.get(`${API}${RIDER_DETAILS_URL}`, ok));
    setToken(aToken());
    await dataProvider.custom!({
      url: RIDER_DETAILS_URL,
      method: "get",
      query: riderDetailsQuery("R-0001"),
    });
    expect(new URL(last().url).pathname).toBe("/v1/user-mgmt/get-rider-details");
    expect(params(last())).toEqual({ account_number: "R-0001", user_type: "rider" });
    expect(last().headers.get("authorization")).toMatch(/^eyJ/);
  });
});

describe("rider verification", () => {
  it("posts an approval with its remark", async () => {
    server.use(mswHttp.post(`${API}${RIDER_VERIFICATION_URL}`, ok));
    await dataProvider.custom!({
      url: RIDER_VERIFICATION_URL,
      method: "post",
      payload: riderVerificationBody("R-0001", "Approved", "  Documents checked "),
    });
    expect(await last().json()).toEqual({
      account_number: "R-0001",
      action: "Approved",
      remarks: "Documents checked",
    });
  });

  it("leaves an empty remark out of an approval and keeps it on a rejection", () => {
    expect(riderVerificationBody("R-1", "Approved", "  ")).toEqual({
      account_number: "R-1",
      action: "Approved",
    });
    expect(riderVerificationBody("R-1", "Rejected", " Blurred licence ")).toEqual({
      account_number: "R-1",
      action: "Rejected",
      remarks: "Blurred licence",
    });
  });

  it("explains 409 ALREADY_DECIDED in both languages", async () => {
    server.use(
      mswHttp.post(
        `${API}${RIDER_VERIFICATION_URL}`,
        coded(409, "ALREADY_DECIDED", "This rider's verification was already decided (Approved)"),
      ),
    );
    const error = await failureOf(
      dataProvider.custom!({
        url: RIDER_VERIFICATION_URL,
        method: "post",
        payload: riderVerificationBody("R-1", "Approved", ""),
      }),
    );
    expect(riderErrorText(error, t)).toBe(enRiders.errors.ALREADY_DECIDED);
    const notification = riderErrorNotification(t, "Failed")(error);
    expect(notification).toMatchObject({
      type: "error",
      description: enRiders.errors.ALREADY_DECIDED,
    });
    await i18next.changeLanguage("cn-ZH");
    expect(riderErrorText(error, t)).toBe(cnRiders.errors.ALREADY_DECIDED);
    await i18next.changeLanguage("en-US");
  });

  it("leaves uncoded failures to the central handler", () => {
    const error = new ApiError({ kind: "message", message: "Boom", statusCode: 500 });
    expect(riderErrorNotification(t, "Failed")(error)).toBe(false);
  });
});

describe("editing a rider", () => {
  const values = { vehicle_type: "car", plate: " WA 1234 ", licence_number: "D1234" } as const;

  it("posts a multipart form with the fields and each file under documents", async () => {
    server.use(mswHttp.post(`${API}${RIDER_EDIT_URL}`, ok));
    const pdf = new File(["%PDF-1.4 test"], "licence.pdf", { type: "application/pdf" });
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "photo.png", {
      type: "image/png",
    });
    await dataProvider.custom!({
      url: RIDER_EDIT_URL,
      method: "post",
      payload: riderEditForm("R-0001", values, [pdf, png]),
    });
    expect(last().headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const form = await last().formData();
    expect(form.get("account_number")).toBe("R-0001");
    expect(form.get("vehicle_type")).toBe("car");
    expect(form.get("plate")).toBe("WA 1234");
    expect(form.get("licence_number")).toBe("D1234");
    // jsdom's XHR drops the files' names and bytes on the way to msw (a browser keeps them: the
    // e2e story uploads a real PDF); the form still carries one `documents` part per file.
    expect(form.getAll("documents")).toHaveLength(2);
    const sent = riderEditForm("R-0001", values, [pdf, png]);
    expect((sent.getAll("documents") as File[]).map((file) => file.name)).toEqual([
      "licence.pdf",
      "photo.png",
    ]);
  });

  it("refuses in the browser a wrong type, a file over 5 MB, an empty file and a sixth file", () => {
    const pdf = new File(["%PDF"], "a.pdf", { type: "application/pdf" });
    expect(documentProblem(pdf, 0)).toBeUndefined();
    expect(documentProblem(new File(["x"], "a.jpg", { type: "" }), 0)).toBeUndefined();
    expect(documentProblem(new File(["x"], "notes.txt", { type: "text/plain" }), 0)).toBe("type");
    expect(documentProblem(new File(["x"], "a.gif", { type: "image/gif" }), 0)).toBe("type");
    const big = new File([new Uint8Array(DOCUMENT_MAX_BYTES + 1)], "big.pdf", {
      type: "application/pdf",
    });
    expect(documentProblem(big, 0)).toBe("size");
    expect(documentProblem(new File([], "empty.pdf", { type: "application/pdf" }), 0)).toBe(
      "empty",
    );
    expect(documentProblem(pdf, 5)).toBe("count");
    expect(t("riders:file.type", { name: "notes.txt" })).toBe(
      '"notes.txt" is not a PDF, JPEG or PNG file.',
    );
  });

  it.each([
    [413, "DOCUMENT_TOO_LARGE", enRiders.errors.DOCUMENT_TOO_LARGE],
    [400, "INVALID_DOCUMENT_TYPE", enRiders.errors.INVALID_DOCUMENT_TYPE],
    [400, "TOO_MANY_DOCUMENTS", enRiders.errors.TOO_MANY_DOCUMENTS],
  ])("translates the server's %i %s", async (status, code, text) => {
    server.use(mswHttp.post(`${API}${RIDER_EDIT_URL}`, coded(status, code, "server text")));
    const error = await failureOf(
      dataProvider.custom!({
        url: RIDER_EDIT_URL,
        method: "post",
        payload: riderEditForm("R-1", values, []),
      }),
    );
    expect(riderErrorText(error, t)).toBe(text);
  });
});

describe("attendance", () => {
  it("asks GET /user-mgmt/rider-attendance with YYYY-MM-DD dates", async () => {
    server.use(mswHttp.get(`${API}${RIDER_ATTENDANCE_URL}`, ok));
    await dataProvider.custom!({
      url: RIDER_ATTENDANCE_URL,
      method: "get",
      query: riderAttendanceQuery("R-0001", dayjs("2026-01-05"), dayjs("2026-02-04")),
    });
    expect(params(last())).toEqual({
      account_number: "R-0001",
      start_date: "2026-01-05",
      end_date: "2026-02-04",
    });
  });

  it("defaults to the last 30 days, today included", () => {
    const [start, end] = defaultAttendanceRange(dayjs("2026-03-31T15:00:00"));
    expect(start.format("YYYY-MM-DD")).toBe("2026-03-02");
    expect(end.format("YYYY-MM-DD")).toBe("2026-03-31");
    expect(attendanceRangeProblem([start, end])).toBeUndefined();
  });

  it("refuses an end before the start, more than 366 days and a missing end", () => {
    expect(attendanceRangeProblem([dayjs("2026-02-10"), dayjs("2026-02-09")])).toBe(
      "endBeforeStart",
    );
    expect(attendanceRangeProblem([dayjs("2025-01-01"), dayjs("2026-01-01")])).toBeUndefined();
    expect(attendanceRangeProblem([dayjs("2024-01-01"), dayjs("2025-01-01")])).toBe("tooLong");
    expect(attendanceRangeProblem([dayjs("2026-01-01"), null])).toBe("required");
    expect(t("riders:attendance.endBeforeStart")).toBe(
      "The end date cannot be before the start date.",
    );
  });
});

describe("document download", () => {
  it("fetches the file with the session's Authorization header and saves it", async () => {
    const token = aToken();
    setToken(token);
    server.use(
      mswHttp.get(
        `${API}/user-mgmt/rider-document`,
        () =>
          new HttpResponse("%PDF-1.4", {
            headers: { "content-type": "application/pdf" },
          }),
      ),
    );
    const created: Blob[] = [];
    const clicks: string[] = [];
    URL.createObjectURL = (blob: Blob) => {
      created.push(blob);
      return "blob:test";
    };
    URL.revokeObjectURL = () => undefined;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    };
    try {
      await downloadFile(
        "/user-mgmt/rider-document?account_number=R-1&document_id=abc",
        "licence.pdf",
      );
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    expect(params(last())).toEqual({ account_number: "R-1", document_id: "abc" });
    expect(last().headers.get("authorization")).toBe(token);
    expect(created).toHaveLength(1);
    expect(await created[0]!.text()).toBe("%PDF-1.4");
    expect(clicks).toEqual(["licence.pdf"]);
  });
});
