/**
 * Change Contact list against msw: what it asks for, how it shows a submission, and the
 * approve / reject call with its required remark and translated refusals.
 */
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { act, configure, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntdApp } from "antd";
import { http as mswHttp, HttpResponse } from "msw";
import { MemoryRouter, Route, Routes } from "react-router";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { ErrorHandlingBridge } from "../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../src/app/notification-provider";
import type { ChangeContactSubmissionDto } from "../../src/providers/api-types";
import { dataProvider } from "../../src/providers/data";
import { changeContact } from "../../src/resources/change-contact";
import ChangeContactList from "../../src/resources/change-contact/list";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

// A whole antd page renders here; give a busy machine time before calling it a failure.
configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "contact", "users"]);
});

const LIST = `${API}/api/change-contact-submissions`;

function aSubmission(overrides: Partial<ChangeContactSubmissionDto> = {}) {
  return {
    id: 11,
    userId: 5,
    userName: "Nur Aina",
    accountNumber: "UC000005",
    contactType: "email",
    oldValue: "aina@old.example",
    newValue: "aina@new.example",
    status: "pending",
    remark: null,
    reviewerId: null,
    reviewedAt: null,
    createdAt: "2026-03-04T05:06:07.000Z",
    updatedAt: "2026-03-04T05:06:07.000Z",
    ...overrides,
  } satisfies ChangeContactSubmissionDto;
}

function serveList(rows: ChangeContactSubmissionDto[] = [aSubmission()]) {
  server.use(
    mswHttp.get(LIST, () =>
      HttpResponse.json({ totalCount: rows.length, changeContactSubmissions: rows }),
    ),
  );
}

const listRequests = () =>
  requests.filter((request) => request.method === "GET" && request.url.startsWith(`${LIST}?`));

function renderList(path = "/user-change-contact") {
  return render(
    <AntdApp>
      <MemoryRouter initialEntries={[path]}>
        <Refine
          dataProvider={dataProvider}
          routerProvider={routerProvider}
          notificationProvider={useConsoleNotificationProvider}
          resources={[changeContact.resource]}
          options={{
            disableTelemetry: true,
            reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
          }}
        >
          <ErrorHandlingBridge />
          <Routes>
            <Route path="/user-change-contact" element={<ChangeContactList />} />
          </Routes>
        </Refine>
      </MemoryRouter>
    </AntdApp>,
  );
}

async function openDialog(button: "Approve" | "Reject") {
  await screen.findByText("aina@new.example");
  await userEvent.click(screen.getByRole("button", { name: `${button} the change for Nur Aina` }));
  return screen.findByRole("dialog");
}

