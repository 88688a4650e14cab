/**
 * The permission editor offers the modules of this build (their declarations), not all fourteen
 * codes: a code nobody can use yet is not offered, unless the administrator already holds it, so
 * it can be seen and taken away; saving keeps the held codes in the table's order.
 */
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { IMPLEMENTED_PERMISSION_CODES } from "../../src/app/menu-registry";
import { PermissionCheckboxes } from "../../src/resources/administrators/permission-checkboxes";
import { PERMISSION, PERMISSION_MODULES } from "../../src/shared/permissions";
import { initPageTexts } from "./support/i18n";

beforeAll(async () => {
  await initPageTexts(["common", "admin"]);
});

const unbuilt = PERMISSION_MODULES.filter(
  (module) => !IMPLEMENTED_PERMISSION_CODES.has(module.code),
);

describe("the permission editor", () => {
  it("offers only the modules this build has", () => {
    expect(unbuilt.length).toBeGreaterThan(0);
    render(<PermissionCheckboxes value={[]} />);
    const offered = screen.getAllByRole("checkbox");
    expect(offered).toHaveLength(IMPLEMENTED_PERMISSION_CODES.size);
    expect(screen.getByRole("checkbox", { name: "User (0)" })).toBeInTheDocument();
    for (const module of unbuilt) {
      expect(
        screen.queryByRole("checkbox", { name: new RegExp(`\\(${module.code}\\)$`) }),
      ).toBeNull();
    }
  });

  it("shows a held code of a module not built yet, and keeps it when another is ticked", async () => {
    const held = unbuilt[0]!.code;
    const onChange = vi.fn();
    render(<PermissionCheckboxes value={[held]} onChange={onChange} />);
    expect(screen.getByRole("checkbox", { name: new RegExp(`\\(${held}\\)$`) })).toBeChecked();
    await userEvent.click(screen.getByRole("checkbox", { name: "User (0)" }));
    expect(onChange).toHaveBeenCalledWith([PERMISSION.user, held].sort((a, b) => a - b));
  });
});
