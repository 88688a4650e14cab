import { describe, expect, it } from "vitest";
import { DASHBOARD_SECTIONS } from "../../src/app/dashboard/sections";
import { shellPageFor } from "../../src/app/shell-pages";

describe("the ?id= shell parameter", () => {
  it("opens the dashboard from any console path", () => {
    expect(shellPageFor("?id=dashboard")).toBeDefined();
    expect(shellPageFor("?page=2&id=dashboard")).toBeDefined();
  });

  it("opens a settlement's invoice from any console path", () => {
    expect(shellPageFor("?id=invoice&settlement=3")).toBeDefined();
    expect(shellPageFor("?settlement=3&id=invoice")).toBeDefined();
  });

  it("opens the help centre's editor, for a new article or one to edit", () => {
    expect(shellPageFor("?id=create-edit-help-centre-editor")).toBeDefined();
    expect(shellPageFor("?id=create-edit-help-centre-editor&article=4")).toBeDefined();
  });

  it("falls through to the path for unknown ids", () => {
    expect(shellPageFor("?id=toString")).toBeUndefined();
    expect(shellPageFor("?id=")).toBeUndefined();
    expect(shellPageFor("")).toBeUndefined();
  });
});

describe("dashboard figures", () => {
  const section = (key: string) => DASHBOARD_SECTIONS.find((s) => s.key === key);

  it("link administrators' figures to the list, filtered by status", () => {
    const admins = section("administrators");
    expect(admins?.linkFor("total")).toBe("/admin-mgmt");
    const disabled = new URL(admins?.linkFor("disabled") ?? "", "http://console");
    expect(disabled.pathname).toBe("/admin-mgmt");
    expect(disabled.searchParams.get("filters[0][field]")).toBe("status");
    expect(disabled.searchParams.get("filters[0][value]")).toBe("disabled");
  });

  it("link users' figures to the user list, filtered by approval status", () => {
    const users = section("users");
    expect(users?.linkFor("total")).toBe("/user-mgmt");
    const pending = new URL(users?.linkFor("pending") ?? "", "http://console");
    expect(pending.pathname).toBe("/user-mgmt");
    expect(pending.searchParams.get("filters[0][field]")).toBe("approvalStatus");
    expect(pending.searchParams.get("filters[0][value]")).toBe("pending");
  });
});
