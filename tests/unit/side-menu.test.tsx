import { render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CHANGE_REQUEST_COUNTS_PATH } from "../../src/app/kit/change-request-counts";
import { SideMenu } from "../../src/app/layout/side-menu";
import type { AdminDto } from "../../src/providers/api-types";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import { http } from "../../src/providers/http";
import { changeLanguage, initI18n, loadConsoleTexts } from "../../src/providers/i18n";

const adminWith = (permissions: number[], isSuperAdmin = false): AdminDto => ({
  id: 7,
  name: "Test Admin",
  email: "test@wallet.example",
  permissions,
  isSuperAdmin,
  status: "active",
  language: null,
  theme: null,
  hasSecondFactor: false,
  lastLoginAt: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

function renderMenuAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <SideMenu collapsed={false} />
    </MemoryRouter>,
  );
}

beforeAll(async () => {
  localStorage.setItem("language", "en-US");
  await initI18n();
  // The signed-in console's first screen: the menu's badge speaks the dashboard's words.
  await loadConsoleTexts();
});

/** What `GET /api/change-requests/counts` answers (the menu's badge): nothing waits unless told. */
const answerCounts = (toCheck: number) =>
  vi
    .spyOn(http, "get")
    .mockResolvedValue({ data: { toCheck, mine: 0 } } as Awaited<ReturnType<typeof http.get>>);

beforeEach(async () => {
  answerCounts(0);
  await changeLanguage("en-US");
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("SideMenu", () => {
  it("renders no entry until the administrator is known", () => {
    setCurrentAdmin(null);
    renderMenuAt("/dashboard");
    expect(screen.queryByRole("navigation")).not.toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
  });

  it("lists only the entries the administrator may use, as links", () => {
    setCurrentAdmin(adminWith([0]));
    renderMenuAt("/dashboard");
    const nav = screen.getByRole("navigation", { name: "Main navigation" });
    expect(
      within(nav)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Dashboard", "Pending approvals", "Setting"]);
  });

  it("counts the changes waiting for the administrator's approval beside Pending approvals", async () => {
    const get = answerCounts(3);
    // Another administrator than the tests above, so the counts are read afresh.
    setCurrentAdmin({ ...adminWith([]), id: 8 });
    renderMenuAt("/dashboard");
    // The count in words is the link's (read by screen readers; the badge is for the eye).
    const words = await screen.findByText("(3 waiting for your approval)", { exact: false });
    expect(words.closest("a")).toHaveAttribute("href", "/change-requests");
    expect(words.closest("a")).toHaveTextContent(/^Pending approvals/);
    expect(get).toHaveBeenCalledWith(CHANGE_REQUEST_COUNTS_PATH);
  });

  it("shows Admin to an administrator holding code 8, linked to its list", () => {
    setCurrentAdmin(adminWith([8]));
    renderMenuAt("/dashboard");
    expect(screen.getByRole("link", { name: "Admin" })).toHaveAttribute("href", "/admin-mgmt");
  });

  it("highlights Admin on an administrator's edit page (alias)", () => {
    setCurrentAdmin(adminWith([8]));
    renderMenuAt("/manage-admin/3/edit");
    const admin = screen.getByRole("link", { name: "Admin" }).closest("li");
    expect(admin).toHaveClass("ant-menu-item-selected");
    const dashboard = screen.getByRole("link", { name: "Dashboard" }).closest("li");
    expect(dashboard).not.toHaveClass("ant-menu-item-selected");
  });

  it("highlights the page a ?id= shell parameter opens, whatever the path", () => {
    setCurrentAdmin(adminWith([8]));
    renderMenuAt("/admin-mgmt?id=dashboard");
    expect(screen.getByRole("link", { name: "Dashboard" }).closest("li")).toHaveClass(
      "ant-menu-item-selected",
    );
  });

  it("speaks the current language", async () => {
    setCurrentAdmin(adminWith([], true));
    await changeLanguage("cn-ZH");
    renderMenuAt("/setting");
    expect(screen.getByRole("navigation", { name: "主导航" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "管理员" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "设置" }).closest("li")).toHaveClass(
      "ant-menu-item-selected",
    );
  });
});
