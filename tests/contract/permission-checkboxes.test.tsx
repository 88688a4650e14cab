/**
 * The permission editor offers the fourteen permission modules, each of which guards a page of
 * this build (a declared module's or the shell's own); saving keeps the held codes in the table's
 * order.
 */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { resourceModules } from "../../src/resources";
import { PermissionCheckboxes } from "../../src/resources/administrators/permission-checkboxes";
import { PERMISSION, PERMISSION_MODULES } from "../../src/shared/permissions";
import { initPageTexts } from "./support/i18n";

beforeAll(async () => {
  await initPageTexts(["common", "admin"]);
});

describe("the permission editor", () => {
  it("offers every permission module once, each one guarding a page of this build", () => {
    // The shell's own Statistic and Global pages, and the declared modules, guard every code.
    const guarded = new Set([
      PERMISSION.statistic,
      PERMISSION.global,
      ...resourceModules.map((module) => module.resource.meta.permissionCode),
    ]);
    expect(PERMISSION_MODULES.filter((m) => !guarded.has(m.code))).toEqual([]);
    render(<PermissionCheckboxes value={[]} />);
    // One query for all fourteen (a name lookup per box takes seconds in jsdom).
    const offered = screen
      .getAllByRole("checkbox")
      .map((box) => box.closest("label")?.textContent?.match(/\((\d+)\)$/)?.[1]);
    expect(offered).toEqual(PERMISSION_MODULES.map((module) => String(module.code)));
  });

  it("keeps the held codes, in the table's order, when another is ticked", async () => {
    const onChange = vi.fn();
    render(<PermissionCheckboxes value={[PERMISSION.parking]} onChange={onChange} />);
    expect(screen.getByRole("checkbox", { name: /\(39\)$/ })).toBeChecked();
    await userEvent.click(screen.getByRole("checkbox", { name: "User (0)" }));
    expect(onChange).toHaveBeenCalledWith([PERMISSION.user, PERMISSION.parking]);
  });
});
