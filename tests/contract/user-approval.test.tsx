/**
 * User > Approval against msw: what the page asks for (pending users only), what a decision
 * sends, how a refusal reads, and what the page refuses to send at all. Played with the real
 * page, Refine, data provider and http client.
 */
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntdApp } from "antd";
import i18next from "i18next";
import { http as mswHttp, HttpResponse } from "msw";
import { MemoryRouter, Route, Routes } from "react-router";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import { ErrorHandlingBridge } from "../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../src/app/notification-provider";
import type { UserDto } from "../../src/providers/api-types";
import { authProvider } from "../../src/providers/auth";
import { dataProvider } from "../../src/providers/data";
import { queryClientConfig } from "../../src/providers/query-client";
import GeneratedList from "../../src/app/kit/generated-list";
import { resourceOf } from "../../src/app/kit/resource";
import { userApproval as userApprovalModule } from "../../src/shared/modules/user-approval";
import { users as usersModule } from "../../src/resources/users";
import { REMARK_MAX_LENGTH } from "../../src/shared/user-actions";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";

const userApproval = resourceOf(userApprovalModule);
const { server, requests } = useApiServer();

beforeAll(async () => {
  await initPageTexts(["approval", "users", "errors", "common"], { fallback: false });
});

beforeEach(() => i18next.changeLanguage("en-US"));

function aUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: 41,
    accountNumber: "UW0000041",
    name: "Tan Wei Ling",
    email: "weiling@ucsi.example",
    phone: "+60123456789",
    role: "student",
    approvalStatus: "pending",
    approvalRemark: null,
    isBanned: false,
    banRemark: null,
    isVip: false,
    url: null,
    lastActiveAt: null,
    createdAt: "2026-11-02T03:04:05.000Z",
    updatedAt: "2026-11-02T03:04:05.000Z",
    ...overrides,
  };
}

const weiLing = aUser();
const arjun = aUser({ id: 42, accountNumber: "UW0000042", name: "Arjun Nair", role: "rider" });

/** The pending list: serves `pending` until a user is decided, then leaves them out. */
function servePendingList(pending: UserDto[]) {
  const decided = new Set<number>();
  server.use(
    mswHttp.get(`${API}/api/users/aggregation`, () => {
      const rows = pending.filter((user) => !decided.has(user.id));
      return HttpResponse.json({ users: rows, totalCount: rows.length });
    }),
  );
  return decided;
}

function serveDecisions(
  decided: Set<number>,
  answer: (id: number) => Response | undefined = () => undefined,
) {
  server.use(
    mswHttp.patch(`${API}/api/users/:id/approval-action`, async ({ params, request }) => {
      const id = Number(params.id);
      const refusal = answer(id);
      if (refusal) return refusal;
      const body = (await request.json()) as { action: string };
      decided.add(id);
      const user = [weiLing, arjun].find((u) => u.id === id) ?? aUser({ id });
      return HttpResponse.json({
        ...user,
        approvalStatus: body.action === "approve" ? "approved" : "rejected",
      });
    }),
  );
}

const alreadyDecided = () =>
  HttpResponse.json(
    {
      code: "ALREADY_DECIDED",
      message: "This user was already approved; only a pending user can be decided",
      data: { approvalStatus: "approved" },
    },
    { status: 409 },
  );

/** The page; `state` as the command palette's "approve the next pending user" sends it. */
function renderPage(state?: { decide: string }) {
  const user = userEvent.setup();
  render(
    <AntdApp>
      <MemoryRouter initialEntries={[{ pathname: "/user-approval", state }]}>
        <Refine
          dataProvider={dataProvider}
          authProvider={authProvider}
          routerProvider={routerProvider}
          notificationProvider={useConsoleNotificationProvider}
          resources={[userApproval.resource, usersModule.resource]}
          options={{
            disableTelemetry: true,
            reactQuery: { clientConfig: queryClientConfig },
          }}
        >
          <ErrorHandlingBridge />
          <Routes>
            <Route path="/user-approval" element={<GeneratedList />} />
          </Routes>
        </Refine>
      </MemoryRouter>
    </AntdApp>,
  );
  return user;
}

