/**
 * Saved views on a kit list, against msw: the toolbar saves the list as it is (filters, sort,
 * columns, widths, page size) under a name, private or shared; picking a view applies all of it
 * (the list is asked again with its filters, sort and page size; its columns and widths are
 * drawn); a view whose parts the list no longer has says which.
 */
import { configure, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import GeneratedList from "../../src/app/kit/generated-list";
import { resourceOf } from "../../src/app/kit/resource";
import type { SavedView, SavedViewList } from "../../src/shared/saved-views";
import { users } from "../../src/shared/modules/users";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
// A whole antd page, a popover and a dialog: slow on a busy machine running every file at once.
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "users"]);
});

const VIEWS = `${API}/api/saved-views/users`;

const aUser = {
  id: 9,
  accountNumber: "UC000009",
  name: "Lim Wei",
  email: "lim@example.com",
  phone: null,
  role: "merchant",
  approvalStatus: "approved",
  approvalRemark: null,
  riderVerification: null,
  isBanned: false,
  banRemark: null,
  isVip: false,
  url: null,
  lastActiveAt: null,
  createdAt: "2026-01-05T02:00:00.000Z",
  updatedAt: "2026-01-05T02:00:00.000Z",
};

function aView(overrides: Partial<SavedView> = {}): SavedView {
  return {
    id: 7,
    name: "Merchants by name",
    shared: true,
    mine: false,
    owner: { id: 2, name: "Desk Lead" },
    state: {
      filters: [{ field: "role", operator: "eq", value: "merchant" }],
      sorters: [{ field: "name", order: "asc" }],
      pageSize: 50,
      columns: ["name", "role", "accountNumber"],
      widths: { name: 260 },
    },
    dropped: [],
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
    ...overrides,
  };
}

function serve(list: SavedViewList) {
  server.use(
    mswHttp.get(`${API}/api/users/aggregation`, () =>
      HttpResponse.json({ totalCount: 1, users: [aUser], totalCountExact: true }),
    ),
    mswHttp.get(VIEWS, () => HttpResponse.json(list)),
  );
}

const renderList = (path = "/user-mgmt") =>
  renderPage(path, [resourceOf(users).resource], { "/user-mgmt": <GeneratedList /> });

const lastListRequest = () =>
  requests.filter((request) => request.url.includes("/api/users/aggregation")).at(-1);

const headers = () =>
  screen
    .getAllByRole("columnheader")
    .map((cell) => cell.textContent?.trim())
    .filter(Boolean);

describe("saved views on a list", () => {
  it("saves the list as it is: filters, sort, columns, widths and page size, shared when asked", async () => {
    serve({ views: [], defaultViewId: null });
    let posted: unknown;
    server.use(
      mswHttp.post(VIEWS, async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json(aView({ id: 11, name: "Mine", mine: true }), { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderList(
      "/user-mgmt?pageSize=20&currentPage=1&sorters[0][field]=name&sorters[0][order]=asc" +
        "&filters[0][field]=role&filters[0][operator]=eq&filters[0][value]=merchant",
    );
    await screen.findByText("Lim Wei");
    // Hide the e-mail column and widen the name.
    await user.click(screen.getByRole("button", { name: /Columns/ }));
    const popover = await screen.findByRole("tooltip");
    await user.click(within(popover).getByRole("checkbox", { name: "Email" }));
    const width = within(popover).getByRole("spinbutton", { name: /Width of Name/ });
    await user.type(width, "300");
    await user.tab();

    await user.click(screen.getByRole("button", { name: /Save view as/ }));
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Name"), "Mine");
    await user.click(within(dialog).getByRole("checkbox", { name: /Share/ }));
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(posted).toBeDefined());
    expect(posted).toEqual({
      name: "Mine",
      shared: true,
      state: {
        filters: [{ field: "role", operator: "eq", value: "merchant" }],
        sorters: [{ field: "name", order: "asc" }],
        pageSize: 20,
        columns: ["accountNumber", "name", "phone", "role", "approvalStatus", "createdAt"],
        widths: { name: 300 },
      },
    });
  });

  it("says a name in use under the name, in the administrator's words, and keeps the dialog open", async () => {
    serve({ views: [], defaultViewId: null });
    server.use(
      mswHttp.post(VIEWS, () =>
        HttpResponse.json(
          {
            code: "SAVED_VIEW_NAME_TAKEN",
            message: 'You already have a view named "Mine" for this list',
            data: { name: "Mine" },
          },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderList();
    await screen.findByText("Lim Wei");
    await user.click(screen.getByRole("button", { name: /Save view as/ }));
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Name"), "Mine");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(
      await within(dialog).findByText(
        'You already have a view of this list named "Mine". Choose another name.',
      ),
    ).toBeInTheDocument();
  });

  it("applies a picked view: the list asked with its filters, sort and page size, its columns drawn", async () => {
    serve({ views: [aView()], defaultViewId: null });
    const user = userEvent.setup();
    renderList();
    await screen.findByText("Lim Wei");
    expect(headers()).toContain("Email");

    await user.click(screen.getByRole("combobox", { name: "Saved views" }));
    await user.click(await screen.findByText(/Merchants by name/));

    await waitFor(() =>
      expect(jsonParam(lastListRequest(), "pagination")).toEqual({ page: 1, pageSize: 50 }),
    );
    expect(jsonParam(lastListRequest(), "filter")).toEqual({ role: "merchant" });
    expect(jsonParam(lastListRequest(), "sort")).toEqual({ name: 1 });
    await waitFor(() => expect(headers()).toEqual(["Name", "Role", "Account number", "Actions"]));
    // The view's width for Name is the first column's.
    const widths = [...document.querySelectorAll("table colgroup col")].map(
      (col) => (col as HTMLElement).style.width,
    );
    expect(widths).toContain("260px");
  });

  it("opens with the administrator's default view, and says which parts it no longer has", async () => {
    serve({
      views: [aView({ dropped: [{ part: "filter", field: "loyaltyTier" }] })],
      defaultViewId: 7,
    });
    renderList();
    await waitFor(() =>
      expect(jsonParam(lastListRequest(), "pagination")).toEqual({ page: 1, pageSize: 50 }),
    );
    expect(await screen.findByText(/opened without some of its parts/)).toBeInTheDocument();
    expect(screen.getByText(/the filter on loyaltyTier/)).toBeInTheDocument();
  });
});
