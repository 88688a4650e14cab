/**
 * Dormant Account list against msw, and the data provider's `meta.listPath`, which lets a
 * resource read a list that is not `/api/{collection}/aggregation`.
 */
import { Refine } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { configure, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntdApp } from "antd";
import dayjs from "dayjs";
import { http as mswHttp, HttpResponse } from "msw";
import { MemoryRouter, Route, Routes } from "react-router";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { ErrorHandlingBridge } from "../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../src/app/notification-provider";
import type { UserDto } from "../../src/providers/api-types";
import { dataProvider, listPathOf } from "../../src/providers/data";
import { dormant } from "../../src/resources/dormant";
import DormantList, { daysInactive } from "../../src/resources/dormant/list";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

// A whole antd page renders here; give a busy machine time before calling it a failure.
configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "dormant", "users"]);
});

const DORMANT = `${API}/api/users/dormant`;
const daysAgo = (days: number) => dayjs().subtract(days, "day").toISOString();

function aUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    id: 9,
    accountNumber: "UC000009",
    name: "Lim Wei",
    email: "lim@example.com",
    phone: null,
    role: "student",
    approvalStatus: "approved",
    approvalRemark: null,
    isBanned: false,
    banRemark: null,
    isVip: false,
    url: null,
    lastActiveAt: daysAgo(400),
    createdAt: daysAgo(900),
    updatedAt: daysAgo(400),
    ...overrides,
  };
}

function serve(rows: UserDto[]) {
  server.use(
    mswHttp.get(DORMANT, () => HttpResponse.json({ totalCount: rows.length, users: rows })),
  );
}

function renderList() {
  return render(
    <AntdApp>
      <MemoryRouter initialEntries={["/dormant-account"]}>
        <Refine
          dataProvider={dataProvider}
          routerProvider={routerProvider}
          notificationProvider={useConsoleNotificationProvider}
          resources={[dormant.resource]}
          options={{
            disableTelemetry: true,
            reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
          }}
        >
          <ErrorHandlingBridge />
          <Routes>
            <Route path="/dormant-account" element={<DormantList />} />
          </Routes>
        </Refine>
      </MemoryRouter>
    </AntdApp>,
  );
}

describe("data provider: meta.listPath", () => {
  it("reads the list from meta.listPath with the aggregation parameters and listKey", async () => {
    const user = aUser();
    serve([user]);
    const answer = await dataProvider.getList({
      resource: "anything",
      meta: { collection: "users", listPath: "/api/users/dormant", listKey: "users" },
      pagination: { currentPage: 2, pageSize: 5, mode: "server" },
      sorters: [{ field: "name", order: "asc" }],
    });
    expect(answer).toEqual({ data: [user], total: 1, totalExact: true });
    const request = requests[0]!;
    expect(new URL(request.url).pathname).toBe("/v1/api/users/dormant");
    expect(jsonParam(request, "pagination")).toEqual({ page: 2, pageSize: 5 });
    expect(jsonParam(request, "sort")).toEqual({ name: 1 });
  });

  it("falls back to /api/{collection}/aggregation without it", () => {
    expect(listPathOf("things", { collection: "users" })).toBe("/api/users/aggregation");
    expect(listPathOf("things")).toBe("/api/things/aggregation");
    expect(listPathOf("things", { listPath: "/api/things/archived" })).toBe("/api/things/archived");
  });
});

describe("Dormant Account list", () => {
  it("asks the dormant list, longest inactive first, and shows each account", async () => {
    serve([aUser(), aUser({ id: 10, name: "Tan Mei", lastActiveAt: null, email: null })]);
    renderList();
    const first = (await screen.findByText("Lim Wei")).closest("tr")!;
    expect(jsonParam(requests[0], "sort")).toEqual({ lastActiveAt: 1 });
    expect(jsonParam(requests[0], "pagination")).toEqual({ page: 1, pageSize: 10 });
    const row = within(first);
    expect(row.getByText("UC000009")).toBeInTheDocument();
    expect(row.getByText("lim@example.com")).toBeInTheDocument();
    expect(row.getByText("Student")).toBeInTheDocument();
    expect(row.getByText("400")).toBeInTheDocument();
    expect(row.getByRole("link", { name: "Wallet of Lim Wei" })).toHaveAttribute(
      "href",
      "/user-details/9",
    );
    const never = within(screen.getByText("Tan Mei").closest("tr")!);
    expect(never.getByText("Never")).toBeInTheDocument();
    expect(never.getByText("900")).toBeInTheDocument();
  });

  it("sends the search as $search", async () => {
    serve([aUser()]);
    renderList();
    await screen.findByText("Lim Wei");
    await userEvent.type(
      screen.getByRole("searchbox", { name: "Search dormant accounts" }),
      "lim{Enter}",
    );
    await vi.waitFor(() =>
      expect(jsonParam(requests.at(-1), "filter")).toEqual({ $search: "lim" }),
    );
  });

  it("shows the total with thousands separators, and 10,000+ when the server stopped counting", async () => {
    server.use(
      mswHttp.get(DORMANT, () => HttpResponse.json({ totalCount: 1234, users: [aUser()] })),
    );
    const { unmount } = renderList();
    expect(await screen.findByText("1,234 dormant accounts")).toBeInTheDocument();
    unmount();
    server.use(
      mswHttp.get(DORMANT, () =>
        HttpResponse.json({ totalCount: 10_000, users: [aUser()], totalCountExact: false }),
      ),
    );
    renderList();
    expect(await screen.findByText("10,000+ dormant accounts")).toBeInTheDocument();
  });

  it("shows the empty state", async () => {
    serve([]);
    renderList();
    expect(
      await screen.findByText("No account has been inactive for longer than the dormancy period."),
    ).toBeInTheDocument();
  });

  it("shows the error state with Retry", async () => {
    server.use(
      mswHttp.get(DORMANT, () =>
        HttpResponse.json(
          { message: "You have no permission to access GET Dormant Accounts" },
          { status: 403 },
        ),
      ),
    );
    renderList();
    expect(await screen.findByText("The dormant accounts could not be loaded")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Retry/ })).toBeInTheDocument();
  });
});

describe("daysInactive", () => {
  it("counts from sign-up when the user was never active", () => {
    const now = dayjs("2026-01-31T00:00:00Z");
    expect(daysInactive({ lastActiveAt: null, createdAt: "2026-01-01T00:00:00Z" }, now)).toBe(30);
    expect(
      daysInactive(
        { lastActiveAt: "2026-01-21T00:00:00Z", createdAt: "2025-01-01T00:00:00Z" },
        now,
      ),
    ).toBe(10);
  });
});