const listRequests = () => requests.filter((r) => r.url.includes("/api/users/aggregation"));
const decisionRequests = () => requests.filter((r) => r.url.includes("/approval-action"));
const row = (name: string) => screen.getByRole("row", { name: new RegExp(name) });
const dialog = () => screen.getByRole("dialog");

// A full antd table in jsdom is slow; these stories take a few seconds each.
describe("User > Approval", { timeout: 60_000 }, () => {
  it("asks only for pending users, ten at a time, newest first, and links each to its detail", async () => {
    servePendingList([weiLing, arjun]);
    renderPage();
    expect(await screen.findByRole("link", { name: "Tan Wei Ling" })).toHaveAttribute(
      "href",
      "/user-details/41",
    );
    const request = listRequests()[0];
    expect(jsonParam(request, "filter")).toEqual({ approvalStatus: "pending" });
    expect(jsonParam(request, "pagination")).toEqual({ page: 1, pageSize: 10 });
    expect(jsonParam(request, "sort")).toEqual({ createdAt: -1 });
    expect(within(row("Arjun Nair")).getByText("UW0000042")).toBeInTheDocument();
    expect(screen.getByText("2 pending users")).toBeInTheDocument();
  });

  it("shows why the list failed, with a way to try again", async () => {
    server.use(
      mswHttp.get(`${API}/api/users/aggregation`, () =>
        HttpResponse.json({ code: "INVALID_QUERY", message: "bad sort" }, { status: 400 }),
      ),
    );
    const user = renderPage();
    expect(await screen.findByText("The pending users could not be loaded")).toBeInTheDocument();
    servePendingList([weiLing]);
    await user.click(screen.getByRole("button", { name: /Retry/ }));
    expect(await screen.findByRole("link", { name: "Tan Wei Ling" })).toBeInTheDocument();
  });

  it("keeps the pending filter when staff search", async () => {
    servePendingList([weiLing]);
    const user = renderPage();
    await screen.findByRole("link", { name: "Tan Wei Ling" });
    await user.type(
      screen.getByRole("searchbox", { name: /Search pending users/ }),
      "wei ling{Enter}",
    );
    await waitFor(() =>
      expect(jsonParam(listRequests().at(-1), "filter")).toEqual({
        approvalStatus: "pending",
        $search: "wei ling",
      }),
    );
  });

  it("approves a user with the trimmed remark, says so, and the user leaves the list", async () => {
    const decided = servePendingList([weiLing, arjun]);
    serveDecisions(decided);
    const user = renderPage();
    await user.click(await screen.findByRole("button", { name: "Approve Tan Wei Ling" }));
    expect(within(dialog()).getByText("0 / 500")).toBeInTheDocument();
    await user.type(within(dialog()).getByLabelText("Remark"), "  Documents checked  ");
    expect(within(dialog()).getByText("17 / 500")).toBeInTheDocument();
    await user.click(within(dialog()).getByRole("button", { name: "Approve" }));

    expect(await screen.findByText("Tan Wei Ling was approved")).toBeInTheDocument();
    const [request] = decisionRequests();
    expect(request?.method).toBe("PATCH");
    expect(new URL(request?.url ?? "").pathname).toBe("/v1/api/users/41/approval-action");
    expect(await request?.json()).toEqual({ action: "approve", remark: "Documents checked" });
    await waitFor(() =>
      expect(screen.queryByRole("link", { name: "Tan Wei Ling" })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole("link", { name: "Arjun Nair" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows a 409 (someone else decided first) in the staff member's words", async () => {
    const decided = servePendingList([weiLing]);
    serveDecisions(decided, () => alreadyDecided());
    const user = renderPage();
    await user.click(await screen.findByRole("button", { name: "Reject Tan Wei Ling" }));
    await user.type(within(dialog()).getByLabelText("Remark"), "Blurry photo");
    await user.click(within(dialog()).getByRole("button", { name: "Reject" }));

    const text = "Someone else decided first: this user is already Approved.";
    expect(
      await within(dialog()).findByText(`Tan Wei Ling (UW0000041): ${text}`),
    ).toBeInTheDocument();
    expect(within(dialog()).getByText("1 decision failed")).toBeInTheDocument();
    expect(await request(0)).toEqual({ action: "reject", remark: "Blurry photo" });
  });

  it("refuses a missing or too long remark before sending anything, in both languages", async () => {
    servePendingList([weiLing]);
    const user = renderPage();
    await user.click(await screen.findByRole("button", { name: "Reject Tan Wei Ling" }));
    await user.type(within(dialog()).getByLabelText("Remark"), "   ");
    await user.click(within(dialog()).getByRole("button", { name: "Reject" }));
    expect(await within(dialog()).findByText("Enter a remark")).toBeInTheDocument();

    const remark = within(dialog()).getByLabelText("Remark");
    await user.clear(remark);
    await user.click(remark);
    await user.paste("x".repeat(REMARK_MAX_LENGTH + 1));
    await user.click(within(dialog()).getByRole("button", { name: "Reject" }));
    expect(
      await within(dialog()).findByText("The remark must be at most 500 characters"),
    ).toBeInTheDocument();
    expect(within(dialog()).getByText("501 / 500")).toBeInTheDocument();

    await act(() => i18next.changeLanguage("cn-ZH"));
    await user.clear(remark);
    await user.click(within(dialog()).getByRole("button", { name: /^拒\s?绝$/ }));
    expect(await within(dialog()).findByText("请输入备注")).toBeInTheDocument();
    await user.click(remark);
    await user.paste("字".repeat(REMARK_MAX_LENGTH + 1));
    await user.click(within(dialog()).getByRole("button", { name: /^拒\s?绝$/ }));
    expect(await within(dialog()).findByText("备注最多 500 个字符")).toBeInTheDocument();

    expect(decisionRequests()).toHaveLength(0);
  });

  it("decides the selection one user after another and lists the ones that failed", async () => {
    const decided = servePendingList([weiLing, arjun]);
    serveDecisions(decided, (id) => (id === 42 ? alreadyDecided() : undefined));
    const user = renderPage();
    await user.click(await screen.findByRole("checkbox", { name: "Select Tan Wei Ling" }));
    await user.click(screen.getByRole("checkbox", { name: "Select Arjun Nair" }));
    expect(screen.getByText("2 users selected")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Approve selected" }));
    expect(within(dialog()).getByText("Approve 2 users")).toBeInTheDocument();
    await user.type(within(dialog()).getByLabelText("Remark"), "Batch checked");
    await user.click(within(dialog()).getByRole("button", { name: "Approve" }));

    expect(await screen.findByText("1 of 2 users were approved")).toBeInTheDocument();
    expect(
      within(dialog()).getByText(
        "Arjun Nair (UW0000042): Someone else decided first: this user is already Approved.",
      ),
    ).toBeInTheDocument();
    expect(decisionRequests().map((r) => new URL(r.url).pathname)).toEqual([
      "/v1/api/users/41/approval-action",
      "/v1/api/users/42/approval-action",
    ]);
    expect(await request(1)).toEqual({ action: "approve", remark: "Batch checked" });
    await user.click(within(dialog()).getByText("Close"));
    await waitFor(() =>
      expect(screen.queryByRole("link", { name: "Tan Wei Ling" })).not.toBeInTheDocument(),
    );
    expect(screen.getByText("0 users selected")).toBeInTheDocument();
  });

  it("opens the first pending user's approval when the palette asks for the next one", async () => {
    servePendingList([weiLing, arjun]);
    renderPage({ decide: "approve" });
    const asked = await screen.findByRole("dialog", { name: "Approve Tan Wei Ling" });
    expect(within(asked).getByLabelText("Remark")).toBeInTheDocument();
    expect(decisionRequests()).toHaveLength(0);
  });

  it("says nobody is waiting when the palette asks for the next one and the list is empty", async () => {
    servePendingList([]);
    renderPage({ decide: "approve" });
    expect(
      await screen.findByText("Nothing in this list is waiting for a decision."),
    ).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});

/** The JSON body of the n-th decision request. */
function request(index: number): Promise<unknown> {
  const sent = decisionRequests()[index];
  if (!sent) throw new Error(`no decision request #${index}`);
  return sent.clone().json();
}
