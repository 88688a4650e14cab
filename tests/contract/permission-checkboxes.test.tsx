/**
 * The permission editor offers the modules of this build (their declarations): a code nobody can
 * use is not offered, unless the administrator already holds it, so it can be seen and taken
 * away; saving keeps the held codes in the table's order.
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

describe("the permission editor", () => {
  it("offers the module of every code this build has, each once", () => {
    // Every one of the fourteen modules is built now.
    expect(IMPLEMENTED_PERMISSION_CODES.size).toBe(PERMISSION_MODULES.length);
    render(<PermissionCheckboxes value={[]} />);
    expect(screen.getAllByRole("checkbox")).toHaveLength(IMPLEMENTED_PERMISSION_CODES.size);
    for (const module of PERMISSION_MODULES.filter((m) =>
      IMPLEMENTED_PERMISSION_CODES.has(m.code),
    )) {
      expect(
        screen.getByRole("checkbox", { name: new RegExp(`\\(${module.code}\\)$`) }),
      ).toBeInTheDocument();
    }
  });

  it("keeps the held codes, in the table's order, when another is ticked", async () => {
    const onChange = vi.fn();
    render(<PermissionCheckboxes value={[PERMISSION.parking]} onChange={onChange} />);
    expect(screen.getByRole("checkbox", { name: /\(39\)$/ })).toBeChecked();
    await userEvent.click(screen.getByRole("checkbox", { name: "User (0)" }));
    expect(onChange).toHaveBeenCalledWith([PERMISSION.user, PERMISSION.parking]);
  });
});
