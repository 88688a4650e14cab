/**
 * The rider calls of the user detail page, as they cross the wire (msw): details, verification,
 * the multipart edit with documents, attendance and document downloads; the checks the browser
 * makes before any request; and the server's refusals in the staff's language.
 */
import { Refine } from "@refinedev/core";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import dayjs from "dayjs";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import cnRiders from "../../locales/cn-ZH/riders.json";
import cnUsers from "../../locales/cn-ZH/users.json";
import enRiders from "../../locales/en-US/riders.json";
import enUsers from "../../locales/en-US/users.json";
import { dataProvider } from "../../src/providers/data";
import { ApiError } from "../../src/providers/errors";
import { setToken } from "../../src/providers/session";
import { downloadFile } from "../../src/app/components/download";
import { UserActionButtons } from "../../src/resources/users/actions/actions-panel";
import { riderErrorNotification, riderErrorText } from "../../src/resources/users/rider/errors";
import {
  attendanceRangeProblem,
  defaultAttendanceRange,
  documentProblem,
  RIDER_ATTENDANCE_URL,
  RIDER_DETAILS_URL,
  RIDER_EDIT_URL,
  riderAttendanceQuery,
  riderDetailsQuery,
  riderEditForm,
} from "../../src/resources/users/rider/requests";
import { DOCUMENT_MAX_BYTES } from "../../src/shared/riders";
import { aToken } from "./support/fixtures";
import { initErrorTexts, initPageTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { captureNotifications, renderInRefine } from "./support/render";

const { server, requests } = useApiServer();

// antd's dialogs and forms are slow to drive in jsdom.
vi.setConfig({ testTimeout: 20_000 });

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

// The verification is the users declaration's `riderVerification` action, drawn by the kit's
// buttons and dialogs (src/app/kit/decision.tsx) on the user with the rider's facts over it, as
// the rider section draws it: PATCH /api/users/{id}/rider-verification.
describe("rider verification", () => {
  const { shown, notifications } = captureNotifications();
  const ravi = {
    id: 9,
    accountNumber: "R0000009",
    name: "Ravi",
    role: "rider",
    isBanned: false,
    isVip: false,
    verificationStatus: "pending",
    verificationRemarks: null,
  };
  const VERIFY = `${API}/api/users/9/rider-verification`;

  async function useLanguage(lng: "en-US" | "cn-ZH") {
    await initPageTexts(["users", "riders", "errors", "common", "kit"], { language: lng });
  }

  function renderButtons(onChanged: () => void = () => undefined) {
    return renderInRefine(
      <UserActionButtons row={ravi} only={["riderVerification"]} onDecided={onChanged} />,
      notifications,
    );
  }

  beforeEach(async () => {
    setToken(aToken());
    await useLanguage("en-US");
  });

  afterAll(async () => {
    // The blocks below translate with the `riders` and `errors` texts only.
    await initErrorTexts("en-US");
    i18next.addResourceBundle("en-US", "riders", enRiders);
    i18next.addResourceBundle("cn-ZH", "riders", cnRiders);
  });

  it("offers approve and reject only on a pending rider", () => {
    renderButtons();
    expect(screen.getByRole("button", { name: "Approve rider Ravi" })).toHaveTextContent(
      "Approve rider",
    );
    expect(screen.getByRole("button", { name: "Reject rider Ravi" })).toBeInTheDocument();
    cleanup();
    render(
      <Refine dataProvider={dataProvider} options={{ disableTelemetry: true }}>
        <UserActionButtons
          row={{ ...ravi, verificationStatus: "Approved" }}
          only={["riderVerification"]}
          onDecided={() => undefined}
        />
      </Refine>,
    );
    expect(screen.queryByRole("button", { name: /Ravi/ })).not.toBeInTheDocument();
  });

  it("approves with PATCH rider-verification, leaving out a remark none typed", async () => {
    server.use(mswHttp.patch(VERIFY, () => HttpResponse.json({ id: 9 })));
    const changed = vi.fn();
    const user = renderButtons(changed);
    await user.click(screen.getByRole("button", { name: "Approve rider Ravi" }));
    expect(requests).toHaveLength(0);
    const dialog = await screen.findByRole("dialog", { name: "Approve Ravi as a rider?" });
    await user.click(within(dialog).getByRole("button", { name: "Approve rider" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe("PATCH");
    expect(new URL(last().url).pathname).toBe("/v1/api/users/9/rider-verification");
    expect(await last().json()).toEqual({ action: "Approved" });
    expect(shown).toContainEqual(
      expect.objectContaining({ type: "success", message: "Ravi is approved as a rider" }),
    );
  });

  it("approves with the remark typed, trimmed", async () => {
    server.use(mswHttp.patch(VERIFY, () => HttpResponse.json({ id: 9 })));
    const changed = vi.fn();
    const user = renderButtons(changed);
    await user.click(screen.getByRole("button", { name: "Approve rider Ravi" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve Ravi as a rider?" });
    await user.type(within(dialog).getByLabelText("Remark"), "  Documents checked ");
    await user.click(within(dialog).getByRole("button", { name: "Approve rider" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(await last().json()).toEqual({ action: "Approved", remark: "Documents checked" });
  });

  it("requires a remark before rejecting, then sends it trimmed", async () => {
    server.use(mswHttp.patch(VERIFY, () => HttpResponse.json({ id: 9 })));
    const changed = vi.fn();
    const user = renderButtons(changed);
    await user.click(screen.getByRole("button", { name: "Reject rider Ravi" }));
    const dialog = await screen.findByRole("dialog", { name: "Reject Ravi as a rider?" });
    const reject = within(dialog).getByRole("button", { name: "Reject rider" });
    await user.click(reject);
    expect(
      await within(dialog).findByText("Enter a remark: the user is told why."),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Remark"), "   ");
    await user.click(reject);
    expect(requests).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Remark"), " Blurred licence ");
    await user.click(reject);
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(requests).toHaveLength(1);
    expect(await last().json()).toEqual({ action: "Rejected", remark: "Blurred licence" });
    expect(shown).toContainEqual(
      expect.objectContaining({ type: "success", message: "Ravi is rejected as a rider" }),
    );
  });

  it.each([
    ["en-US", "Approve rider Ravi", "Approve rider", "Ravi: " + enUsers.errors.ALREADY_DECIDED],
    ["cn-ZH", "批准骑手 Ravi", "批准骑手", "Ravi：" + cnUsers.errors.ALREADY_DECIDED],
  ] as const)(
    "explains 409 ALREADY_DECIDED in the dialog (%s), and shows the rider as now stored",
    async (language, button, confirm, text) => {
      await useLanguage(language);
      server.use(
        mswHttp.patch(
          VERIFY,
          coded(409, "ALREADY_DECIDED", "This rider's verification was already decided"),
        ),
      );
      const changed = vi.fn();
      const user = renderButtons(changed);
      await user.click(screen.getByRole("button", { name: button }));
      const dialog = await screen.findByRole("dialog");
      await user.click(within(dialog).getByRole("button", { name: confirm }));
      expect(await within(dialog).findByText(text)).toBeInTheDocument();
      expect(within(dialog).queryByText(/already decided$/)).not.toBeInTheDocument();
      expect(shown).toHaveLength(0);
      // The section reads the rider again, to show the decision someone else made.
      expect(changed).toHaveBeenCalled();
    },
  );

  it("shows a failure the console has no word of its own for in the catalogue's words", async () => {
    server.use(mswHttp.patch(VERIFY, coded(500, "INTERNAL_ERROR", "Boom")));
    const user = renderButtons();
    await user.click(screen.getByRole("button", { name: "Approve rider Ravi" }));
    const dialog = await screen.findByRole("dialog", { name: "Approve Ravi as a rider?" });
    await user.click(within(dialog).getByRole("button", { name: "Approve rider" }));
    expect(
      await within(dialog).findByText(`Ravi: ${t("errors:codes.INTERNAL_ERROR")}`),
    ).toBeInTheDocument();
    expect(shown).toHaveLength(0);
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

  it("explains a coded refusal in its notification, in both languages", async () => {
    server.use(
      mswHttp.post(`${API}${RIDER_EDIT_URL}`, coded(400, "TOO_MANY_DOCUMENTS", "server text")),
    );
    const error = await failureOf(
      dataProvider.custom!({
        url: RIDER_EDIT_URL,
        method: "post",
        payload: riderEditForm("R-1", values, []),
      }),
    );
    expect(riderErrorNotification(t, "Failed")(error)).toMatchObject({
      type: "error",
      message: "Failed",
      description: enRiders.errors.TOO_MANY_DOCUMENTS,
    });
    await i18next.changeLanguage("cn-ZH");
    expect(riderErrorText(error, t)).toBe(cnRiders.errors.TOO_MANY_DOCUMENTS);
    await i18next.changeLanguage("en-US");
  });

  it("leaves uncoded failures to the central handler", () => {
    const error = new ApiError({ kind: "message", message: "Boom", statusCode: 500 });
    expect(riderErrorNotification(t, "Failed")(error)).toBe(false);
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
