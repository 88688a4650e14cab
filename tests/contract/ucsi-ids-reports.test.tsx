/**
 * UCSI ID Management and User Report screens against msw: the CSV import (the file sent as
 * multipart with dryRun, one result per row shown, a refused import explained with its rows, a
 * wrong header in the console's words), and a report's resolution with a refund (the amount sent
 * in sen, the outcome said; a refund above the payment explained in the dialog).
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { ucsiIds } from "../../src/resources/ucsi-ids";
import { sendImport } from "../../src/resources/ucsi-ids/import-dialog";
import UcsiIdList from "../../src/resources/ucsi-ids/list";
import { userReports } from "../../src/resources/user-reports";
import UserReportShow from "../../src/resources/user-reports/show";
import type { ImportResult } from "../../src/shared/modules/ucsi-ids";
import { aPolicy, aReport } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "ucsiId", "userReport"]);
});

const FILE = "ucsi_id,type,account_number\r\n1002261234,student,W100000001\r\n";

const DRY_RUN: ImportResult = {
  dryRun: true,
  total: 3,
  valid: 1,
  invalid: 2,
  imported: 0,
  rows: [
    { line: 2, ucsiId: "1002261234", type: "student", accountNumber: "W100000001", result: "ok" },
    { line: 3, ucsiId: "12AB", type: "student", accountNumber: "W100000002", result: "bad_format" },
    {
      line: 4,
      ucsiId: "1002261299",
      type: "student",
      accountNumber: "W999999999",
      result: "unknown_account",
    },
  ],
};

function renderIds() {
  server.use(
    mswHttp.get(`${API}/api/ucsi-ids/aggregation`, () =>
      HttpResponse.json({ totalCount: 0, totalCountExact: true, ucsiIds: [] }),
    ),
  );
  renderPage("/ucsi-id-mgmt", [ucsiIds.resource], { "/ucsi-id-mgmt": <UcsiIdList /> });
}

async function chooseFile() {
  await userEvent.click(await screen.findByRole("button", { name: /Import CSV/ }));
  const dialog = await screen.findByRole("dialog");
  const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
  await userEvent.upload(input, new File([FILE], "ids.csv", { type: "text/csv" }));
  expect(await within(dialog).findByText("File: ids.csv")).toBeInTheDocument();
  return dialog;
}

describe("the UCSI ID import", () => {
  it("checks the file (multipart, dryRun) and lists each problem row; the refused import stores nothing", async () => {
    server.use(
      mswHttp.post(`${API}/api/ucsi-ids/import`, async ({ request }) => {
        const form = await request.formData();
        if (form.get("dryRun") === "true") return HttpResponse.json(DRY_RUN);
        return HttpResponse.json(
          {
            code: "IMPORT_REJECTED",
            message: "Nothing was imported: 2 of 3 rows have problems",
            data: { total: 3, valid: 1, invalid: 2, rows: DRY_RUN.rows.slice(1) },
          },
          { status: 400 },
        );
      }),
    );
    renderIds();
    const dialog = await chooseFile();
    await userEvent.click(within(dialog).getByRole("button", { name: "Check the file" }));
    expect(
      await within(dialog).findByText("3 rows: 1 ready, 2 with problems."),
    ).toBeInTheDocument();
    expect(within(dialog).getByText("Bad format")).toBeInTheDocument();
    expect(within(dialog).getByText("Unknown account")).toBeInTheDocument();
    // Only the problem rows at first; the ready row with all of them.
    expect(within(dialog).queryByText("Ready")).not.toBeInTheDocument();
    await userEvent.click(
      within(dialog).getByRole("checkbox", { name: "Only rows with problems" }),
    );
    expect(within(dialog).getByText("Ready")).toBeInTheDocument();

    const sent = requests.find((request) => request.method === "POST")!;
    const form = await sent.formData();
    expect(form.get("dryRun")).toBe("true");
    // jsdom's File crosses into the platform's FormData as a part named after the chosen file.
    expect(form.get("file")).not.toBeNull();

    // A file the check found problems in is not imported: it is chosen again once corrected.
    const importButton = () => within(dialog).getByRole("button", { name: "Import" });
    expect(importButton()).toBeDisabled();
    expect(
      within(dialog).getByText(
        "Correct the rows with problems, then choose the file again to import it.",
      ),
    ).toBeInTheDocument();

    // Imported without a check, the server refuses it whole, rows and all.
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File([FILE], "ids.csv", { type: "text/csv" }));
    expect(importButton()).toBeEnabled();
    await userEvent.click(importButton());
    expect(
      await within(dialog).findByText(
        "Nothing was imported: 2 of 3 rows have problems. Correct them and import again.",
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText("Unknown account")).toBeInTheDocument();
    expect(importButton()).toBeDisabled();
  });

  it("does not offer to import a file again once it is imported", async () => {
    server.use(
      mswHttp.post(`${API}/api/ucsi-ids/import`, () =>
        HttpResponse.json({
          ...DRY_RUN,
          dryRun: false,
          valid: 3,
          invalid: 0,
          imported: 3,
          rows: [],
        }),
      ),
    );
    renderIds();
    const dialog = await chooseFile();
    await userEvent.click(within(dialog).getByRole("button", { name: "Import" }));
    expect(await within(dialog).findByText("3 UCSI IDs were linked.")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Import" })).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Check the file" })).toBeDisabled();
  });

  it("reports the upload's progress until the server checks the rows", async () => {
    server.use(mswHttp.post(`${API}/api/ucsi-ids/import`, () => HttpResponse.json(DRY_RUN)));
    const progress: unknown[] = [];
    const file = new File([FILE], "ids.csv", { type: "text/csv" });
    const result = await sendImport(file, true, (p) => progress.push(p));
    expect(result).toEqual(DRY_RUN);
    // The whole body sent: the bar gives way to "checking N rows" (rows estimated from its size).
    expect(progress.at(-1)).toEqual({ phase: "processing", rows: Math.round(file.size / 32) });
  });

  it("explains a wrong header in the console's words", async () => {
    server.use(
      mswHttp.post(`${API}/api/ucsi-ids/import`, () =>
        HttpResponse.json(
          {
            code: "IMPORT_WRONG_HEADER",
            message: "The first line must be the header ucsi_id,type,account_number",
            data: { expected: "ucsi_id,type,account_number" },
          },
          { status: 400 },
        ),
      ),
    );
    renderIds();
    const dialog = await chooseFile();
    await userEvent.click(within(dialog).getByRole("button", { name: "Check the file" }));
    expect(
      await within(dialog).findByText(
        "The first line of the file must be the header ucsi_id,type,account_number. Download the template and start from it.",
      ),
    ).toBeInTheDocument();
  });
});

const REPORT = aReport();

function renderReport() {
  server.use(
    mswHttp.get(`${API}/api/user-reports/7`, () => HttpResponse.json(REPORT)),
    mswHttp.get(`${API}/api/user-reports/7/audit`, () =>
      HttpResponse.json({ totalCount: 0, entries: [] }),
    ),
    // The page's change requests (a refund above the threshold waits for a second approver).
    mswHttp.get(`${API}/api/change-requests/aggregation`, () =>
      HttpResponse.json({ totalCount: 0, changeRequests: [] }),
    ),
    mswHttp.get(`${API}/api/wallet-policy`, () => HttpResponse.json(aPolicy())),
  );
  renderPage("/user-report/7", [userReports.resource], {
    "/user-report/:id": <UserReportShow />,
  });
}

async function resolveWith(note: string, refund: string) {
  await userEvent.click(await screen.findByRole("button", { name: /Resolve/ }));
  const dialog = await screen.findByRole("dialog");
  expect(
    within(dialog).getByText(/At most RM 20\.00 of the payment PY20261120ABCDEFGHIJ/),
  ).toBeInTheDocument();
  await userEvent.type(within(dialog).getByLabelText("Resolution note"), note);
  await userEvent.type(within(dialog).getByLabelText("Refund to the reporter (optional)"), refund);
  await userEvent.click(within(dialog).getByRole("button", { name: "Resolve" }));
  return dialog;
}

describe("a user report's detail page", () => {
  it("shows the reporter, payment and business as links, and the steps of its status", async () => {
    renderReport();
    expect(await screen.findByRole("link", { name: "W100000042" })).toHaveAttribute(
      "href",
      "/user-details/42",
    );
    expect(screen.getByRole("link", { name: "Library Café" })).toHaveAttribute(
      "href",
      "/business-details/5",
    );
    expect(screen.getByRole("link", { name: "PY20261120ABCDEFGHIJ" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Resolve/ })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Reject/ })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Start/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Reopen/ })).not.toBeInTheDocument();
  });

  it("resolves with a note and a refund sent in sen, and says so", async () => {
    server.use(
      mswHttp.post(`${API}/api/user-reports/7/resolve`, () =>
        HttpResponse.json({ ...REPORT, status: "resolved", refundSen: 1_500 }),
      ),
    );
    renderReport();
    await resolveWith("Refunded the double charge", "15");
    expect(
      await screen.findByText("Report RPT-000007 was resolved and RM 15.00 was refunded."),
    ).toBeInTheDocument();
    const post = requests.find((request) => request.method === "POST")!;
    expect(await post.json()).toEqual({ note: "Refunded the double charge", refundSen: 1_500 });
  });

  it("explains a refund above what remains, in the dialog", async () => {
    server.use(
      mswHttp.post(`${API}/api/user-reports/7/resolve`, () =>
        HttpResponse.json(
          {
            code: "REFUND_EXCEEDS_PAYMENT",
            message: "At most 500 sen of this payment can be refunded",
            data: { remainingSen: 500 },
          },
          { status: 409 },
        ),
      ),
    );
    renderReport();
    const dialog = await resolveWith("More", "10");
    expect(
      await within(dialog).findByText("At most RM 5.00 of this payment can still be refunded."),
    ).toBeInTheDocument();
  });
});