describe("Change Contact list", () => {
  it("asks for pending submissions, newest first, one page of 10", async () => {
    serveList();
    renderList();
    await screen.findByText("aina@new.example");
    const [request] = listRequests();
    expect(jsonParam(request, "filter")).toEqual({ status: "pending" });
    expect(jsonParam(request, "sort")).toEqual({ createdAt: -1 });
    expect(jsonParam(request, "pagination")).toEqual({ page: 1, pageSize: 10 });
  });

  it("shows the user with a link to the detail, old and new value side by side, and the status", async () => {
    serveList();
    renderList();
    const link = await screen.findByRole("link", { name: "Nur Aina" });
    expect(link).toHaveAttribute("href", "/user-details/5");
    const row = link.closest("tr")!;
    const cells = within(row);
    expect(cells.getByText("UC000005")).toBeInTheDocument();
    expect(cells.getByText("E-mail")).toBeInTheDocument();
    expect(cells.getByText("aina@old.example")).toBeInTheDocument();
    expect(cells.getByText("aina@new.example")).toBeInTheDocument();
    expect(cells.getByText("Pending")).toBeInTheDocument();
  });

  it("offers no decision on a decided submission", async () => {
    serveList([aSubmission({ status: "approved", remark: "ok" })]);
    renderList();
    await screen.findByText("aina@new.example");
    expect(screen.queryByRole("button", { name: /Approve the change/ })).not.toBeInTheDocument();
    expect(screen.getByText("Approved")).toBeInTheDocument();
  });

  it("filters by contact type and can show every status", async () => {
    serveList();
    renderList(
      "/user-change-contact?filters[0][field]=contactType&filters[0][operator]=eq&filters[0][value]=phone" +
        "&filters[1][field]=status&filters[1][operator]=in&filters[1][value][0]=pending" +
        "&filters[1][value][1]=approved&filters[1][value][2]=rejected",
    );
    await screen.findByText("aina@new.example");
    expect(jsonParam(listRequests()[0], "filter")).toEqual({
      contactType: "phone",
      status: { $in: ["pending", "approved", "rejected"] },
    });
  });

  it("sends the search as $search", async () => {
    serveList();
    renderList();
    await screen.findByText("aina@new.example");
    await userEvent.type(
      screen.getByRole("searchbox", { name: "Search submissions" }),
      "aina{Enter}",
    );
    await vi.waitFor(() =>
      expect(jsonParam(listRequests().at(-1), "filter")).toEqual({
        $search: "aina",
        status: "pending",
      }),
    );
  });

  it("shows the error state with Retry when the list fails", async () => {
    server.use(mswHttp.get(LIST, () => HttpResponse.json({ message: "nope" }, { status: 400 })));
    renderList();
    expect(
      await screen.findByText("The change-contact submissions could not be loaded"),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Retry|retry/ })).toBeInTheDocument();
  });

  it("shows the empty state", async () => {
    serveList([]);
    renderList();
    expect(
      await screen.findByText("There are no change-contact submissions with this status."),
    ).toBeInTheDocument();
  });
});

describe("Change Contact decision", () => {
  it("refuses to send without a remark, or with one over 500 characters", async () => {
    serveList();
    renderList();
    const dialog = await openDialog("Reject");
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject" }));
    expect(await within(dialog).findByText("Please enter a remark.")).toBeInTheDocument();
    const box = within(dialog).getByRole("textbox", { name: "Remark" });
    await userEvent.click(box);
    await userEvent.paste("x".repeat(501));
    await userEvent.click(within(dialog).getByRole("button", { name: "Reject" }));
    expect(
      await within(dialog).findByText("The remark can have at most 500 characters."),
    ).toBeInTheDocument();
    expect(requests.filter((request) => request.method === "PATCH")).toHaveLength(0);
  });

  it("approves with the remark and reloads the list", async () => {
    serveList();
    server.use(
      mswHttp.patch(`${API}/api/change-contact-submissions/11`, () =>
        HttpResponse.json(aSubmission({ status: "approved", remark: "checked" })),
      ),
    );
    renderList();
    const dialog = await openDialog("Approve");
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Remark" }), "  checked ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve" }));
    expect(
      await screen.findByText("The contact change of Nur Aina was approved."),
    ).toBeInTheDocument();
    const patch = requests.find((request) => request.method === "PATCH")!;
    expect(await patch.json()).toEqual({ action: "approve", remark: "checked" });
    await vi.waitFor(() => expect(listRequests().length).toBeGreaterThanOrEqual(2));
  });

  it.each([
    [
      "EMAIL_TAKEN",
      "Another user already has this e-mail address, so the change cannot be approved.",
    ],
    ["ALREADY_DECIDED", "This submission has already been decided. The list has been refreshed."],
  ])("explains a 409 %s in the console's words", async (code, text) => {
    serveList();
    server.use(
      mswHttp.patch(`${API}/api/change-contact-submissions/11`, () =>
        HttpResponse.json({ code, message: "server words" }, { status: 409 }),
      ),
    );
    renderList();
    const dialog = await openDialog("Approve");
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Remark" }), "ok");
    await userEvent.click(within(dialog).getByRole("button", { name: "Approve" }));
    expect(await screen.findByText(text)).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByText("server words")).not.toBeInTheDocument();
  });
});
